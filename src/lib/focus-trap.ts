import type { KeyboardEvent as ReactKeyboardEvent } from 'react';

const FOCUSABLE = 'input, select, textarea, button, [href], [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab inside a modal dialog (aria-modal): from its last control Tab goes to its first, and
 * Shift+Tab from its first to its last, instead of into the page hidden behind it.
 */
export function trapTab(e: KeyboardEvent | ReactKeyboardEvent, container: HTMLElement | null): void {
  if (e.key !== 'Tab' || !container) return;
  const items = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => !x.hasAttribute('disabled'));
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  const inside = container.contains(document.activeElement);
  if (e.shiftKey && (document.activeElement === first || !inside)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
    e.preventDefault();
    first.focus();
  }
}
