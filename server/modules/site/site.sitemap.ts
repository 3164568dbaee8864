// What crawlers are told: the sitemap (its index and its files, built on demand) and robots.txt.
import type { AppDeps } from '../../core/deps.ts';
import { SEO_LISTING_TYPES, SEO_LOCALES, SITEMAP_STATIC_PATHS, localizedPath } from '../../../contract/seo.ts';
import { escapeHtml } from './site.head.ts';
import * as repo from './site.repository.ts';
import { placesWithAds, publicAdsByState, stateAdsSlice } from '../listings/listings.sitemap.ts';

// A sitemap file holds at most 50,000 URLs; every page is listed in its three languages, with its
// alternates. Files stay small enough to build in tens of milliseconds at a million ads: 5,000
// pages (about 7 MB of XML), or 2,500 ads of one state (about 3 MB, 117 kB gzipped; a million ads
// make ~400 files).
const SITEMAP_PATHS_PER_FILE = 5_000;
const SITEMAP_ADS_PER_FILE = 2_500;

/** The sitemap and robots.txt of the site at `config.publicUrl`. */
export class Sitemap {
  private readonly deps: AppDeps;

  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  private get origin(): string {
    return this.deps.config.publicUrl;
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
        const places = placesWithAds(this.deps);
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
      return publicAdsByState(this.deps);
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
      for (const ad of stateAdsSlice(this.deps, state.id, SITEMAP_ADS_PER_FILE, (n - 1) * SITEMAP_ADS_PER_FILE)) {
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
