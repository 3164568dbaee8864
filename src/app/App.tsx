import { Suspense, useEffect } from 'react';
import { Router, useLocation } from 'wouter';
import i18n from 'i18next';
import { localeBase, splitLocale } from './locale';
import { AppRoutes } from './Router';
import { Loading } from '../components/Loading';
import { RouteEffects } from '../components/public/RouteEffects';
import { AgeGateMount } from '../components/public/AgeGateMount';

/** Picks the locale from the path prefix and mounts the routes under it. */
export function App() {
  const [path] = useLocation();
  const { locale } = splitLocale(path);

  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
    document.documentElement.lang = locale;
  }, [locale]);

  useEffect(() => {
    // The session store and the HTTP client behind it load right after first paint, as their own
    // chunk: the home page's first script stays small (README: bundle size). From then on the
    // session is read again as the tab is looked at (another tab may have signed out).
    let stop: (() => void) | null = null;
    let unmounted = false;
    void import('../state/session').then((m) => {
      if (unmounted) return;
      void m.loadSession();
      stop = m.watchSession();
    });
    // The page answers from here on (a server-rendered page is hydrated): the e2e suite waits for it.
    document.documentElement.dataset.hydrated = 'true';
    return () => {
      unmounted = true;
      stop?.();
    };
  }, []);

  return (
    <>
      <RouteEffects />
      <Suspense fallback={<Loading />}>
        <Router base={localeBase(locale)}>
          <AppRoutes />
        </Router>
      </Suspense>
      <AgeGateMount />
    </>
  );
}
