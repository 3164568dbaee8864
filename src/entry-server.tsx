import { PassThrough } from 'node:stream';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { createInstance, type i18n as I18n, type Resource } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { App } from './app/App';
import { preloadPage } from './app/Router';
import { SsrData } from './app/routeData';
import { LOADERS, type Loaded, type LoaderName, type PublicSource } from './app/loaders';
import { pageHead, type PageHead } from './app/pageHead';
import { routes } from './app/routes';
import { LOCALES, splitLocale, type Locale } from './app/locale';
import type { Boot } from './app/boot';

// The server renderer (built by `vite build` into dist/.ssr/entry-server.js, imported by
// server/modules/site): renders a public page with the same components, loaders and texts as the
// browser, and says what the browser needs to take it over (boot data, page, namespaces).

const files = import.meta.glob<Record<string, unknown>>('./i18n/locales/*/*.json', { eager: true, import: 'default' });

/** Every namespace of every language, in memory: the server never waits for a text. */
function resources(): Resource {
  const out: Resource = {};
  for (const [path, data] of Object.entries(files)) {
    const m = /locales\/(\w+)\/(\w+)\.json$/.exec(path);
    if (m) (out[m[1]] ??= {})[m[2]] = data;
  }
  return out;
}

const base = createInstance();
void base.init({
  resources: resources(),
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LOCALES],
  ns: ['common', 'validation'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  initAsync: false,
  returnNull: false,
} as Parameters<typeof base.init>[0]);

/** A per-render instance in the page's language that records the namespaces the page used. */
function i18nFor(locale: Locale): { i18n: I18n; used: Set<string> } {
  const i18n = base.cloneInstance({ lng: locale, initAsync: false });
  const used = new Set<string>(['common', 'validation']);
  (i18n as unknown as { reportNamespaces: unknown }).reportNamespaces = {
    addUsedNamespaces: (ns: readonly string[]) => ns.forEach((n) => used.add(n)),
    getUsedNamespaces: () => [...used],
  };
  return { i18n, used };
}

/** The public pages rendered here, by route name (Router.tsx's page table), and their patterns. */
const PAGES: ReadonlyArray<[string, string]> = [
  ['home', routes.home],
  ['contactUs', routes.contactUs],
  ['faq', routes.faq],
  ['terms', routes.terms],
  ['agreement', routes.agreement],
  ['aboutUs', routes.aboutUs],
  ['reportCrime', routes.reportCrime],
  ['lawEnforcement', routes.lawEnforcement],
  ['listingsUs', routes.listingsUs],
  ['listingsState', routes.listingsState],
  ['listingsCity', routes.listingsCity],
  ['ad', routes.ad],
  ['search', routes.search],
];

/** The source module of each page (its chunk in the client build's manifest). */
export const PAGE_MODULES: Record<string, string> = {
  home: 'src/pages/public/Home.tsx',
  contactUs: 'src/pages/public/ContactUs.tsx',
  faq: 'src/pages/public/Faq.tsx',
  terms: 'src/pages/public/Terms.tsx',
  agreement: 'src/pages/public/Agreement.tsx',
  aboutUs: 'src/pages/public/AboutUs.tsx',
  reportCrime: 'src/pages/public/ReportCrime.tsx',
  lawEnforcement: 'src/pages/public/LawEnforcement.tsx',
  listingsUs: 'src/pages/public/ListingsUs.tsx',
  listingsState: 'src/pages/public/ListingsState.tsx',
  listingsCity: 'src/pages/public/ListingsCity.tsx',
  ad: 'src/pages/public/AdDetail.tsx',
  search: 'src/pages/public/Search.tsx',
  notFound: 'src/pages/public/NotFound.tsx',
};

/** Modules every public page loads as it hydrates (the footer, below the fold but in the HTML). */
export const SHELL_MODULES = ['src/components/public/Footer.tsx'];

export interface Rendered {
  status: number;
  page: string;
  /** The app's HTML, for inside #root. */
  html: string;
  /** The boot data as JSON, `<` escaped: safe inside a script element. */
  boot: string;
  ns: string[];
  locale: Locale;
  head: PageHead;
}

