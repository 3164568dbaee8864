import fs from 'node:fs';
import path from 'node:path';
import { missingHead as missingPageHead } from '../../../src/app/pageHead.ts';
import { OG_LOCALE, SEO_LOCALES, seoHead, translateFrom, type SeoHead, type SeoLocale, type Translate } from '../../../contract/seo.ts';

const LOCALES_DIR = path.resolve(import.meta.dirname, '../../../src/i18n/locales');

/** The 'public' namespace of each locale (its seo.* keys), read once when the app starts. */
export function loadSeoTranslations(dir = LOCALES_DIR): Record<SeoLocale, unknown> {
  const out = {} as Record<SeoLocale, unknown>;
  for (const l of SEO_LOCALES) {
    try {
      out[l] = JSON.parse(fs.readFileSync(path.join(dir, l, 'public.json'), 'utf8'));
    } catch {
      out[l] = {};
    }
  }
  return out;
}

export function translator(all: Record<SeoLocale, unknown>, locale: SeoLocale): Translate {
  return (key, params) => translateFrom(all[locale], key, params) ?? translateFrom(all.en, key, params) ?? key;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The head of a page: `search` is its query, of which the parameters that make a page its own are kept (seoQuery). */
export function headFor(pathname: string, origin: string, all: Record<SeoLocale, unknown>, names: { state?: string; city?: string }, search = ''): SeoHead {
  const { locale } = splitLocaleOnly(pathname);
  return seoHead(pathname, origin, translator(all, locale), names, search);
}

/** The head of a 404 or 410 page (pageHead.ts missingHead: the browser applies the same one). */
export function missingHead(rawPath: string, locale: SeoLocale, origin: string, all: Record<SeoLocale, unknown>): SeoHead {
  return missingPageHead(rawPath, locale, origin, translator(all, locale));
}

function splitLocaleOnly(pathname: string): { locale: SeoLocale } {
  const m = /^\/(es|pt)(\/|$)/.exec(pathname);
  return { locale: (m?.[1] as SeoLocale) ?? 'en' };
}

/** What a page's data adds to its head: a preview image (absolute URL) and the Open Graph type. */
export interface HeadExtras {
  image?: { url: string; width: number; height: number; alt: string };
  type?: 'article';
}

/** The tags the server writes at index.html's <!--head--> marker. */
export function renderHead(h: SeoHead, siteName: string, extras: HeadExtras = {}): string {
  const e = escapeHtml;
  const img = extras.image;
  const tags = [
    `<title>${e(h.title)}</title>`,
    `<meta name="description" content="${e(h.description)}" />`,
    `<link rel="canonical" href="${e(h.canonical)}" />`,
    ...h.alternates.map((a) => `<link rel="alternate" hreflang="${e(a.hreflang)}" href="${e(a.href)}" />`),
    `<meta property="og:type" content="${extras.type ?? 'website'}" />`,
    `<meta property="og:site_name" content="${e(siteName)}" />`,
    `<meta property="og:title" content="${e(h.title)}" />`,
    `<meta property="og:description" content="${e(h.description)}" />`,
    `<meta property="og:url" content="${e(h.canonical)}" />`,
    `<meta property="og:locale" content="${OG_LOCALE[h.locale]}" />`,
    ...(img
      ? [
          `<meta property="og:image" content="${e(img.url)}" />`,
          `<meta property="og:image:width" content="${img.width}" />`,
          `<meta property="og:image:height" content="${img.height}" />`,
          `<meta property="og:image:alt" content="${e(img.alt)}" />`,
          `<meta name="twitter:card" content="summary_large_image" />`,
          `<meta name="twitter:image" content="${e(img.url)}" />`,
        ]
      : [`<meta name="twitter:card" content="summary" />`]),
  ];
  if (h.noindex) tags.push('<meta name="robots" content="noindex" />');
  return tags.join('\n    ');
}

/**
 * index.html with the page's head: its own <title> is replaced and <html lang> set. Every
 * replacement is a function: a replacement string reads `$&`, `` $` `` and `$'` as patterns, and the
 * head holds the requested path (a URL with `` $` `` pasted the template into itself).
 */
export function injectHead(template: string, head: string, locale: SeoLocale): string {
  let html = template.replace(/<title>[\s\S]*?<\/title>\s*/i, () => '');
  html = html.replace(/<html([^>]*?)\slang="[^"]*"/i, (_m, attrs: string) => `<html${attrs} lang="${locale}"`);
  if (!/<html[^>]*\slang=/i.test(html)) html = html.replace(/<html/i, () => `<html lang="${locale}"`);
  return html.includes('<!--head-->') ? html.replace('<!--head-->', () => head) : html.replace(/<\/head>/i, () => `${head}\n</head>`);
}
