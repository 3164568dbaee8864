import { createInstance, type i18n as I18n } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, useTranslation as browserHook } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import en from '../i18n/locales/en/market.json';
import es from '../i18n/locales/es/market.json';
import enCommon from '../i18n/locales/en/common.json';
import esCommon from '../i18n/locales/es/common.json';
import { useTranslation as serverHook } from './react-i18next-server.ts';

// The server renderer's useTranslation must give what react-i18next's gives, word for word (the
// browser hydrates the server's markup with the real hook), and report the same namespaces.

type Hook = typeof serverHook;

async function instance(lng: string): Promise<{ i18n: I18n; used: Set<string> }> {
  const i18n = createInstance();
  await i18n.init({
    resources: { en: { market: en, common: enCommon }, es: { market: es, common: esCommon } },
    lng,
    fallbackLng: 'en',
    ns: ['common'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    initAsync: false,
  });
  const used = new Set<string>();
  (i18n as unknown as { reportNamespaces: unknown }).reportNamespaces = {
    addUsedNamespaces: (ns: readonly string[]) => ns.forEach((n) => used.add(n)),
    getUsedNamespaces: () => [...used],
  };
  return { i18n, used };
}

function Probe({ hook, ns }: { hook: Hook; ns?: string | string[] }) {
  const [t, i18n, ready] = hook(ns);
  const named = hook(ns);
  return (
    <p data-lng={i18n.language} data-ready={String(ready && named.ready)}>
      {t('ageShort', { age: 27 })}|{t('adsCount', { count: 0 })}|{t('adsCount', { count: 1 })}|{t('adsCount', { count: 5 })}|{t('market:types.female_esc')}|
      {t('common:loading')}|{named.t('loading')}|{t('no.such.key')}
    </p>
  );
}

describe('the server renderer’s useTranslation', () => {
  for (const lng of ['en', 'es']) {
    for (const ns of [undefined, 'market', ['market', 'common'], 'common']) {
      it(`says what react-i18next’s says (${lng}, namespaces ${JSON.stringify(ns)})`, async () => {
        const browser = await instance(lng);
        const server = await instance(lng);
        const html = (hook: Hook, i18n: I18n) =>
          renderToString(
            <I18nextProvider i18n={i18n}>
              <Probe hook={hook} ns={ns} />
            </I18nextProvider>,
          );
        const expected = html(browserHook as unknown as Hook, browser.i18n);
        expect(expected).toContain(lng === 'es' ? 'Cargando...' : 'Loading...');
        if (ns === 'market' || Array.isArray(ns)) expect(expected).toContain(lng === 'es' ? '27 años' : 'age 27');
        expect(html(serverHook, server.i18n)).toBe(expected);
        expect([...server.used].sort()).toEqual([...browser.used].sort());
      });
    }
  }
});
