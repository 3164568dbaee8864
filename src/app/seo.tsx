import { useEffect } from 'react';
import i18n from 'i18next';
import { seoHead, splitSeoLocale, type SeoHead } from '../../contract/seo';

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
  for (const a of h.alternates) setLink(`link[rel="alternate"][hreflang="${a.hreflang}"]`, { rel: 'alternate', hreflang: a.hreflang, href: a.href });
}

/** Sets the head for the current path (full path, locale prefix included). */
export function useSeo(pathname: string): void {
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
      const head = seoHead(pathname, window.location.origin, (key, params) => t(key, params ?? {}));
      // Tags already for this page are kept: on the first page the server wrote them, with the
      // exact state and city names from the database.
      const current = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
      if (current === head.canonical) return;
      applyHead(head);
    });
    return () => {
      cancelled = true;
    };
  }, [pathname]);
}

/** The lazy-loaded form used by RouteEffects: head updates are not needed for first paint. */
export default function SeoEffect({ path }: { path: string }) {
  useSeo(path);
  return null;
}
