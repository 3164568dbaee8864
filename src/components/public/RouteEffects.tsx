import { lazy, Suspense, useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { progress } from './progress';
import { ProgressBar } from './ProgressBar';
import { reportPageView } from '../../api/analytics';
import { splitLocale } from '../../app/locale';

// The server wrote the first page's head; updates for later pages load after first paint.
const SeoEffect = lazy(() => import('../../app/seo'));

/** How the address last changed: a link or the app (push, replace), or back/forward (pop). */
type Move = { kind: 'push' | 'replace' | 'pop'; from: Element | null };

/**
 * A link followed lands on the new page as a full page load would: at its top (unless it goes to a
 * #fragment), with focus on its h1, or its <main> while the h1 is not there yet (a keyboard or
 * screen-reader user would otherwise be left on <body>). Back and forward are left to the browser,
 * which puts the page back where it was. Not in the dashboard, which moves focus itself.
 */
function land(move: Move, path: string): number {
  if (move.kind === 'pop') return 0;
  if (move.kind === 'push' && !window.location.hash) window.scrollTo(0, 0);
  if (/^\/admin\/dashboard(\/|$)/.test(splitLocale(path).rest)) return 0;
  // After the new page is painted; a page that took focus itself (a form's field) keeps it.
  return requestAnimationFrame(() => {
    const now = document.activeElement;
    if (now && now !== document.body && now !== move.from && now.isConnected) return;
    const main = document.getElementById('main');
    const h1 = main?.querySelector<HTMLElement>('h1');
    // A page still loading keeps the previous one in place, hidden (React's Suspense): not its h1.
    if (h1 && (!('checkVisibility' in h1) || h1.checkVisibility())) {
      if (!h1.hasAttribute('tabindex')) h1.tabIndex = -1;
      h1.focus({ preventScroll: true });
    } else main?.focus({ preventScroll: true });
  });
}

/**
 * What happens on every route change, for the whole app: the progress bar, the page-view report,
 * the head tags, scroll and focus. Also disables the context menu (seed §2: right-click disabled
 * globally).
 */
export function RouteEffects() {
  const [path] = useLocation();
  const search = useSearch();
  const previous = useRef<string | null>(null);
  const page = useRef<string | null>(null);
  const move = useRef<Move>({ kind: 'push', from: null });

  useEffect(() => {
    // In the capture phase: it runs before the router's own listener re-renders the page.
    const note = (e: Event) => {
      move.current = { kind: e.type === 'popstate' ? 'pop' : e.type === 'replaceState' ? 'replace' : 'push', from: document.activeElement };
    };
    const kinds = ['popstate', 'pushState', 'replaceState'];
    for (const k of kinds) window.addEventListener(k, note, true);
    return () => {
      for (const k of kinds) window.removeEventListener(k, note, true);
    };
  }, []);

  useEffect(() => {
    const here = `${path}?${search}`;
    const last = page.current;
    page.current = here;
    if (last === null || last === here) return; // the first page, or its effect run again (StrictMode)
    const frame = land(move.current, path);
    return () => cancelAnimationFrame(frame);
  }, [path, search]);

  useEffect(() => {
    const block = (e: MouseEvent) => e.preventDefault();
    document.addEventListener('contextmenu', block);
    return () => document.removeEventListener('contextmenu', block);
  }, []);

  // A page view on every change of page: of path, or of query alone (a new search, a list's next
  // page), as opening that URL would report (seed §2); no query is sent, not even as the referrer
  // (a reset link's token, a search's words).
  useEffect(() => {
    const first = previous.current === null;
    const referrer = first ? document.referrer || null : window.location.origin + previous.current;
    previous.current = path;
    reportPageView({ path, locale: splitLocale(path).locale, referrer });
    if (first) return;
    // A lazy page that suspends keeps the bar running (PageLoading); otherwise it just flashes.
    progress.start();
    let open = true;
    const finish = () => {
      if (open) progress.done();
      open = false;
    };
    const frame = requestAnimationFrame(finish);
    return () => {
      cancelAnimationFrame(frame);
      finish();
    };
  }, [path, search]);

  return (
    <>
      <ProgressBar />
      <Suspense fallback={null}>
        <SeoEffect path={path} />
      </Suspense>
    </>
  );
}
