import { PassThrough } from 'node:stream';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { createInstance, type i18n as I18n, type Resource } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Route, Router } from 'wouter';
import { App } from './app/App';
import { pageComponent, preloadPage } from './app/Router';
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

/**
 * One instance per language, made once, each recording the namespaces a render used (the page's
 * boot data lists them). Renders are synchronous (renderToString), so one set a language is
 * enough; the rare render through the stream may share it with another: it then lists more.
 */
const instances = new Map<Locale, { i18n: I18n; used: Set<string> }>(
  LOCALES.map((locale) => {
    const i18n = base.cloneInstance({ lng: locale, initAsync: false });
    memoizeTranslations(i18n);
    const used = new Set<string>();
    (i18n as unknown as { reportNamespaces: unknown }).reportNamespaces = {
      addUsedNamespaces: (ns: readonly string[]) => ns.forEach((n) => used.add(n)),
      getUsedNamespaces: () => [...used],
    };
    return [locale, { i18n, used }];
  }),
);

type FixedT = ReturnType<I18n['getFixedT']>;
const MEMO_MAX = 4000;

/**
 * The identity of one t() call, or null when it cannot be kept: the key and its options when
 * these are a few numbers, booleans or short strings ({ age: 27 }, { count: 3 }, { page: 2 }).
 */
function callId(key: unknown, rest: unknown[]): string | null {
  if (typeof key !== 'string' || rest.length > 1) return null;
  if (rest.length === 0 || rest[0] === undefined) return key;
  const options = rest[0];
  if (typeof options !== 'object' || options === null) return null;
  let id = key;
  for (const name in options) {
    const v = (options as Record<string, unknown>)[name];
    if (typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v.length <= 40)) id += `\u0000${name}\u0001${typeof v}\u0001${v}`;
    else return null;
  }
  return id;
}

/**
 * i18next copies its whole options object and walks its resolver on every t() call: a third of a
 * page's render, 40 calls a listing page (a card's age, the types, the pages). The same call
 * always gives the same string for one language, namespace and prefix (the resources are part of
 * this bundle and never change), so each is worked out once and kept, up to MEMO_MAX a
 * namespace (then forgotten all at once: a call with a visitor's words in it cannot grow the map).
 */
function memoizeTranslations(i18n: I18n): void {
  const getFixedT = i18n.getFixedT.bind(i18n) as unknown as (...args: unknown[]) => (...args: unknown[]) => unknown;
  const fixed = new Map<string, FixedT>();
  i18n.getFixedT = ((
    lng: string | readonly string[] | null,
    ns?: string | readonly string[] | null,
    keyPrefix?: unknown,
    fixedOpts?: { scopeNs?: unknown },
  ) => {
    if (keyPrefix !== undefined && typeof keyPrefix !== 'string') return getFixedT(lng, ns, keyPrefix, fixedOpts);
    const scope = JSON.stringify([lng, ns ?? null, keyPrefix ?? null, fixedOpts?.scopeNs ?? null]);
    let t = fixed.get(scope);
    if (!t) {
      const original = getFixedT(lng, ns, keyPrefix, fixedOpts);
      const known = new Map<string, unknown>();
      t = Object.assign((key: unknown, ...rest: unknown[]) => {
        const id = callId(key, rest);
        if (id === null) return original(key, ...rest);
        let v = known.get(id);
        if (v === undefined) {
          v = original(key, ...rest);
          if (known.size >= MEMO_MAX) known.clear();
          known.set(id, v);
        }
        return v;
      }, original) as unknown as FixedT;
      fixed.set(scope, t);
    }
    return t;
  }) as I18n['getFixedT'];
}

