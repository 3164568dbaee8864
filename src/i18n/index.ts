import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../app/locale';

// Translations live in locales/{lng}/{namespace}.json; each file is its own lazy chunk, so a
// page loads only the namespaces it uses. Loading retries up to 5 times, waiting 350 ms and
// doubling, with at most 10 reads at once (seed §9): a failed read answers (error, true), the
// "retry" flag without which i18next gives the namespace up at once.

const loaders = import.meta.glob('./locales/*/*.json');

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, callback) {
    if (ns === 'errors') {
      // Only a failed call needs these: their loader (and its list of files) stays out of the first script.
      import('./errors')
        .then((m) => m.loadErrorMessages(lng))
        .then(
          (m) => callback(null, m),
          (e: Error) => callback(e, true),
        );
      return;
    }
    const load = loaders[`./locales/${lng}/${ns}.json`];
    if (!load) return callback(null, {});
    load().then(
      (m) => callback(null, (m as { default: Record<string, unknown> }).default),
      (e: Error) => callback(e, true),
    );
  },
};

export function initI18n(lng: Locale = DEFAULT_LOCALE) {
  if (i18n.isInitialized) return i18n;
  void i18n
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...LOCALES],
      ns: ['common', 'validation'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      maxRetries: 5,
      retryTimeout: 350,
      maxParallelReads: 10,
      react: { useSuspense: true },
      returnNull: false,
    } as Parameters<typeof i18n.init>[0]);
  return i18n;
}
