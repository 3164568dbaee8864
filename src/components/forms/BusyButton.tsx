import type { ReactNode } from 'react';

interface Props {
  /** Its request runs: presses are ignored until it ends. */
  busy: boolean;
  /** Nothing to do yet: presses are ignored. */
  disabled?: boolean;
  onClick: () => void;
  className: string;
  children: ReactNode;
  'aria-haspopup'?: 'dialog';
}

/**
 * A button (not a form's submit) that refuses presses while its request runs, so it cannot send
 * twice. It says so with aria-disabled rather than `disabled`: a focused button that becomes
 * disabled drops keyboard focus to the page's body.
 */
export function BusyButton({ busy, disabled, onClick, className, children, ...aria }: Props) {
  const refused = busy || !!disabled;
  return (
    <button
      type="button"
      className={className}
      aria-disabled={refused || undefined}
      aria-busy={busy || undefined}
      onClick={refused ? undefined : onClick}
      {...aria}
    >
      {children}
    </button>
  );
}
