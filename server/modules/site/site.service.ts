import type { AppDeps } from '../../core/deps.ts';
import { SEO_LISTING_TYPES, SEO_LOCALES, SITEMAP_STATIC_PATHS, localizedPath, matchSeoRoute, splitSeoLocale, type SeoLocale } from '../../../contract/seo.ts';
import { escapeHtml, headFor, injectHead, loadSeoTranslations, renderHead, translator } from './site.head.ts';
import * as repo from './site.repository.ts';

// The sitemap protocol's limit per file.
const SITEMAP_MAX_URLS = 50_000;

export class SiteService {
  private readonly deps: AppDeps;
  private readonly translations: Record<SeoLocale, unknown>;
  constructor(deps: AppDeps) {
    this.deps = deps;
    this.translations = loadSeoTranslations();
  }

  private get origin(): string {
    return this.deps.config.publicUrl;
  }

  /**
   * index.html for a page URL, with that page's title and meta tags, and 404 for pages that do
   * not exist (unknown routes, states and cities) so crawlers do not index soft errors.
   */
  async page(template: string, url: string): Promise<{ status: number; html: string }> {
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
      ? headFor(localizedPath('/__not-found__', locale), this.origin, this.translations, {})
      : headFor(pathname, this.origin, this.translations, names);
    if (notFound) head.canonical = this.origin + pathname; // a 404 has no other canonical home
    const siteName = translator(this.translations, locale)('seo.siteName');
    return { status: notFound ? 404 : 200, html: injectHead(template, renderHead(head, siteName), locale) };
  }

  /** Every public page in every language, with hreflang alternates. */
  async sitemap(): Promise<string> {
    const db = this.deps.db;
    const paths = [...SITEMAP_STATIC_PATHS];
    if (await repo.tableExists(db, 'states')) {
      for (const slug of await repo.enabledStateSlugs(db)) paths.push(`/listings/us/${slug}`);
      if ((await repo.tableExists(db, 'ads')) && (await repo.tableExists(db, 'cities'))) {
        try {
          const places = await repo.placesWithAds(db, this.deps.clock.now().toISOString());
          for (const p of places) {
            const type = SEO_LISTING_TYPES.find((t) => t.code === p.listingType);
            if (type) paths.push(`/listings/us/${p.stateSlug}/${p.citySlug}/${type.slug}`);
          }
        } catch (err) {
          // A marketplace schema this code does not know yet: list the other pages anyway.
          this.deps.log.warn({ err }, 'sitemap: could not list places with ads');
        }
      }
    }
    const base = this.origin;
    const urls: string[] = [];
    for (const p of paths) {
      const alternates = SEO_LOCALES.map((l) => `<xhtml:link rel="alternate" hreflang="${l}" href="${escapeHtml(base + localizedPath(p, l))}"/>`).join('');
      for (const l of SEO_LOCALES) {
        if (urls.length >= SITEMAP_MAX_URLS) break;
        urls.push(`<url><loc>${escapeHtml(base + localizedPath(p, l))}</loc>${alternates}</url>`);
      }
    }
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      ...urls,
      '</urlset>',
      '',
    ].join('\n');
  }

  robots(): string {
    const lines = ['User-agent: *', 'Allow: /'];
    // Private and endless pages: the dashboard, sign-in, the API and search results.
    for (const prefix of ['', '/es', '/pt']) {
      lines.push(`Disallow: ${prefix}/admin/`, `Disallow: ${prefix}/auth/`, `Disallow: ${prefix}/search`);
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
