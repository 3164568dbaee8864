import { createInstance, type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

// The test setup (src/test/i18n.ts) loads every namespace up front; the app does not:
// src/i18n/index.ts loads 'common' and 'validation' at start and each other namespace only when a
// component asks for it with useTranslation (lazy backend, Suspense). This instance does the same,
// from the same files: a text read from a namespace no component of the page asks for shows up
// here as its raw key or its fallback, as it does in the app.

const files = import.meta.glob('../i18n/locales/*/*.json');

export function appLikeI18n(): I18n {
  const backend: BackendModule = {
    type: 'backend',
    init() {},
    read(lng, ns, callback) {
      const load = files[`../i18n/locales/${lng}/${ns}.json`];
      if (!load) return callback(null, {});
      load().then(
        (m) => callback(null, (m as { default: Record<string, unknown> }).default),
        (e: Error) => callback(e, null),
      );
    },
  };
  const i18n = createInstance();
  void i18n
    .use(backend)
    .use(initReactI18next)
    .init({
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: ['en', 'es', 'pt'],
      ns: ['common', 'validation'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
  return i18n;
}
