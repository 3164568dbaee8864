import { createHash, hash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import type { AppDeps } from '../../core/deps.ts';
import {
  PAGE_PARAMS,
  SEO_LISTING_TYPES,
  SEO_LOCALES,
  SITEMAP_STATIC_PATHS,
  localizedPath,
  matchSeoRoute,
  pageQuery,
  splitSeoLocale,
  type SeoLocale,
} from '../../../contract/seo.ts';
import { escapeHtml, headFor, injectHead, loadSeoTranslations, missingHead, renderHead, translator, type HeadExtras } from './site.head.ts';
import * as repo from './site.repository.ts';
import { splitPreloads, type Rendered, type SsrBuild } from './site.ssr.ts';
import { brotliHeadOffThread, brotliTail, headText, joinBrotli, type BrotliHead } from './site.brotli.ts';
import { ServerSource } from './site.source.ts';
import { Doorkeeper } from '../listings/listings.answers.ts';
import { accepts } from '../../core/encoding.ts';
import { cacheBudgets, TaggedCache, own } from '../listings/listings.cache.ts';

// A sitemap file holds at most 50,000 URLs; every page is listed in its three languages, with its
// alternates. Files stay small enough to build in tens of milliseconds at a million ads: 5,000
// pages (about 7 MB of XML), or 2,500 ads of one state (about 3 MB, 117 kB gzipped; a million ads
// make ~400 files).
const SITEMAP_PATHS_PER_FILE = 5_000;
const SITEMAP_ADS_PER_FILE = 2_500;

/** A page that depends on no data (FAQ, terms) is rendered again after this long at most. */
const PAGE_TTL_MS = 3_600_000;

export interface PageAnswer {
  status: number;
  etag: string;
  /** The page; a cached page keeps only its brotli copy (what browsers ask for). */
  html: Buffer | null;
  br?: Buffer;
  /** A cached page's brotli copy in two: its kind's shared head and its own rest (site.brotli.ts). */
  brHead?: BrotliHead;
  brTail?: Buffer;
  /** Made on first demand (the rare browser without brotli). */
  gz?: Buffer;
  /** Sent as it is, whatever the browser accepts (a first visit while the event loop is saturated). */
  plain?: true;
  /** The page's own size (`html`'s, also once only its brotli copy is kept). */
  length: number;
  /** What a cached page weighs. */
  bytes: number;
  /** Where a 301 sends the browser (the page's one URL); the page is elsewhere. */
  location?: string;
}

/** What a page of one kind in one language has in common with every other: its template and CSS, as bytes. */
interface PageFrame {
  /** The template up to its head tags, then the page's CSS and the spaces site.brotli.ts joins with. */
  head: Buffer;
  /** `head` compressed (at the best quality), for the pages' brotli copies to follow; null until made (off the event loop). */
  brHead: BrotliHead | null;
  /** Settles once brHead is made (or failed: pages are then compressed whole). */
  ready: Promise<void>;
  beforeRoot: Buffer;
  beforeData: Buffer;
  end: Buffer;
  hash: Buffer;
}

/**
 * The page a URL asks for: its path and its own query (contract/seo.ts pageQuery), the cache key
 * and what is rendered; the others (utm_…) neither change it nor split its cache entry. `moved` is
 * the page's one URL when the URL spells it otherwise (a public page's path with a trailing slash,
 * /es/ or /faq/; a query the page does not read or reads otherwise: ?page=1, ?page=abc, /faq?page=7),
 * the other parameters kept: answered with a redirect there when the page exists. `named`: a
 * route of the site names the path (one the router reads but the site does not name is no page).
 */
export function pageUrl(url: string): { path: string; search: string; moved: string | null; named: boolean } {
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  const all = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  // Only a path a route names loses its slash: any other may not redirect (//evil.example/ to //evil.example).
  const bare = raw.length > 1 && raw.endsWith('/') ? raw.replace(/\/+$/, '') || '/' : raw;
  const path = bare !== raw && !matchSeoRoute(splitSeoLocale(bare).rest).notFound ? bare : raw;
  const route = matchSeoRoute(splitSeoLocale(safeDecode(path)).rest);
  const search = pageQuery(route.key, all.toString());
  const own = new URLSearchParams();
  const others = new URLSearchParams(search);
  for (const [k, v] of all) {
    if ((PAGE_PARAMS as readonly string[]).includes(k)) own.append(k, v);
    else others.append(k, v);
  }
  const moved = path !== raw || own.toString() !== search ? path + (others.size ? `?${others}` : '') : null;
  return { path, search, moved, named: !route.notFound };
}

export class SiteService {
  private readonly deps: AppDeps;
  private readonly translations: Record<SeoLocale, unknown>;
  private ssr: SsrBuild | null = null;
  /** Rendered pages that exist, by URL; 404 and 410 pages apart, so junk URLs cannot push real pages out. */
  readonly pages: TaggedCache<PageAnswer>;
  private readonly missing: TaggedCache<PageAnswer>;
  private readonly door = new Doorkeeper();
  /** By language and kind of page, for this build. */
  private readonly frames = new Map<string, PageFrame>();

  constructor(deps: AppDeps) {
    this.deps = deps;
    const { pages, missing } = cacheBudgets(deps.config.cacheMb);
    this.pages = new TaggedCache<PageAnswer>(pages.entries, pages.bytes);
    this.missing = new TaggedCache<PageAnswer>(missing.entries, missing.bytes);
    this.translations = loadSeoTranslations();
  }

  private get origin(): string {
    return this.deps.config.publicUrl;
  }

  /** Renders public pages with this build from now on (site.routes.ts, once the build is loaded). */
  useBuild(ssr: SsrBuild): void {
    this.ssr = ssr;
    this.frames.clear();
    // Its stylesheet is inlined in every rendered page (SsrBuild.css); its script makes the page
    // interactive, not visible: it yields the bandwidth of a slow line to the page's largest image.
    ssr.template = ssr.template
      .replace(/<link rel="stylesheet"[^>]*href="\/assets\/[^"]+\.css"[^>]*>\s*/g, '')
      .replace(/<script type="module" crossorigin src=/, '<script type="module" crossorigin fetchpriority="low" src=');
    const listings = this.deps.services.listings;
    listings.register('pages', this.pages);
    listings.register('missing-pages', this.missing);
  }

  /**
   * A page URL: server-rendered with its data for the public pages (cached until a change touches
   * what it shows, as the API's answers are), or index.html with the page's head tags for the
   * others; 404 for pages that do not exist (unknown routes, states, cities, ads, pages past the
   * end), 410 for an ad that is gone for good, so crawlers do not index soft errors. A rendered
   * page asked for by another spelling of its URL answers 301 to its own (pageUrl `moved`).
   */
  async page(template: string, url: string): Promise<PageAnswer> {
    const { path, search, moved, named } = pageUrl(url);
    // Only rendered pages: the browser's own pages (the dashboard's search) read their query themselves.
    const found = (a: PageAnswer) => (moved && a.status === 200 ? this.moved(moved) : a);
    if (!this.ssr) return this.answer(await this.shell(template, url));
    const key = search ? `${path}?${search}` : path;
    const listings = this.deps.services.listings;
    const consistent = listings.sync();
    const now = this.deps.clock.now().getTime();
    // Only rendered pages are kept: a kept one needs no routing.
    const hit = consistent ? (this.pages.get(key, now) ?? this.missing.get(key, now)) : undefined;
    if (hit) return found(hit.value);
    // The browser's router decides which page a path is (the renderer follows it: what is sent is
    // what hydrates); the pages it renders itself (sign-in, the dashboard) get index.html.
    if (this.ssr.module.classify(splitSeoLocale(path).rest) === 'client') return this.answer(await this.shell(template, url));
    const batches = listings.changes.syncs;
    const source = new ServerSource(this.deps.services, this.deps.clock);
    let r: Rendered;
    try {
      r = await this.ssr.module.render(key, source);
    } catch (err) {
      // A page that cannot be rendered here is still a page: the browser renders it.
      this.deps.log.error({ err, url: key }, 'server rendering failed: serving the client app');
      return this.answer(await this.shell(template, url));
    }
    // A path the router reads but the site does not name (another case, a stray segment) is no page of ours.
    if (!named && r.status === 200) r.status = 404;
    const frame = this.pageFrame(r.locale as SeoLocale, r.page);
    const answer = this.document(path, search, r, frame);
    const until = Math.min(source.until, now + PAGE_TTL_MS);
    // Rendering awaits: a change committed meanwhile could not drop this page, not cached yet. It
    // is kept only if no change came in since the first read.
    const unchanged = listings.sync() && listings.changes.syncs === batches;
    // Kept from its second asking on (see Doorkeeper): most first visits are the only ones. One not
    // kept while the event loop is saturated (core/load.ts) goes out as it is: its brotli would
    // serve this one request, as for the API's answers (listings.answers.ts).
    const keep = this.door.seen(key);
    if (!keep && this.deps.load.busy) answer.plain = true;
    else if (consistent && unchanged && until > now) {
      // Only what follows the frame's head is compressed (quality 0: ~35 µs for an ad page where
      // the whole page took ~85 µs at quality 0 and ~125 µs at 1), and only that is kept: an ad
      // page 3.8 kB instead of 9.5 kB, so the cache holds 2.5 times as many (site.brotli.ts).
      const head = frame.brHead;
      const tail = head && brotliTail(answer.html!.subarray(frame.head.length));
      // A page sent once needs no copy of its own (`own`) of what zlib wrote.
      const mine = (b: Buffer) => (keep ? own(b) : b);
      let value: PageAnswer;
      if (head && tail) {
        value = { ...answer, html: null, brHead: head, brTail: mine(tail), bytes: tail.length };
        answer.br = joinBrotli(head, tail);
      } else {
        answer.br = mine(brotliCompressSync(answer.html!, { params: { [constants.BROTLI_PARAM_QUALITY]: 0 } }));
        value = { ...answer, html: null, bytes: answer.br.length };
      }
      if (keep) (r.status === 200 ? this.pages : this.missing).set(key, { value, until, tags: [...source.tags] });
    }
    return found(answer);
  }

  /** A permanent redirect to `location` (a path on this site, with its query). */
  private moved(location: string): PageAnswer {
    return { ...this.answer({ status: 301, html: '' }), location };
  }

  private answer(p: { status: number; html: string }): PageAnswer {
    const html = Buffer.from(p.html);
    return { status: p.status, html, etag: `"${hash('sha1', html, 'base64url').slice(0, 22)}"`, length: html.length, bytes: html.length };
  }

  /** The copy of the page the browser takes: brotli when the page has a brotli copy, else gzip (from 1 kB) or the page as it is. */
  encodingOf(p: PageAnswer, accept: string | undefined): 'br' | 'gzip' | undefined {
    if (p.plain) return undefined;
    if ((p.br || p.brTail) && accepts(accept, 'br')) return 'br';
    return p.length >= 1024 && accepts(accept, 'gzip') ? 'gzip' : undefined;
  }

  /**
   * The ETag of one copy of the page: each encoding its own strong tag (RFC 9110 §8.8.3), so a cache
   * revalidating its gzip copy is never told that its bytes are the brotli ones, or the page's.
   */
  etagOf(p: PageAnswer, encoding: 'br' | 'gzip' | undefined): string {
    return encoding ? `${p.etag.slice(0, -1)}-${encoding === 'br' ? 'br' : 'gz'}"` : p.etag;
  }

  /** The bytes of that copy (encodingOf). */
  encoded(p: PageAnswer, encoding: 'br' | 'gzip' | undefined): Buffer {
    if (p.plain) return p.html!;
    const br = p.br ?? (p.brTail && joinBrotli(p.brHead!, p.brTail));
    if (encoding === 'br') return br!;
    const html = p.html ?? brotliDecompressSync(br!);
    return encoding === 'gzip' ? (p.gz ??= own(gzipSync(html, { level: 6 }))) : html;
  }

  /**
   * The whole document of a rendered page: inlined CSS, head tags, the app's HTML and its data,
   * written as UTF-8 bytes in one go. The parts that only depend on the language and the kind of
   * page (the template around the head and the root, the page's CSS: 17–20 kB of a 28 kB page)
   * are bytes already, encoded, hashed and compressed once (pageFrame); the others are encoded
   * here. Encoding the whole page as one string cost ~60 µs when it held one character past
   * Latin-1 ("…"): V8 then keeps the joined string two bytes a character. The ETag hashes the
   * bytes after the frame's head, with the frame's own hash. `search` is the page's own query
   * (pageUrl): page 2 of a list names itself as canonical, not page 1.
   */
  private document(path: string, search: string, r: Rendered, frame: PageFrame): PageAnswer {
    const locale = r.locale as SeoLocale;
    const found = r.status === 200;
    const head = found
      ? headFor(safeDecode(path), this.origin, this.translations, r.head.names ?? {}, search)
      : missingHead(path, locale, this.origin, this.translations);
    const siteName = translator(this.translations, locale)('seo.siteName');
    const extras: HeadExtras = { image: r.head.image && { ...r.head.image, url: this.origin + r.head.image.url }, type: r.head.type };
    if (found && r.head.title) head.title = `${r.head.title} | ${siteName}`;
    if (found && r.head.description) head.description = r.head.description;
    if (r.head.noindex) head.noindex = true;
    const { preloads, body } = splitPreloads(r.html);
    const tags = `${renderHead(head, siteName, extras)}\n    ${preloads}`;
    const parts = [frame.head, tags, frame.beforeRoot, body, frame.beforeData, r.boot, frame.end];
    let length = 0;
    for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
    const html = Buffer.allocUnsafe(length);
    let at = 0;
    for (const part of parts) at += typeof part === 'string' ? html.write(part, at, 'utf8') : part.copy(html, at);
    if (at !== length) throw new Error(`page bytes: ${at} written of ${length}`); // never left uninitialized
    // Its bytes, not its strings: hashing a string encodes it again (~60 µs for a whole page against ~25 µs).
    const etag = createHash('sha1').update(frame.hash).update(html.subarray(frame.head.length)).digest('base64url');
    return { status: r.status, html, etag: `"${etag.slice(0, 22)}"`, length, bytes: length };
  }

  /** Settles once every page head made so far is compressed (tests). */
  async framesReady(): Promise<void> {
    await Promise.all([...this.frames.values()].map((f) => f.ready));
  }

  /** The constant bytes of a page of this kind in this language (see document). */
  private pageFrame(locale: SeoLocale, page: string): PageFrame {
    const key = `${locale} ${page}`;
    let frame = this.frames.get(key);
    if (!frame) {
      const HEAD = '\u0000head\u0000';
      const ROOT = '<div id="root"></div>';
      const shell = injectHead(this.ssr!.template, HEAD, locale);
      const [beforeHead, afterHead] = shell.split(HEAD) as [string, string];
      const r = afterHead.indexOf(ROOT);
      const css = this.ssr!.css(page);
      // The CSS comes before the head tags (title, description, Open Graph): it is the same on every
      // page of the kind, so it belongs to the part compressed once.
      const head = `${beforeHead}<style>${css.inline}</style>${css.links}`;
      const beforeRoot = `${afterHead.slice(0, r)}<div id="root">`;
      const beforeData = '</div><script type="application/json" id="__DATA__">';
      const end = `</script>${afterHead.slice(r + ROOT.length)}`;
      const prefix = Buffer.from(head);
      const text = headText(prefix);
      const made: PageFrame = {
        head: text,
        brHead: null,
        ready: brotliHeadOffThread(prefix).then(
          (h) => void (made.brHead = h),
          (err: unknown) => this.deps.log.error({ err, page }, 'compressing a page head failed: its pages are compressed whole'),
        ),
        beforeRoot: Buffer.from(beforeRoot),
        beforeData: Buffer.from(beforeData),
        end: Buffer.from(end),
        hash: createHash('sha1').update(text).update([beforeRoot, beforeData, end].join('\0')).digest(),
      };
      frame = made;
      this.frames.set(key, frame);
    }
    return frame;
  }

  /** index.html with the page's head tags (the pages the browser renders), 404 for unknown states and cities. */
  private async shell(template: string, url: string): Promise<{ status: number; html: string }> {
    const pathname = safeDecode(url.split('?')[0]);
    const { locale, rest } = splitSeoLocale(pathname);
    const route = matchSeoRoute(rest);
    let notFound = route.notFound;
    const names: { state?: string; city?: string } = {};
    if (route.stateSlug && (await repo.tableExists(this.deps.db, 'states'))) {
      const state = await repo.findStateBySlug(this.deps.db, route.stateSlug);
      if (!state) notFound = true;
      else {
        names.state = state.name;
        if (route.citySlug) {
          const city = await repo.findCityBySlug(this.deps.db, state.id, route.citySlug);
          if (!city) notFound = true;
          else names.city = city.name;
        }
      }
    }
    const head = notFound
      ? missingHead(pathname, locale, this.origin, this.translations)
      : headFor(pathname, this.origin, this.translations, names, pageUrl(url).search);
    const siteName = translator(this.translations, locale)('seo.siteName');
    return { status: notFound ? 404 : 200, html: injectHead(template, renderHead(head, siteName), locale) };
  }

  /**
   * Every public page that answers 200 except ads, by path without language: the static pages, the
   * enabled states, and each city page with public ads of its type.
   */
  private async sitemapPaths(): Promise<string[]> {
    const db = this.deps.db;
    const paths = [...SITEMAP_STATIC_PATHS];
    if ((await repo.tableExists(db, 'states')) && (await repo.tableExists(db, 'ads_public_counts'))) {
      try {
        // A state's page and a city's page with ads: an empty one answers 200 but asks not to be
        // indexed (noindex), which a sitemap must not submit.
        const places = this.deps.services.listings.placesWithAds();
        for (const slug of [...new Set(places.map((p) => p.stateSlug))].sort()) paths.push(`/listings/us/${slug}`);
        for (const p of places) {
          const type = SEO_LISTING_TYPES.find((t) => t.code === p.listingType);
          if (type) paths.push(`/listings/us/${p.stateSlug}/${p.citySlug}/${type.slug}`);
        }
      } catch (err) {
        // A marketplace schema this code does not know yet: list the other pages anyway.
        this.deps.log.warn({ err }, 'sitemap: could not list places with ads');
      }
    }
    return paths;
  }

  /** Each state with public ads and how many, by slug; none on a database without the marketplace's tables. */
  private async sitemapStates(): Promise<{ id: string; slug: string; n: number }[]> {
    if (!(await repo.tableExists(this.deps.db, 'ads_cards'))) return [];
    try {
      return this.deps.services.listings.publicAdsByState();
    } catch (err) {
      this.deps.log.warn({ err }, 'sitemap: could not count public ads');
      return [];
    }
  }

  /**
   * The sitemap index: the pages' files (static pages, states, city pages), then each state's ads
   * files, every file within the protocol's 50,000 URLs (a page is listed in its three languages).
   */
  async sitemapIndex(): Promise<string> {
    const pageFiles = Math.max(1, Math.ceil((await this.sitemapPaths()).length / SITEMAP_PATHS_PER_FILE));
    const locs: string[] = [];
    for (let n = 1; n <= pageFiles; n++) locs.push(`${this.origin}/sitemaps/pages-${n}.xml`);
    for (const st of await this.sitemapStates()) {
      for (let n = 1; n <= Math.ceil(st.n / SITEMAP_ADS_PER_FILE); n++) locs.push(`${this.origin}/sitemaps/ads-${st.slug}-${n}.xml`);
    }
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...locs.map((loc) => `<sitemap><loc>${escapeHtml(loc)}</loc></sitemap>`),
      '</sitemapindex>',
      '',
    ].join('\n');
  }

  /**
   * One file of the sitemap by its name: pages-N (1-based) lists static pages, states and city
   * pages; ads-STATE-N a state's public ads, oldest bump first, each with its last change (a bump,
   * an approved edit…). Undefined for any other name or past the last file (pages-1 always exists;
   * an ads file may come out short, even empty, when ads ran out since the index was read).
   */
  async sitemapFile(name: string): Promise<string | undefined> {
    const m = /^(?:pages|ads-([a-z0-9]+(?:-[a-z0-9]+)*))-([1-9][0-9]{0,6})\.xml$/.exec(name);
    if (!m) return undefined;
    const n = Number(m[2]);
    const entries: { path: string; lastmod?: string | null }[] = [];
    if (m[1] === undefined) {
      const paths = await this.sitemapPaths();
      if (n > 1 && (n - 1) * SITEMAP_PATHS_PER_FILE >= paths.length) return undefined;
      for (const path of paths.slice((n - 1) * SITEMAP_PATHS_PER_FILE, n * SITEMAP_PATHS_PER_FILE)) entries.push({ path });
    } else {
      const state = (await this.sitemapStates()).find((st) => st.slug === m[1]);
      if (!state || (n - 1) * SITEMAP_ADS_PER_FILE >= state.n) return undefined;
      for (const ad of this.deps.services.listings.stateAdsSlice(state.id, SITEMAP_ADS_PER_FILE, (n - 1) * SITEMAP_ADS_PER_FILE)) {
        entries.push({ path: `/ad/${ad.id}`, lastmod: ad.at });
      }
    }
    const base = this.origin;
    const lines = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ];
    for (const { path, lastmod } of entries) {
      const locs = SEO_LOCALES.map((l) => escapeHtml(base + localizedPath(path, l)));
      // The same set as the page's own head (contract/seo.ts seoHead): each language, and x-default, the English one.
      const alternates =
        SEO_LOCALES.map((l, i) => `<xhtml:link rel="alternate" hreflang="${l}" href="${locs[i]}"/>`).join('') +
        `<xhtml:link rel="alternate" hreflang="x-default" href="${escapeHtml(base + path)}"/>`;
      const mod = lastmod ? `<lastmod>${escapeHtml(lastmod)}</lastmod>` : '';
      for (const loc of locs) lines.push(`<url><loc>${loc}</loc>${mod}${alternates}</url>`);
    }
    lines.push('</urlset>', '');
    return lines.join('\n');
  }

  robots(): string {
    const lines = ['User-agent: *', 'Allow: /'];
    // Private and endless pages: the dashboard, sign-in, the API, search results, the e-mailed
    // unsubscribe links (each carries a signature) and the sandbox payment provider's checkout.
    for (const prefix of ['', '/es', '/pt']) {
      for (const path of ['/admin/', '/auth/', '/search', '/unsubscribe', '/sandbox/']) lines.push(`Disallow: ${prefix}${path}`);
    }
    lines.push('Disallow: /api/', '', `Sitemap: ${this.origin}/sitemap.xml`, '');
    return lines.join('\n');
  }
}

function safeDecode(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}
