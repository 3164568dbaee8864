import { createHash, hash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import type { AppDeps } from '../../core/deps.ts';
import { matchSeoRoute, splitSeoLocale, type SeoLocale } from '../../../contract/seo.ts';
import { headFor, injectHead, loadSeoTranslations, missingHead, renderHead, translator, type HeadExtras } from './site.head.ts';
import * as repo from './site.repository.ts';
import { splitPreloads, type Rendered, type SsrBuild } from './site.ssr.ts';
import { brotliTail, joinBrotli, type BrotliHead } from './site.brotli.ts';
import { ServerSource } from './site.source.ts';
import { PageFrames, type PageFrame } from './site.frames.ts';
import { Sitemap } from './site.sitemap.ts';
import { pageUrl, safeDecode } from './site.urls.ts';
import { Doorkeeper } from '../listings/listings.answers.ts';
import { accepts } from '../../core/encoding.ts';
import { cacheBudgets, TaggedCache, own } from '../listings/listings.cache.ts';

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
  /** Made on first demand (the rare browser without brotli); kept, and counted, with a kept page. */
  gz?: Buffer;
  /** The key a cached page is kept under (its cache's weight grows by its gzip copy). */
  key?: string;
  /** Sent as it is, whatever the browser accepts (a first visit while the event loop is saturated). */
  plain?: true;
  /** The page's own size (`html`'s, also once only its brotli copy is kept). */
  length: number;
  /** What a cached page weighs. */
  bytes: number;
  /** Where a 301 sends the browser (the page's one URL); the page is elsewhere. */
  location?: string;
}

export class SiteService {
  private readonly deps: AppDeps;
  private readonly translations: Record<SeoLocale, unknown>;
  private ssr: SsrBuild | null = null;
  /** Rendered pages that exist, by URL; 404 and 410 pages apart, so junk URLs cannot push real pages out. */
  readonly pages: TaggedCache<PageAnswer>;
  private readonly missing: TaggedCache<PageAnswer>;
  private readonly door = new Doorkeeper();
  /** The constant bytes of the pages, by language and kind of page, for this build. */
  private readonly frames: PageFrames;
  private readonly sitemap: Sitemap;

  constructor(deps: AppDeps) {
    this.deps = deps;
    this.frames = new PageFrames(deps);
    this.sitemap = new Sitemap(deps);
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
    const frame = this.frames.pageFrame(this.ssr, r.locale as SeoLocale, r.page);
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
      if (keep) {
        value.key = key;
        (r.status === 200 ? this.pages : this.missing).set(key, { value, until, tags: [...source.tags] });
      }
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
    if (encoding !== 'gzip') return html;
    if (p.gz) return p.gz;
    const gz = gzipSync(html, { level: 6 });
    if (p.key === undefined) return gz; // a page not kept: sent once
    // Kept with the page and counted against its cache's share of CACHE_MB: a gzip-only crawl made
    // each kept page weigh three times what the budget saw.
    p.gz = own(gz);
    (p.status === 200 ? this.pages : this.missing).grew(p.key, gz.length);
    return p.gz;
  }

  /**
   * The whole document of a rendered page: inlined CSS, head tags, the app's HTML and its data,
   * written as UTF-8 bytes in one go. The parts that only depend on the language and the kind of
   * page (the template around the head and the root, the page's CSS: 17–20 kB of a 28 kB page)
   * are bytes already, encoded, hashed and compressed once (site.frames.ts); the others are encoded
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
    await this.frames.framesReady();
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

  /** The sitemap index (site.sitemap.ts). */
  sitemapIndex(): Promise<string> {
    return this.sitemap.sitemapIndex();
  }

  /** One file of the sitemap by its name; undefined for none (site.sitemap.ts). */
  sitemapFile(name: string): Promise<string | undefined> {
    return this.sitemap.sitemapFile(name);
  }

  robots(): string {
    return this.sitemap.robots();
  }
}
