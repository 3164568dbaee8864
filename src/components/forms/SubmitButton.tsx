import type { MouseEvent, ReactNode } from 'react';

interface Props {
  busy: boolean;
  children: ReactNode;
  /** Shown instead of children while the request runs. */
  busyLabel?: ReactNode;
  disabled?: boolean;
  variant?: 'primary' | 'danger' | 'success' | 'info' | 'warning';
  block?: boolean;
}

/**
 * Refuses to send while its request runs, so a double click (or Enter again in a field) cannot send
 * the form twice. It says so with aria-disabled rather than `disabled`: a focused button that
 * becomes disabled drops keyboard focus to the page's body.
 */
export function SubmitButton({ busy, children, busyLabel, disabled, variant = 'primary', block }: Props) {
  // Cancelling the click cancels the submit, also the one Enter in a field makes (implicit submission clicks this button).
  const ignore = (e: MouseEvent) => e.preventDefault();
  return (
    <button
      type="submit"
      className={`btn btn-${variant}${block ? ' btn-block' : ''}`}
      disabled={disabled}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      onClick={busy ? ignore : undefined}
    >
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
