import { Suspense, useEffect } from 'react';
import { Router, useLocation } from 'wouter';
import i18n from 'i18next';
import { localeBase, splitLocale } from './locale';
import { AppRoutes } from './Router';
import { loadSession } from '../state/session';
import { Loading } from '../components/Loading';

/** Picks the locale from the path prefix and mounts the routes under it. */
export function App() {
  const [path] = useLocation();
  const { locale } = splitLocale(path);

  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
    document.documentElement.lang = locale;
  }, [locale]);

  useEffect(() => {
    void loadSession();
  }, []);

  return (
    <Suspense fallback={<Loading />}>
      <Router base={localeBase(locale)}>
        <AppRoutes />
      </Router>
    </Suspense>
  );
}
