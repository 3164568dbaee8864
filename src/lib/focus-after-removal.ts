import { useEffect, useRef, type RefObject } from 'react';

/**
 * A list whose items each have a Remove button (marked `data-remove`): the button leaves with its
 * item, and focus would fall to the page's body. After a removal, focus goes to the Remove of the
 * item that took its place, else of the one before, else to `fallback` (the list's add control).
 * Returns the list's ref and `removed(i)`, to call as item i is removed; `items` is the list's
 * data, whose change ends the removal.
 */
export function useFocusAfterRemoval<L extends HTMLElement>(items: unknown, fallback: RefObject<HTMLElement | null>) {
  const list = useRef<L>(null);
  const pending = useRef<number | null>(null);
  useEffect(() => {
    const at = pending.current;
    if (at === null) return;
    pending.current = null;
    const removes = list.current?.querySelectorAll<HTMLButtonElement>('button[data-remove]') ?? [];
    (removes[Math.min(at, removes.length - 1)] ?? fallback.current)?.focus();
  }, [items, fallback]);
  const removed = (i: number) => {
    pending.current = i;
  };
  return { list, removed };
}
