import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';

// Tests read the real English texts, loaded eagerly and initialised synchronously, so a
// component renders its final strings on the first pass (no Suspense, no lazy backend).
const files = import.meta.glob<Record<string, unknown>>('../i18n/locales/*/*.json', { eager: true, import: 'default' });

export function localeResources(): Resource {
  const resources: Resource = {};
  for (const [path, data] of Object.entries(files)) {
    const m = /locales\/(\w+)\/(\w+)\.json$/.exec(path);
    if (!m) continue;
    (resources[m[1]] ??= {})[m[2]] = data;
  }
  return resources;
}

export function initTestI18n() {
  if (i18n.isInitialized) return i18n;
  void i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: ['en', 'es', 'pt'],
    resources: localeResources(),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
  });
  return i18n;
}
