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
    // chunk: the home page's first script stays small (README: bundle size).
    void import('../state/session').then((m) => m.loadSession());
    // The page answers from here on (a server-rendered page is hydrated): the e2e suite waits for it.
    document.documentElement.dataset.hydrated = 'true';
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
