import { lazy, Suspense, useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { progress } from './progress';
import { ProgressBar } from './ProgressBar';
import { reportPageView } from '../../api/analytics';
import { splitLocale } from '../../app/locale';

// The server wrote the first page's head; updates for later pages load after first paint.
const SeoEffect = lazy(() => import('../../app/seo'));

/**
 * What happens on every route change, for the whole app: the progress bar, the page-view report,
 * the head tags. Also disables the context menu (seed §2: right-click disabled globally).
 */
export function RouteEffects() {
  const [path] = useLocation();
  const previous = useRef<string | null>(null);

  useEffect(() => {
    const block = (e: MouseEvent) => e.preventDefault();
    document.addEventListener('contextmenu', block);
    return () => document.removeEventListener('contextmenu', block);
  }, []);

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
  }, [path]);

  return (
    <>
      <ProgressBar />
      <Suspense fallback={null}>
        <SeoEffect path={path} />
      </Suspense>
    </>
  );
}
