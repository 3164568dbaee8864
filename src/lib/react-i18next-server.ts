import { useContext } from 'react';
import type { i18n as I18n, TFunction } from 'i18next';
import { I18nContext } from 'react-i18next';

// react-i18next as the server renderer uses it: the build of dist/.ssr/entry-server.js resolves
// every `import … from 'react-i18next'` in src/ here (vite.config.ts, serverI18n), and this file's
// own import to the real package. Only useTranslation differs. react-i18next's hook is made for a
// browser, where the language and the loaded namespaces change while a component lives: per call
// it copies the i18next instance's properties into a wrapper, merges its options and subscribes to
// the store, a quarter of a page's render on the server, where every render is a first render, the
// language is the page's and every namespace is in the bundle. This one returns what that hook
// returns once ready: the same t (i18n.getFixedT with the same arguments, so the same words and the
// same markup for hydration), the instance, ready = true, and it reports the namespaces used as
// that hook does (the page's boot data lists them).

type Translation = [TFunction, I18n, boolean] & { t: TFunction; i18n: I18n; ready: boolean };

export function useTranslation(ns?: string | readonly string[]): Translation {
  const { i18n, defaultNS } = useContext(I18nContext) as { i18n: I18n; defaultNS?: string };
  const namespaces: readonly string[] =
    typeof ns === 'string' ? [ns] : ns?.length ? ns : [defaultNS ?? (i18n.options.defaultNS as string | undefined) ?? 'translation'];
  (i18n as unknown as { reportNamespaces?: { addUsedNamespaces(ns: readonly string[]): void } }).reportNamespaces?.addUsedNamespaces(namespaces);
  const t = (i18n as unknown as { getFixedT(lng: string, ns: string, keyPrefix: undefined, options: { scopeNs: readonly string[] }): TFunction }).getFixedT(
    i18n.language,
    namespaces[0],
    undefined,
    { scopeNs: namespaces },
  );
  return Object.assign([t, i18n, true], { t, i18n, ready: true }) as Translation;
}

export { I18nContext, I18nextProvider, Trans, initReactI18next } from 'react-i18next';
