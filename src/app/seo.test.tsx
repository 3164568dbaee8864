import { beforeEach, describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { useSeo } from './seo';
import { seedRouteData } from './routeStore';
import { LOADERS, type CityData, type StateData } from './loaders';

// The head after client-side navigation follows the page's data as the server's head does
// (site.service.ts): the real names, noindex for an empty list, the 404 head for a missing page.

function head() {
  return {
    title: document.title,
    canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    robots: document.head.querySelector('meta[name="robots"]')?.getAttribute('content') ?? null,
    alternates: document.head.querySelectorAll('link[rel="alternate"][hreflang]').length,
  };
}

const city = (names: { state: string; city: string }, total: number): CityData =>
  ({
    type: 'female_esc',
    page: { ads: [], total, page: 1, pageSize: 20, place: { state: { name: names.state }, city: { name: names.city } } },
  }) as unknown as CityData;

beforeEach(() => {
  document.head.innerHTML = '';
  document.title = '';
});

describe('useSeo', () => {
  it('gives a city page the real names from its data and noindex when its list is empty', async () => {
    const path = '/listings/us/missouri/st-louis/female-bodyrubs';
    seedRouteData(LOADERS.listingsCity.key({ state: 'missouri', city: 'st-louis', type: 'female-bodyrubs' }, ''), {
      status: 200,
      data: city({ state: 'Missouri', city: 'St. Louis' }, 0),
    });
    renderHook(() => useSeo(path));
    await waitFor(() => expect(head().title).toBe('Female body rubs in St. Louis, Missouri | XG Marketplace'));
    expect(head()).toMatchObject({ canonical: `${window.location.origin}${path}`, robots: 'noindex', alternates: 4 });
  });

  it('gives a state page its name from its data, not from the slug', async () => {
    seedRouteData(LOADERS.listingsState.key({ state: 'district-of-columbia' }, ''), {
      status: 200,
      data: { state: { id: 'dc', name: 'District of Columbia', slug: 'district-of-columbia' }, top: [{}] } as unknown as StateData,
    });
    renderHook(() => useSeo('/listings/us/district-of-columbia'));
    await waitFor(() => expect(head().title).toMatch(/^[^|]*District of Columbia/));
    expect(head().robots).toBe(null);
  });

  // The server writes the 404 head for a list page past its end (canonical without the query);
  // hydration must find it already there, and a page reached in the app must get the same one.
  it('gives a page whose data is missing the 404 head, in its language, with no alternates', async () => {
    seedRouteData(LOADERS.listingsCity.key({ state: 'new-york', city: 'buffalo', type: 'female-escorts' }, '?page=9'), { status: 404, data: null });
    renderHook(() => useSeo('/es/listings/us/new-york/buffalo/female-escorts', '?page=9'));
    await waitFor(() => expect(head().title).toBe('Página no encontrada | XG Marketplace'));
    expect(head()).toMatchObject({ canonical: `${window.location.origin}/es/listings/us/new-york/buffalo/female-escorts`, robots: 'noindex', alternates: 0 });
  });

  it('gives a removed ad the 404 head', async () => {
    seedRouteData(LOADERS.ad.key({ id: 'gone1' }, ''), { status: 410, data: null });
    renderHook(() => useSeo('/ad/gone1'));
    await waitFor(() => expect(head().title).toBe('Page not found | XG Marketplace'));
    expect(head()).toMatchObject({ robots: 'noindex', alternates: 0 });
  });
});
