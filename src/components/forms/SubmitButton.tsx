import type { ReactNode } from 'react';

interface Props {
  busy: boolean;
  children: ReactNode;
  /** Shown instead of children while the request runs. */
  busyLabel?: ReactNode;
  disabled?: boolean;
  variant?: 'primary' | 'danger' | 'success' | 'info' | 'warning';
  block?: boolean;
}

/** Disabled while its request runs, so a double click cannot send the form twice. */
export function SubmitButton({ busy, children, busyLabel, disabled, variant = 'primary', block }: Props) {
  return (
    <button type="submit" className={`btn btn-${variant}${block ? ' btn-block' : ''}`} disabled={busy || disabled} aria-busy={busy || undefined}>
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
