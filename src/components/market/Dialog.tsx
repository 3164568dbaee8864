import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styles from './market.module.css';
import { trapTab } from '../../lib/focus-trap';

interface Props {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}

/**
 * Where focus goes when a dialog closes: back to its opener, or, when the dialog's action removed
 * the opener (the delete button of a deleted row), to the page's main heading, so that focus is
 * not lost to <body> (a screen reader would start again from the top of the document).
 */
function returnFocus(opener: HTMLElement | null): void {
  if (!opener) return;
  if (opener.isConnected) return opener.focus?.();
  const target = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1') ?? document.querySelector<HTMLElement>('main');
  if (!target) return;
  // A heading is not focusable by itself; -1 keeps it out of the Tab order.
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
}

/**
 * A modal dialog: role="dialog" labelled by its heading, focus moves in on open and back to the
 * opener on close (returnFocus), Escape and a click on the backdrop close it, Tab stays inside.
 */
export function Dialog({ title, onClose, children, wide }: Props) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const el = ref.current;
    const first = el?.querySelector<HTMLElement>('input, select, textarea, button:not([data-close]), [href]');
    (first ?? el)?.focus();
    return () => returnFocus(opener);
  }, []);

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
      return;
    }
    trapTab(e, ref.current);
  }

  return createPortal(
    <div className={styles.backdrop} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`${styles.dialog} ${wide ? styles.dialogWide : ''}`}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}
