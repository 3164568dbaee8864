import { useEffect } from 'react';
import i18n from 'i18next';
import { useSearch } from 'wouter';
import { matchSeoRoute, seoHead, splitSeoLocale, type SeoHead } from '../../contract/seo';
import { useLoadedData } from './routeData';
import { pageHead } from './pageHead';

// Keeps the head in step with the route on client-side navigation: title, description,
// canonical, hreflang alternates, Open Graph and robots. The server writes the same tags into the
// first HTML response (server/modules/site), so crawlers get them without running this.

function setMeta(attr: 'name' | 'property', key: string, content: string | null): void {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (content === null) {
    el?.remove();
    return;
  }
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.content = content;
}

function setLink(selector: string, attrs: Record<string, string>): void {
  let el = document.head.querySelector<HTMLLinkElement>(selector);
  if (!el) {
    el = document.createElement('link');
    document.head.appendChild(el);
  }
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
}

export function applyHead(h: SeoHead): void {
  document.title = h.title;
  setMeta('name', 'description', h.description);
  setMeta('property', 'og:title', h.title);
  setMeta('property', 'og:description', h.description);
  setMeta('property', 'og:url', h.canonical);
  setMeta('name', 'robots', h.noindex ? 'noindex' : null);
  setLink('link[rel="canonical"]', { rel: 'canonical', href: h.canonical });
  // The previous page's alternates go: a missing page has none, and none may point elsewhere.
  const langs = new Set(h.alternates.map((a) => a.hreflang));
  for (const el of document.head.querySelectorAll<HTMLLinkElement>('link[rel="alternate"][hreflang]')) {
    if (!langs.has(el.getAttribute('hreflang')!)) el.remove();
  }
  for (const a of h.alternates) setLink(`link[rel="alternate"][hreflang="${a.hreflang}"]`, { rel: 'alternate', hreflang: a.hreflang, href: a.href });
}

/** The loader key of the pages whose head comes from their data (an ad's title and description). */
function dataKey(pathname: string): string | null {
  const { rest } = splitSeoLocale(pathname);
  return matchSeoRoute(rest).key === 'ad' ? `ad:${rest.split('/')[2]}` : null;
}

/**
 * Sets the head for the current path (full path, locale prefix included) and query (page 2 of a
 * list is its own canonical: contract/seo.ts seoQuery), and from the page's data once it is here.
 */
export function useSeo(pathname: string, search = ''): void {
  const key = dataKey(pathname);
  const loaded = useLoadedData(key);
  useEffect(() => {
    let cancelled = false;
    const { locale } = splitSeoLocale(pathname);
    // The page's language may not be the active one yet (the app switches it in its own effect),
    // so load that language's 'public' texts explicitly.
    const ready = i18n.hasResourceBundle(locale, 'public') ? Promise.resolve() : i18n.reloadResources([locale], ['public']);
    void ready.then(() => {
      if (cancelled) return;
      const t = i18n.getFixedT(locale, 'public');
      // The state and city names are made from the URL's slugs.
      const extra = loaded && pageHead('ad', loaded);
      const head = seoHead(pathname, window.location.origin, (k, params) => t(k, params ?? {}), extra?.names, search);
      if (extra?.title) head.title = `${extra.title} | ${t('seo.siteName')}`;
      if (extra?.description) head.description = extra.description;
      if (extra?.noindex) head.noindex = true;
      // Tags already for this page are kept: on the first page the server wrote them, with the
      // exact names and texts from the database.
      const current = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
      if (current === head.canonical && (!loaded || loaded.status !== 200 || document.title === head.title)) return;
      applyHead(head);
    });
    return () => {
      cancelled = true;
    };
  }, [pathname, search, loaded]);
}

/** The lazy-loaded form used by RouteEffects: head updates are not needed for first paint. */
export default function SeoEffect({ path }: { path: string }) {
  useSeo(path, useSearch());
  return null;
}
