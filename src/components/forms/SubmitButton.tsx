import type { MouseEvent, ReactNode } from 'react';

interface Props {
  busy: boolean;
  children: ReactNode;
  /** Shown instead of children while the request runs. */
  busyLabel?: ReactNode;
  /** Nothing to send yet (e.g. nothing changed): the button says so and ignores presses. */
  disabled?: boolean;
  variant?: 'primary' | 'danger' | 'success' | 'info' | 'warning';
  block?: boolean;
}

/**
 * Refuses to send while its request runs, so a double click (or Enter again in a field) cannot send
 * the form twice, and while there is nothing to send. It says so with aria-disabled rather than
 * `disabled`: a focused button that becomes disabled (busy, or nothing left to save right after a
 * save) drops keyboard focus to the page's body.
 */
export function SubmitButton({ busy, children, busyLabel, disabled, variant = 'primary', block }: Props) {
  const refused = busy || !!disabled;
  // Cancelling the click cancels the submit, also the one Enter in a field makes (implicit submission clicks this button).
  const ignore = (e: MouseEvent) => e.preventDefault();
  return (
    <button
      type="submit"
      className={`btn btn-${variant}${block ? ' btn-block' : ''}`}
      aria-disabled={refused || undefined}
      aria-busy={busy || undefined}
      onClick={refused ? ignore : undefined}
    >
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