function i18nFor(locale: Locale): { i18n: I18n; used: Set<string> } {
  const it = instances.get(locale)!;
  it.used.clear();
  it.used.add('common').add('validation');
  return it;
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
  ['transparency', routes.transparency],
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
  transparency: 'src/pages/public/Transparency.tsx',
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

/** A whole tree: in one go once every lazy part is loaded, else through the stream, which waits for them. */
async function html(tree: React.ReactNode): Promise<string> {
  // renderToString is faster than the stream; a part that still suspends (before the first
  // renders loaded it) leaves a client-rendered marker (<!--$!-->): render again through the stream.
  const quick = renderToString(tree);
  return quick.includes('<!--$!-->') ? renderToHtml(tree) : quick;
}

/**
 * Pages rendered on their own, inside a frame (the layout: bar, footer…) rendered once a language:
 * the frame is most of a page's render, and the same for all of them. Only pages whose markup
 * holds no useId value (those follow the place in the whole tree) qualify: search names its field
 * itself. render.test.ts compares each with a whole render.
 */
const FRAMED = new Set(['home', 'listingsUs', 'listingsState', 'listingsCity', 'ad', 'search', 'notFound']);
const PATTERNS = new Map(PAGES);

interface Frame {
  before: string;
  after: string;
  ns: string[];
}
const frames = new Map<Locale, Promise<Frame | null>>();

/** The layout of a language around the place of its page: the 404 page rendered whole, then cut out of it. */
function frameFor(locale: Locale): Promise<Frame | null> {
  let frame = frames.get(locale);
  if (!frame) {
    frame = (async () => {
      const path = `${localeBase(locale)}/__frame__`;
      await preloadPage('notFound');
      const { i18n, used } = i18nFor(locale);
      const alone = splitPreloads(await html(tree(i18n, path, '', null, pageTree('notFound', path, locale))));
      const pageNs = new Set([...used].filter((n) => n !== 'common' && n !== 'validation'));
      i18nFor(locale);
      const whole = splitPreloads(await html(tree(i18n, path, '', null, <App />)));
      const ns = [...used].filter((n) => !pageNs.has(n)); // the layout's own (the 404 page's are not)
      const at = whole.indexOf(alone);
      if (at < 0 || whole.indexOf(alone, at + 1) >= 0) return null; // not found once: render pages whole
      return { before: whole.slice(0, at), after: whole.slice(at + alone.length), ns };
    })();
    frames.set(locale, frame);
  }
  return frame;
}

/** React's image preloads come first in its output: the caller moves those it wants to the head. */
function splitPreloads(html: string): string {
  return html.replace(/^(?:<link [^>]*\/>)+/, '');
}

const localeBase = (locale: Locale) => (locale === 'en' ? '' : `/${locale}`);

/** A page on its own, as the app's routes render it (its params from its pattern). */
function pageTree(page: string, path: string, locale: Locale): React.ReactNode {
  const Page = pageComponent(page)!;
  return (
    <Router base={localeBase(locale)}>
      <Route path={PATTERNS.get(page)} component={Page} />
    </Router>
  );
}

function tree(i18n: I18n, path: string, search: string, data: { key: string; result: Loaded<unknown> } | null, content: React.ReactNode) {
  return (
    <SsrData.Provider value={data}>
      <I18nextProvider i18n={i18n}>
        <Router ssrPath={path} ssrSearch={search}>
          {content}
        </Router>
      </I18nextProvider>
    </SsrData.Provider>
  );
}

/**
 * Renders `url` (path and query, locale prefix included) against `source`: a public page, or the
 * 404 page. The caller serves the browser's own pages (classify: 'client') as the plain client app.
 * `whole` renders the whole tree even for a framed page (tests compare the two).
 */
export async function render(url: string, source: PublicSource, opts: { whole?: boolean } = {}): Promise<Rendered> {
  const [path, search = ''] = url.split('?');
  const { locale, rest } = splitLocale(path);
  const match = matchPage(rest);
  const page = match?.page ?? 'notFound';
  const params = match?.params ?? {};
  const loader = (LOADERS as Record<string, (typeof LOADERS)[LoaderName] | undefined>)[page];
  const key = loader ? loader.key(params, search) : null;
  const [result, frame] = await Promise.all([
    loader ? (loader.load(params, search, source) as Promise<Loaded<unknown>>) : Promise.resolve<Loaded<unknown>>({ status: match ? 200 : 404, data: null }),
    FRAMED.has(page) && !opts.whole ? frameFor(locale) : null,
    preloadPage(page),
  ]);
  const { i18n, used } = i18nFor(locale);
  const data = key ? { key, result } : null;
  let out: string;
  if (frame) {
    // The page's own image preloads (React writes them first) stay first, for the caller.
    const alone = await html(tree(i18n, path, search, data, pageTree(page, path, locale)));
    const preloads = /^(?:<link [^>]*\/>)*/.exec(alone)![0];
    out = preloads + frame.before + alone.slice(preloads.length) + frame.after;
    for (const n of frame.ns) used.add(n);
  } else {
    out = await html(tree(i18n, path, search, data, <App />));
  }
  const ns = [...used];
  const boot: Boot = { page, key, result, ns };
  return {
    status: result.status,
    page,
    html: out,
    boot: JSON.stringify(boot).replace(/</g, '\\u003c'),
    ns,
    locale,
    head: pageHead(page, result),
  };
}
