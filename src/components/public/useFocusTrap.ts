import { useEffect, useEffectEvent, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The open traps, the latest last: only it handles Tab and Escape (the age gate over the search overlay). */
const open: object[] = [];

/**
 * Keeps Tab and Shift+Tab inside a dialog, focuses its first control on open and gives focus
 * back to whatever had it when the dialog closes. Escape calls onEscape when given. A trap opened
 * over another (the age gate over the search overlay or the drawer) takes the keys until it closes.
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, active: boolean, onEscape?: () => void, initial?: RefObject<HTMLElement | null>): void {
  // The latest onEscape, read when the key is pressed: a new callback does not re-run the trap.
  const escape = useEffectEvent((e: KeyboardEvent): boolean => {
    if (!onEscape) return false;
    e.preventDefault();
    onEscape();
    return true;
  });
  useEffect(() => {
    if (!active) return;
    const root = ref.current;
    if (!root) return;
    const before = document.activeElement as HTMLElement | null;
    const items = () => [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden]'));
    (initial?.current ?? items()[0] ?? root).focus();
    const me = {};
    open.push(me);
    const onKey = (e: KeyboardEvent) => {
      if (open[open.length - 1] !== me) return;
      if (e.key === 'Escape' && escape(e)) return;
      if (e.key !== 'Tab') return;
      const list = items();
      if (!list.length) return;
      const first = list[0];
      const last = list[list.length - 1];
      if (e.shiftKey && (document.activeElement === first || !root.contains(document.activeElement))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (document.activeElement === last || !root.contains(document.activeElement))) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      // One closing under another (the drawer under the age gate) leaves the focus where the upper one keeps it.
      const top = open[open.length - 1] === me;
      open.splice(open.indexOf(me), 1);
      document.removeEventListener('keydown', onKey, true);
      if (top && before && document.contains(before)) before.focus();
    };
  }, [active, ref, initial]);
}
