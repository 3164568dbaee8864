import { useEffect } from 'react';
import i18n from 'i18next';
import { matchRoute, useRouter, useSearch, type Parser } from 'wouter';
import { OG_LOCALE, seoHead, splitSeoLocale, type SeoHead } from '../../contract/seo';
import { useLoadedData } from './routeData';
import { missingHead, pageHead, type PageHead } from './pageHead';
import { LOADERS, type LoaderName } from './loaders';
import { routes } from './routes';

// Keeps the head in step with the route on client-side navigation: title, description,
// canonical, hreflang alternates, Open Graph, Twitter card and robots. The server writes the same
// tags into the first HTML response (server/modules/site/site.head.ts renderHead), so crawlers get
// them without running this; a page reached either way has the same head.

/** og:locale of each language, as renderHead writes it. */

/** What a page's data adds to the link-preview tags: an ad's photo (an absolute URL) and og:type. */
export type PreviewExtras = Pick<PageHead, 'image' | 'type'>;

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

/**
 * Writes the tags renderHead writes, and removes the previous page's that it would not write: a
 * list reached from an ad must not keep the ad's photo, og:type=article or its large card.
 */
export function applyHead(h: SeoHead, siteName: string, extras: PreviewExtras = {}): void {
  const img = extras.image;
  document.title = h.title;
  setMeta('name', 'description', h.description);
  setMeta('property', 'og:type', extras.type ?? 'website');
  setMeta('property', 'og:site_name', siteName);
  setMeta('property', 'og:title', h.title);
  setMeta('property', 'og:description', h.description);
  setMeta('property', 'og:url', h.canonical);
  setMeta('property', 'og:locale', OG_LOCALE[h.locale]);
  setMeta('property', 'og:image', img?.url ?? null);
  setMeta('property', 'og:image:width', img ? String(img.width) : null);
  setMeta('property', 'og:image:height', img ? String(img.height) : null);
  setMeta('property', 'og:image:alt', img?.alt ?? null);
  setMeta('name', 'twitter:card', img ? 'summary_large_image' : 'summary');
  setMeta('name', 'twitter:image', img?.url ?? null);
  setMeta('name', 'robots', h.noindex ? 'noindex' : null);
  setLink('link[rel="canonical"]', { rel: 'canonical', href: h.canonical });
  // The previous page's alternates go: a missing page has none, and none may point elsewhere.
  const langs = new Set(h.alternates.map((a) => a.hreflang));
  for (const el of document.head.querySelectorAll<HTMLLinkElement>('link[rel="alternate"][hreflang]')) {
    if (!langs.has(el.getAttribute('hreflang')!)) el.remove();
  }
  for (const a of h.alternates) setLink(`link[rel="alternate"][hreflang="${a.hreflang}"]`, { rel: 'alternate', hreflang: a.hreflang, href: a.href });
}

/** The loader route a path (without its locale) is, matched as the router matches it, with its data's key. */
function loaderOf(rest: string, search: string, parser: Parser): { name: LoaderName; key: string } | null {
  for (const name of Object.keys(LOADERS) as LoaderName[]) {
    const [hit, params] = matchRoute(parser, routes[name], rest);
    if (hit) return { name, key: LOADERS[name].key(params, search) };
  }
  return null;
}

const metaContent = (attr: 'name' | 'property', key: string) => document.head.querySelector(`meta[${attr}="${key}"]`)?.getAttribute('content') ?? null;

/** Whether the head already says what `h` and `extras` say (the server wrote it, or an earlier pass). */
function shows(h: SeoHead, extras: PreviewExtras): boolean {
  return (
    metaContent('property', 'og:type') === (extras.type ?? 'website') &&
    metaContent('property', 'og:image') === (extras.image?.url ?? null) &&
    metaContent('property', 'og:locale') === OG_LOCALE[h.locale] &&
    document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href === h.canonical &&
    document.title === h.title &&
    (document.head.querySelector('meta[name="description"]')?.getAttribute('content') ?? null) === h.description &&
    !!document.head.querySelector('meta[name="robots"]') === h.noindex &&
    document.head.querySelectorAll('link[rel="alternate"][hreflang]').length === h.alternates.length
  );
}

/**
 * Sets the head for the current path (full path, locale prefix included) and query (page 2 of a
 * list is its own canonical: contract/seo.ts seoQuery), and from the page's data once it is here:
 * the real names of its state and city, an ad's texts, noindex for an empty list, and the server's
 * 404 head (missingHead) for a page whose data says it does not exist.
 */
export function useSeo(pathname: string, search = ''): void {
  const { locale, rest } = splitSeoLocale(pathname);
  const route = loaderOf(rest, search, useRouter().parser);
  const loaded = useLoadedData(route?.key ?? null);
  const name = route?.name ?? null;
  useEffect(() => {
    let cancelled = false;
    // The page's language may not be the active one yet (the app switches it in its own effect),
    // so load that language's 'public' texts explicitly.
    const ready = i18n.hasResourceBundle(locale, 'public') ? Promise.resolve() : i18n.reloadResources([locale], ['public']);
    void ready.then(() => {
      if (cancelled) return;
      const t = i18n.getFixedT(locale, 'public');
      const tr = (k: string, params?: Record<string, string>) => t(k, params ?? {});
      const origin = window.location.origin;
      let head: SeoHead;
      let extras: PreviewExtras = {};
      if (loaded && loaded.status !== 200) head = missingHead(pathname, locale, origin, tr);
      else {
        // Until the data is here, the state and city names are made from the URL's slugs.
        const extra = loaded && name ? pageHead(name, loaded) : null;
        head = seoHead(pathname, origin, tr, extra?.names, search);
        if (extra?.title) head.title = `${extra.title} | ${t('seo.siteName')}`;
        if (extra?.description) head.description = extra.description;
        if (extra?.noindex) head.noindex = true;
        // The photo's URL is the site's path to it; the server prefixes its origin the same way.
        extras = { type: extra?.type, image: extra?.image && { ...extra.image, url: origin + extra.image.url } };
      }
      // Tags already for this page are kept: on the first page the server wrote them, with the
      // exact names and texts from the database. A page with data is kept only when the head
      // says all its data says (a link's page starts with its slugs' names).
      const current = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
      if (current === head.canonical && (!loaded || shows(head, extras))) return;
      applyHead(head, t('seo.siteName'), extras);
    });
    return () => {
      cancelled = true;
    };
  }, [pathname, locale, search, loaded, name]);
}

/** The lazy-loaded form used by RouteEffects: head updates are not needed for first paint. */
export default function SeoEffect({ path }: { path: string }) {
  useSeo(path, useSearch());
  return null;
}
