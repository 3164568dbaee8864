// Per-route title, description, canonical URL and hreflang alternates, shared by the client (which
// updates the head on navigation) and the server (which writes the same tags into the HTML it
// serves, so crawlers and link previews read them without running script). Pure TypeScript with
// no imports: the server loads this file directly under Node's type stripping.

export const SEO_LOCALES = ['en', 'es', 'pt'] as const;
export type SeoLocale = (typeof SEO_LOCALES)[number];

/** og:locale of each page language: the server's head (site.head.ts) and the client's after navigation (src/app/seo.tsx). */
export const OG_LOCALE: Record<SeoLocale, string> = { en: 'en_US', es: 'es_CO', pt: 'pt_BR' };

/** Listing-type URL slugs (the same list as src/app/routes.ts LISTING_TYPES). */
export const SEO_LISTING_TYPES: ReadonlyArray<{ code: string; slug: string }> = [
  { code: 'female_esc', slug: 'female-escorts' },
  { code: 'female_rub', slug: 'female-bodyrubs' },
  { code: 'shemale_esc', slug: 'shemale-escorts' },
];

export type SeoKey =
  | 'home'
  | 'contactUs'
  | 'faq'
  | 'terms'
  | 'agreement'
  | 'aboutUs'
  | 'reportCrime'
  | 'lawEnforcement'
  | 'transparency'
  | 'listingsUs'
  | 'listingsState'
  | 'listingsCity'
  | 'ad'
  | 'search'
  | 'login'
  | 'register'
  | 'confirmEmail'
  | 'forgotPassword'
  | 'resetPassword'
  | 'unsubscribe'
  | 'sandboxCheckout'
  | 'dashboard'
  | 'notFound';

export interface SeoRoute {
  key: SeoKey;
  /** Slugs a page names (state, city) and the listing-type code; names are looked up by the caller. */
  stateSlug?: string;
  citySlug?: string;
  typeCode?: string;
  /** Pages that must not be indexed: search results, sign-in, the dashboard, unknown pages. */
  noindex: boolean;
  notFound: boolean;
}

const STATIC: Record<string, SeoKey> = {
  '/': 'home',
  '/contact-us': 'contactUs',
  '/faq': 'faq',
  '/terms': 'terms',
  '/agreement': 'agreement',
  '/about-us': 'aboutUs',
  '/report-crime': 'reportCrime',
  '/law-enforcement': 'lawEnforcement',
  '/transparency': 'transparency',
  '/listings/us': 'listingsUs',
  '/search': 'search',
  '/auth/login': 'login',
  '/auth/register': 'register',
  '/auth/confirm-email': 'confirmEmail',
  '/auth/forgot-password': 'forgotPassword',
  '/auth/reset-password': 'resetPassword',
  '/unsubscribe': 'unsubscribe',
};
const NOINDEX: ReadonlySet<SeoKey> = new Set<SeoKey>([
  'search',
  'login',
  'register',
  'confirmEmail',
  'forgotPassword',
  'resetPassword',
  'unsubscribe',
  'dashboard',
  'notFound',
]);

/** The static public pages every sitemap lists (listing pages are added from the database). */
export const SITEMAP_STATIC_PATHS = [
  '/',
  '/listings/us',
  '/about-us',
  '/faq',
  '/contact-us',
  '/terms',
  '/agreement',
  '/report-crime',
  '/law-enforcement',
  '/transparency',
];

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Splits a browser path into its locale and the rest (English has no prefix). */
export function splitSeoLocale(pathname: string): { locale: SeoLocale; rest: string } {
  const m = /^\/(es|pt)(\/.*)?$/.exec(pathname);
  if (m) return { locale: m[1] as SeoLocale, rest: m[2] || '/' };
  return { locale: 'en', rest: pathname || '/' };
}

/** The rest of a path in a locale: /faq → /es/faq; / → /es. */
export function localizedPath(rest: string, locale: SeoLocale): string {
  if (locale === 'en') return rest;
  return rest === '/' ? `/${locale}` : `/${locale}${rest}`;
}

/** Which page a path (without locale prefix, without query) is, for its head tags. */
export function matchSeoRoute(rest: string): SeoRoute {
  const path = rest.length > 1 ? rest.replace(/\/+$/, '') : rest;
  const plain = STATIC[path];
  if (plain) return { key: plain, noindex: NOINDEX.has(plain), notFound: false };
  if (path === '/admin/dashboard' || path.startsWith('/admin/dashboard/')) return { key: 'dashboard', noindex: true, notFound: false };
  const parts = path.split('/').slice(1);
  if (parts[0] === 'listings' && parts[1] === 'us') {
    if (parts.length === 3 && SLUG.test(parts[2])) return { key: 'listingsState', stateSlug: parts[2], noindex: false, notFound: false };
    const type = SEO_LISTING_TYPES.find((t) => t.slug === parts[4]);
    if (parts.length === 5 && SLUG.test(parts[2]) && SLUG.test(parts[3]) && type) {
      return { key: 'listingsCity', stateSlug: parts[2], citySlug: parts[3], typeCode: type.code, noindex: false, notFound: false };
    }
  }
  if (parts[0] === 'sandbox' && parts[1] === 'checkout' && parts.length === 3 && /^[A-Za-z0-9]{1,64}$/.test(parts[2]))
    return { key: 'sandboxCheckout', noindex: true, notFound: false };
  if (parts[0] === 'ad' && parts.length === 2 && /^[a-z0-9]{1,40}$/.test(parts[1])) return { key: 'ad', noindex: false, notFound: false };
  return { key: 'notFound', noindex: true, notFound: true };
}

