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

export function resetAllStores(): void {
  for (const r of resets) r();
}
