import type { PublicAd } from '../../contract/api/ads.ts';
import type { CityData, Loaded, StateData } from './loaders';
import { localizedPath, seoHead, type SeoHead, type SeoLocale, type Translate } from '../../contract/seo.ts';

/**
 * What a page's data adds to its head (contract/seo.ts gives the rest from its path): an ad's own
 * title, description and photo (Open Graph), the real names of a state and city, and noindex for
 * a list with nothing in it. The server writes it into the page; the browser applies it on
 * client-side navigation (seo.tsx).
 */
export interface PageHead {
  /** The page's own title, when its data names it (the site's name follows it). */
  title?: string;
  description?: string;
  image?: { url: string; width: number; height: number; alt: string };
  names?: { state?: string; city?: string };
  noindex?: boolean;
  type?: 'article';
}

let graphemes: Intl.Segmenter | undefined;

/**
 * A description for previews: one line of at most 160 characters, cut at a word when one ends in
 * its second half. Characters as people see them (grapheme clusters): a cut by UTF-16 units split
 * an emoji in two, and its half became "�" in the page's head and in every link preview. Yet no
 * more than twice as many UTF-16 units: a letter with dozens of combining marks is one grapheme,
 * and 160 of them made a 4,000-character description, written twice into every copy of the head.
 */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const units = 2 * max;
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  const chars = Array.from(graphemes.segment(flat), (g) => g.segment);
  if (chars.length <= max && flat.length <= units) return flat;
  let cut = '';
  for (let i = 0; i < max - 1 && cut.length + chars[i].length < units; i++) cut += chars[i];
  const space = cut.lastIndexOf(' ');
  return `${(space >= cut.length / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function pageHead(page: string, result: Loaded<unknown>): PageHead {
  if (result.status !== 200) return { noindex: true };
  switch (page) {
    case 'ad': {
      const ad = result.data as PublicAd;
      const photo = ad.photos[0];
      return {
        title: ad.title,
        description: excerpt(ad.description),
        image: photo ? { url: photo.url, width: photo.width, height: photo.height, alt: ad.title } : undefined,
        names: { state: ad.state.name, city: ad.city.name },
        type: 'article',
      };
    }
    case 'listingsCity': {
      const { page: p } = result.data as CityData;
      return { names: { state: p.place?.state?.name, city: p.place?.city?.name }, noindex: p.total === 0 };
    }
    case 'listingsState': {
      const d = result.data as StateData;
      return { names: { state: d.state.name }, noindex: d.top.length === 0 };
    }
    default:
      return {};
  }
}

/**
 * The head of a 404 or 410 page, the same from the server (site.head.ts) and after client-side
 * navigation (seo.tsx): the "not found" texts, noindex, its own path as canonical (it has no other
 * home; without the query, as the server writes it) and no hreflang alternates: a missing page
 * has no versions in other languages.
 */
export function missingHead(path: string, locale: SeoLocale, origin: string, tr: Translate): SeoHead {
  const head = seoHead(localizedPath('/__not-found__', locale), origin, tr);
  return { ...head, canonical: origin + path, alternates: [], noindex: true };
}
