import type { Loaded } from './loaders';
import type { ErrorParams } from '../../contract/errors/index.ts';

// The data of the pages shown, by loader key (loaders.ts): what main.tsx puts here before
// hydrating (the server's data for the first page) and what useRouteData (routeData.ts) loads
// later. Part of the first paint: no React, no store library, no HTTP client.

/**
 * Why the last load failed, as the server said it (its code and params), not as text: the page
 * words it when shown, so a language switch re-words it. No code: `message` as it came, or none
 * (no answer, or one without a message) for 'Something went wrong.'.
 */
export interface LoadError {
  code: string | null;
  params?: ErrorParams;
  message: string | null;
}

export interface Entry {
  result: Loaded<unknown> | null;
  error: LoadError | null;
  at: number;
  loading: boolean;
}

const MAX_ENTRIES = 30;

const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();
/** Counts clearRouteData calls: a load started before one must not bring back what it forgot. */
let generation = 0;
export const generationOf = (): number => generation;

export const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const entryOf = (key: string): Entry | undefined => entries.get(key);

export function put(key: string, e: Entry): void {
  entries.delete(key);
  entries.set(key, e);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  listeners.forEach((l) => l());
}

/** The server's data for the first page (from the page's embedded JSON). */
export function seedRouteData(key: string, result: Loaded<unknown>): void {
  put(key, { result, error: null, at: Date.now(), loading: false });
}

/**
 * Forgets every page's data: on sign-in, sign-out (session.ts) and in tests. Not all of it is
 * public: GET /api/ads/{id} answers a hidden ad (in review, offline) to its owner, with the phone
 * number, and it must not be shown to whoever uses the tab next.
 */
export function clearRouteData(): void {
  generation++;
  entries.clear();
  listeners.forEach((l) => l());
}
