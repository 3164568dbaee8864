import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { HTTPError } from 'ky';
import type { Loaded } from './loaders';
import { entryOf as get, generationOf, put, subscribe, type LoadError } from './routeStore';
import { ApiError, fallbackMessage } from '../api/client';
import { translateError } from '../i18n/errors';

// The data of the page being shown, by loader key (loaders.ts). The server renders with the data
// in a context (SsrData); the browser starts from the same data, embedded in the page and put in
// the store before hydration (routeStore.ts seedRouteData), so the first render matches the
// server's and nothing is fetched again. Later pages load through their loader when first rendered;
// a page whose load failed (busy, offline) asks again each time it is opened.

/** The data a server render uses (the browser never provides it). */
export const SsrData = createContext<{ key: string; result: Loaded<unknown> } | null>(null);

/** How long loaded data is shown again without asking (navigating back and forth). */
const FRESH_MS = 60_000;

/**
 * What a failed load keeps: the code to word it by, the same as errorMessage (api/client.ts) would.
 * An answer that could not be read (HTML from a proxy: the JSON parser's SyntaxError) keeps no
 * message, so it is worded 'Something went wrong.' in the page's language, never the parser's English.
 */
function loadError(e: unknown): LoadError {
  if (e instanceof ApiError) return { code: e.code, params: e.params, message: e.said };
  if (e instanceof HTTPError || e instanceof SyntaxError) return { code: null, message: null };
  return { code: null, message: e instanceof Error && e.message ? e.message : null };
}

function start(key: string, load: () => Promise<Loaded<unknown>>): void {
  const prev = get(key);
  if (prev?.loading) return;
  put(key, { result: prev?.result ?? null, error: null, at: prev?.at ?? 0, loading: true });
  // An answer to a load started before a sign-in or sign-out (clearRouteData) was asked as the
  // previous user: it is dropped, not cached for the next one (the page has asked again).
  const mine = generationOf();
  load().then(
    (result) => mine === generationOf() && put(key, { result, error: null, at: Date.now(), loading: false }),
    (e: unknown) => mine === generationOf() && put(key, { result: prev?.result ?? null, error: loadError(e), at: Date.now(), loading: false }),
  );
}

export interface RouteDataState<T> {
  result: Loaded<T> | null;
  loading: boolean;
  error: string | null;
}

/**
 * The data of `key`, loaded by `load` when it is not here yet, no longer fresh, or failed last
 * time (a 503 or a lost connection must not stick until a reload). While it loads, `result` is
 * the previous data of the same key, if any; `error` is worded in the page's language.
 */
export function useRouteData<T>(key: string, load: () => Promise<Loaded<T>>): RouteDataState<T> {
  const ssr = useContext(SsrData);
  // Re-renders on a language switch, which re-words a failure (the 'errors' namespace, once
  // loaded for the failure, is loaded for the new language too).
  const { i18n } = useTranslation();
  const entry = useSyncExternalStore(
    subscribe,
    () => get(key),
    () => get(key),
  );
  // Also when the entry goes away while shown: a sign-in or sign-out forgets every page's data
  // (routeStore clearRouteData) and the page on screen loads its own again.
  const gone = entry === undefined;
  useEffect(() => {
    const e = get(key);
    if (!e || (!e.loading && (e.error || Date.now() - e.at > FRESH_MS))) start(key, load as () => Promise<Loaded<unknown>>);
    // `load` is the same loader for the same key
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, gone]);
  if (ssr && ssr.key === key) return { result: ssr.result as Loaded<T>, loading: false, error: null };
  const failed = entry?.error;
  const error = !failed
    ? null
    : failed.code
      ? translateError(i18n.t.bind(i18n) as never, failed.code, failed.params, failed.message ?? fallbackMessage())
      : (failed.message ?? fallbackMessage());
  return { result: (entry?.result as Loaded<T> | null) ?? null, loading: !entry || entry.loading, error };
}

/** The data of `key` when it is here (the head tags of a page follow its data: seo.tsx). */
export function useLoadedData(key: string | null): Loaded<unknown> | null {
  const entry = useSyncExternalStore(
    subscribe,
    () => (key ? get(key) : undefined),
    () => undefined,
  );
  return entry?.result ?? null;
}
