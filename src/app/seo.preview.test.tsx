import { beforeEach, describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { useSeo } from './seo';
import { seedRouteData } from './routeStore';
import { LOADERS, type CityData, type Loaded } from './loaders';
import { pageHead } from './pageHead';
import { splitSeoLocale } from '../../contract/seo';
import type { PublicAd } from '../../contract/api/ads';
import { headFor, loadSeoTranslations, renderHead, translator } from '../../server/modules/site/site.head';

// A page reached by client-side navigation has the head the server writes for its URL, link-preview
// tags included: a city list reached from an ad keeps none of the ad's photo, og:type=article or
// large Twitter card, and its Spanish version says og:locale=es_CO.

const CITY = '/listings/us/new-york/buffalo/female-escorts';
const origin = window.location.origin;
const translations = loadSeoTranslations();

const ad = {
  id: 'a1',
  title: 'Lakeside evening',
  description: 'Quiet dinners by the lake, long walks and good conversation.',
  photos: [{ url: '/uploads/a1/photo.jpg', width: 800, height: 600, thumbUrl: '/uploads/a1/thumb.jpg' }],
  state: { id: 'ny', name: 'New York', slug: 'new-york' },
  city: { id: 'buf', name: 'Buffalo', slug: 'buffalo' },
} as unknown as PublicAd;
const city = {
  type: 'female_esc',
  page: { ads: [{}], total: 1, page: 1, pageSize: 20, place: { state: { name: 'New York' }, city: { name: 'Buffalo' } } },
} as unknown as CityData;

/** The head's tags, one string each, sorted: the same form for the live head and the server's. */
function tagsOf(root: ParentNode): string[] {
  const out: string[] = [];
  for (const el of root.querySelectorAll('title, meta, link')) {
    if (el.tagName === 'TITLE') out.push(`title=${el.textContent}`);
    else if (el.tagName === 'META') out.push(`${el.getAttribute('property') ?? el.getAttribute('name')}=${el.getAttribute('content')}`);
    else out.push(`link ${el.getAttribute('rel')} ${el.getAttribute('hreflang') ?? ''}=${el.getAttribute('href')}`);
  }
  return out.sort();
}

/** The live head (document.title is the <title> jsdom keeps in the head). */
const live = () => tagsOf(document.head);

/** The head the server writes for `path` with its page data, composed as site.service.ts document() does. */
function servedHtml(path: string, page: string, result: Loaded<unknown>): string {
  const { locale } = splitSeoLocale(path);
  const r = pageHead(page, result);
  const head = headFor(path, origin, translations, r.names ?? {});
  const siteName = translator(translations, locale)('seo.siteName');
  if (r.title) head.title = `${r.title} | ${siteName}`;
  if (r.description) head.description = r.description;
  if (r.noindex) head.noindex = true;
  return renderHead(head, siteName, { image: r.image && { ...r.image, url: origin + r.image.url }, type: r.type });
}

/** The same, as tags. */
function served(path: string, page: string, result: Loaded<unknown>): string[] {
  const t = document.createElement('template');
  t.innerHTML = servedHtml(path, page, result);
  return tagsOf(t.content);
}

beforeEach(() => {
  document.head.innerHTML = '';
  document.title = '';
});

describe('useSeo link-preview tags', () => {
  // The e2e path: an ad served by the server (its head written by renderHead, kept on hydration),
  // then its city by a link, then Español.
  it('gives a city list reached from a served ad, then its Spanish version, the head the server writes for each', async () => {
    const adData = { status: 200, data: ad } as Loaded<unknown>;
    const cityData = { status: 200, data: city } as Loaded<unknown>;
    seedRouteData(LOADERS.ad.key({ id: 'a1' }, ''), adData);
    seedRouteData(LOADERS.listingsCity.key({ state: 'new-york', city: 'buffalo', type: 'female-escorts' }, ''), cityData);
    document.head.innerHTML = servedHtml('/ad/a1', 'ad', adData);
    const adHead = served('/ad/a1', 'ad', adData);
    expect(adHead).toContain(`og:image=${origin}/uploads/a1/photo.jpg`);
    const { rerender } = renderHook(({ path }) => useSeo(path), { initialProps: { path: '/ad/a1' } });
    await new Promise((r) => setTimeout(r, 50));
    expect(live()).toEqual(adHead);

    rerender({ path: CITY });
    const cityHead = served(CITY, 'listingsCity', cityData);
    expect(cityHead).toContain('twitter:card=summary');
    await waitFor(() => expect(live()).toEqual(cityHead));

    rerender({ path: `/es${CITY}` });
    const esHead = served(`/es${CITY}`, 'listingsCity', cityData);
    expect(esHead).toContain('og:locale=es_CO');
    await waitFor(() => expect(live()).toEqual(esHead));
  });

  // An ad reached in the app gets its photo and card; a removed ad after it loses them.
  it('gives an ad reached in the app its preview, and a missing ad after it the 404 head without the photo', async () => {
    const adData = { status: 200, data: ad } as Loaded<unknown>;
    const gone = { status: 410, data: null } as Loaded<unknown>;
    seedRouteData(LOADERS.ad.key({ id: 'a1' }, ''), adData);
    seedRouteData(LOADERS.ad.key({ id: 'gone1' }, ''), gone);
    const { rerender } = renderHook(({ path }) => useSeo(path), { initialProps: { path: '/pt/ad/a1' } });
    await waitFor(() => expect(live()).toEqual(served('/pt/ad/a1', 'ad', adData)));
    rerender({ path: '/pt/ad/gone1' });
    await waitFor(() => expect(live()).toContain('og:type=website'));
    expect(live()).not.toContainEqual(expect.stringMatching(/^(og:image|twitter:image)/));
    expect(live()).toContain('og:locale=pt_BR');
  });
});
