import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ERRORS } from '../../contract/errors/index.ts';

// Tests read the real English texts, loaded eagerly and initialised synchronously, so a
// component renders its final strings on the first pass (no Suspense, no lazy backend).
const files = import.meta.glob<Record<string, unknown>>('../i18n/locales/*/*.json', { eager: true, import: 'default' });

const errorFiles = import.meta.glob<Record<string, string>>('../i18n/locales/*/errors/*.json', { eager: true, import: 'default' });

export function localeResources(): Resource {
  const resources: Resource = {};
  for (const [path, data] of Object.entries(files)) {
    const m = /locales\/(\w+)\/(\w+)\.json$/.exec(path);
    if (!m) continue;
    (resources[m[1]] ??= {})[m[2]] = data;
  }
  return resources;
}

/** The 'errors' namespace as the app loads it (src/i18n/errors.ts): English from the contract. */
export function errorResources(): Resource {
  const resources: Resource = { en: { errors: { ...ERRORS } } };
  for (const [path, data] of Object.entries(errorFiles)) {
    const lng = /locales\/(\w+)\/errors\//.exec(path)![1];
    const ns = ((resources[lng] ??= {}).errors ??= {}) as Record<string, string>;
    Object.assign(ns, data);
  }
  return resources;
}

export function initTestI18n() {
  if (i18n.isInitialized) return i18n;
  void i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: ['en', 'es', 'pt'],
    resources: mergeResources(localeResources(), errorResources()),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
  });
  return i18n;
}

function mergeResources(a: Resource, b: Resource): Resource {
  const out: Resource = { ...a };
  for (const [lng, namespaces] of Object.entries(b)) out[lng] = { ...out[lng], ...namespaces };
  return out;
}
