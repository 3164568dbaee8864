import { useLayoutEffect, useRef, useSyncExternalStore } from 'react';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const never = () => () => {};

/**
 * False while the page is the server's HTML (rendered on the server, then hydrated), true once
 * React answers it. A page rendered in the browser is true from its first render.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

/**
 * A ref for a controlled field of a server-rendered form: what the visitor typed or chose in it
 * before hydration is taken into `set` when React takes the page over. A public page's script
 * comes with a low priority (site.service.ts), so its forms are fillable for seconds before they
 * answer: hydration leaves the typed text in the field but the state keeps the server's value,
 * and the first re-render would write that back over it, or the form would send it. Done in a
 * layout effect of the first commit, before anything re-renders or is painted.
 */
export function useTypedBeforeHydration<E extends Control>(value: string, set: (value: string) => void) {
  const ref = useRef<E>(null);
  useLayoutEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== value) set(typed);
    // the first commit only: later changes come through onChange
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}
