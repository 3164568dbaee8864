import { proxy } from 'valtio';
import { asError } from '../api/client';

/** The lifecycle every data area has: loading, error, data. */
export interface Resource<T> {
  loading: boolean;
  /**
   * Why the last load failed: the error itself (an ApiError keeps the server's code and params),
   * worded when shown (errorMessage, LoadState), so a language switch re-words it.
   */
  error: Error | null;
  data: T | null;
}

const resets: Array<() => void> = [];

/**
 * A valtio store for one data area, with its load action. Every area registers a reset, so
 * logout can return all of them to their initial state at once (resetAllStores).
 */
export function createResource<T, A extends unknown[] = []>(loader: (...args: A) => Promise<T>) {
  const state = proxy<Resource<T>>({ loading: false, error: null, data: null });
  let ticket = 0;
  async function load(...args: A): Promise<T | null> {
    const mine = ++ticket;
    state.loading = true;
    state.error = null;
    try {
      const data = await loader(...args);
      if (mine === ticket) state.data = data as never;
      return data;
    } catch (e) {
      if (mine === ticket) state.error = asError(e);
      return null;
    } finally {
      if (mine === ticket) state.loading = false;
    }
  }
  function reset() {
    ticket++;
    state.loading = false;
    state.error = null;
    state.data = null;
  }
  resets.push(reset);
  return { state, load, reset };
}

/** Registers an extra reset for stores that are not plain resources. */
export function onReset(fn: () => void): void {
  resets.push(fn);
}

/** Bumped by every reset: a sign-out, a sign-in, another user found in the tab. */
let generation = 0;

export function resetAllStores(): void {
  generation++;
  for (const r of resets) r();
}

/**
 * Taken before an action's request: the answer is the previous user's once the data areas were
 * reset meanwhile (signed out, another user signed in in this tab), and is not written into the
 * stores then (the areas' loads drop theirs the same way, with their ticket). Used as
 * `const unchanged = sessionCheck(); const out = await …; if (!unchanged()) return out;`.
 */
export function sessionCheck(): () => boolean {
  const mine = generation;
  return () => mine === generation;
}