/**
 * A route pattern as wouter's parser (regexparam) reads it: `:name` is one segment, a trailing
 * slash is allowed, letters match in any case; params come as they are in the path (not decoded).
 */
function compile(pattern: string): { re: RegExp; keys: string[] } {
  const keys: string[] = [];
  const body = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_m, k: string) => {
    keys.push(k);
    return '([^/]+?)';
  });
  return { re: new RegExp(`^${body === '/' ? '' : body}/?$`, 'i'), keys };
}
const COMPILED = PAGES.map(([page, pattern]) => ({ page, ...compile(pattern) }));

/** The browser's other routes: the dashboard (a prefix) and every route that is not rendered here. */
const CLIENT_ONLY = Object.entries(routes)
  .filter(([name]) => !PAGES.some(([page]) => page === name))
  .map(([, pattern]) => compile(pattern).re);

/**
 * What the browser's router would show at a path (without the locale prefix): a page rendered
 * here, one it renders itself (sign-in, the dashboard…), or the 404 page. The server follows it,
 * so the page it sends is the page the browser hydrates.
 */
export function classify(rest: string): 'page' | 'client' | 'missing' {
  if (/^\/admin\/dashboard(\/|$)/i.test(rest) || CLIENT_ONLY.some((re) => re.test(rest))) return 'client';
  return matchPage(rest) ? 'page' : 'missing';
}

/** The public page a path (without the locale prefix) is, with its params; null when none. */
function matchPage(rest: string): { page: string; params: Record<string, string> } | null {
  for (const { page, re, keys } of COMPILED) {
    const m = re.exec(rest);
    if (m) return { page, params: Object.fromEntries(keys.map((k, i) => [k, m[i + 1]])) };
  }
  return null;
}

function renderToHtml(node: React.ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on('data', (c: Buffer) => chunks.push(c));
    sink.on('end', () => resolve(Buffer.concat(chunks).toString('utf8'))); // whole: a character may span two chunks
    const stream = renderToPipeableStream(node, {
      // Crawlers and the page cache want the whole page: wait for every lazy part, and write every
      // part in place. (Past progressiveChunkSize, 12.8 kB by default, React moves large parts to
      // the end of the page with inline scripts, which the Content Security Policy refuses.)
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onAllReady: () => stream.pipe(sink),
      onShellError: (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
      onError: (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
    });
  });
}

/**
 * Renders `url` (path and query, locale prefix included) against `source`: a public page, or the
 * 404 page. The caller serves the browser's own pages (classify: 'client') as the plain client app.
 */
export async function render(url: string, source: PublicSource): Promise<Rendered> {
  const [path, search = ''] = url.split('?');
  const { locale, rest } = splitLocale(path);
  const match = matchPage(rest);
  const page = match?.page ?? 'notFound';
  const params = match?.params ?? {};
  const loader = (LOADERS as Record<string, (typeof LOADERS)[LoaderName] | undefined>)[page];
  const key = loader ? loader.key(params, search) : null;
  const [result] = await Promise.all([
    loader ? (loader.load(params, search, source) as Promise<Loaded<unknown>>) : Promise.resolve<Loaded<unknown>>({ status: match ? 200 : 404, data: null }),
    preloadPage(page),
  ]);
  const { i18n, used } = i18nFor(locale);
  const tree = (
    <SsrData.Provider value={key ? { key, result } : null}>
      <I18nextProvider i18n={i18n}>
        <Router ssrPath={path} ssrSearch={search}>
          <App />
        </Router>
      </I18nextProvider>
    </SsrData.Provider>
  );
  // Once every lazy part has been loaded (after the first renders), the page renders in one go,
  // faster than through a stream; a part that still suspends leaves a client-rendered marker
  // (<!--$!-->) and the page is rendered again through the stream, which waits for it.
  const quick = renderToString(tree);
  const html = quick.includes('<!--$!-->') ? await renderToHtml(tree) : quick;
  const ns = [...used];
  const boot: Boot = { page, key, result, ns };
  return {
    status: result.status,
    page,
    html,
    boot: JSON.stringify(boot).replace(/</g, '\\u003c'),
    ns,
    locale,
    head: pageHead(page, result),
  };
}