/** Turns a slug into words when its real name is not known ('new-york' → 'New York'). */
export function humanizeSlug(slug: string): string {
  return slug
    .replace(/-\d+$/, '')
    .split('-')
    .map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w))
    .join(' ');
}

export type Translate = (key: string, params?: Record<string, string>) => string;

export interface SeoHead {
  locale: SeoLocale;
  title: string;
  description: string;
  canonical: string;
  alternates: Array<{ hreflang: string; href: string }>;
  noindex: boolean;
}

/**
 * The query parameters that make a page of their own, normalised as the page's loader reads them
 * (src/app/loaders.ts): a city list's ?page=N past the first, a state's ?letter=X. Each such page
 * lists other ads or cities, so it names itself as canonical: pointing page 2..n at page 1 would
 * hide whatever is linked only from the deeper pages. Every other parameter (type filters, utm_…)
 * is left out of the canonical. `page` and `letter` are for the title.
 */
export function seoQuery(key: SeoKey, search: string): { query: string; page?: number; letter?: string } {
  const q = new URLSearchParams(search.replace(/^\?/, ''));
  if (key === 'listingsCity') {
    const page = Number(q.get('page'));
    if (Number.isInteger(page) && page > 1) return { query: `?page=${page}`, page };
  }
  if (key === 'listingsState') {
    // The state page links each letter in lower case (?letter=b): its canonical is that address.
    const letter = q.get('letter')?.trim().toUpperCase();
    if (letter) return { query: `?${new URLSearchParams({ letter: letter.toLowerCase() })}`, letter };
  }
  return { query: '' };
}

/** The query parameters any page reads (the server compares a URL's own with pageQuery's). */
export const PAGE_PARAMS = ['query', 'state', 'type', 'page', 'letter'] as const;

/**
 * The query a page reads, each value as its loader reads it (src/app/loaders.ts) and in the order
 * the app's own links write them: the server renders this and keeps the page under it, so the
 * spellings of one page (?page=1, ?page=01, ?page=abc, a parameter the page does not read) share
 * one cached page and answer with its URL. A value that makes the page not exist (an unknown type
 * on a browse page, a letter no city starts with, a page past the end) is kept: it still answers 404.
 */
export function pageQuery(key: SeoKey, search: string): string {
  const q = new URLSearchParams(search.replace(/^\?/, ''));
  const out = new URLSearchParams();
  const keep = (name: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined) out.set(name, value);
  };
  // ?type= names a listing type by its slug on the browse pages (by its code in search); absent or empty is every type.
  const type = (raw: string | null) => SEO_LISTING_TYPES.find((t) => t.slug === raw || t.code === raw);
  const page = () => {
    const n = Number(q.get('page'));
    if (Number.isInteger(n) && n > 1) out.set('page', String(n));
  };
  if (key === 'listingsUs' || key === 'listingsState') {
    const raw = q.get('type');
    if (raw) keep('type', type(raw)?.slug ?? raw);
    // The state page reads the letter trimmed, in upper case; its links write it in lower case (seoQuery).
    if (key === 'listingsState') keep('letter', q.get('letter')?.trim().toUpperCase().toLowerCase());
  } else if (key === 'listingsCity') page();
  else if (key === 'search') {
    keep('query', q.get('query'));
    keep('state', q.get('state') || null);
    keep('type', type(q.get('type'))?.code);
    page();
  }
  return out.toString();
}

/**
 * The head of a page. `tr` reads the 'public' namespace's `seo.*` keys in the page's locale;
 * `names` are the real state and city names when the caller could look them up; `search` is the
 * page's query (see seoQuery). A missing page has no language versions: no alternates.
 */
export function seoHead(pathname: string, origin: string, tr: Translate, names: { state?: string; city?: string } = {}, search = ''): SeoHead {
  const { locale, rest } = splitSeoLocale(pathname);
  const route = matchSeoRoute(rest);
  const params: Record<string, string> = {
    state: names.state ?? (route.stateSlug ? humanizeSlug(route.stateSlug) : ''),
    city: names.city ?? (route.citySlug ? humanizeSlug(route.citySlug) : ''),
    type: route.typeCode ? tr(`seo.types.${route.typeCode}`) : '',
  };
  const site = tr('seo.siteName');
  const own = seoQuery(route.key, search);
  let page = tr(`seo.${route.key}.title`, params);
  // Page 2 of a list (or a state's letter) is a page of its own: its own title too, not a duplicate.
  if (own.page) page = tr('seo.paged', { title: page, page: String(own.page) });
  else if (own.letter) page = tr('seo.lettered', { title: page, letter: own.letter });
  const title = route.key === 'home' ? page : `${page} | ${site}`;
  const clean = (rest.length > 1 ? rest.replace(/\/+$/, '') : rest) + own.query;
  const base = origin.replace(/\/+$/, '');
  return {
    locale,
    title,
    description: tr(`seo.${route.key}.description`, params),
    canonical: base + localizedPath(clean, locale),
    alternates: route.notFound
      ? []
      : [...SEO_LOCALES.map((l) => ({ hreflang: l, href: base + localizedPath(clean, l) })), { hreflang: 'x-default', href: base + clean }],
    noindex: route.noindex,
  };
}

/** Reads a dotted key from a nested translation object and fills {{params}} (i18next's syntax). */
export function translateFrom(resources: unknown, key: string, params: Record<string, string> = {}): string | null {
  let v: unknown = resources;
  for (const part of key.split('.')) {
    if (v === null || typeof v !== 'object') return null;
    v = (v as Record<string, unknown>)[part];
  }
  if (typeof v !== 'string') return null;
  return v.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => params[k] ?? '');
}
