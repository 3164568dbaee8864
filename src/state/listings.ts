import { createResource } from './resource';
import { listingsApi, type AggregateRow, type ListingsQuery, type SearchQuery } from '../api/listings';
import type { ListingType } from '../../contract/api/pricing.ts';
import { LISTING_TYPES } from '../app/routes';

/** The seed's `listingsByStateCityListingType` data area: one page of a city's ads of one type. */
export const cityListingsStore = createResource((q: ListingsQuery & { state: string; city: string; type: ListingType; page: number }) => listingsApi.list(q));

/** Ad counts per place for all three listing types (the seed's per-type aggregate, merged). */
export const aggregateStore = createResource(async () => {
  const parts = await Promise.all(LISTING_TYPES.map(async ({ code }) => ({ type: code as ListingType, rows: (await listingsApi.aggregate(code)).locations })));
  return parts;
});

export const adDetailStore = createResource(async (id: string) => (await listingsApi.ad(id)).ad);

export const searchStore = createResource((q: SearchQuery & { query: string; page: number }) => listingsApi.search(q));

export interface StateCount {
  slug: string;
  name: string;
  count: number;
}
export interface CityCount {
  slug: string;
  name: string;
  count: number;
  byType: Partial<Record<ListingType, number>>;
}

type Parts = ReadonlyArray<{ readonly type: ListingType; readonly rows: readonly AggregateRow[] }>;

/** States with their total ad count over the three listing types. */
export function stateCounts(parts: Parts | null): StateCount[] {
  const m = new Map<string, StateCount>();
  for (const p of parts ?? [])
    for (const r of p.rows) {
      const s = m.get(r.stateSlug) ?? { slug: r.stateSlug, name: r.stateName, count: 0 };
      s.count += r.count;
      m.set(r.stateSlug, s);
    }
  return [...m.values()];
}

/** One state's cities with counts per listing type, largest total first. */
export function cityCounts(parts: Parts | null, stateSlug: string): CityCount[] {
  const m = new Map<string, CityCount>();
  for (const p of parts ?? [])
    for (const r of p.rows) {
      if (r.stateSlug !== stateSlug) continue;
      const c = m.get(r.citySlug) ?? { slug: r.citySlug, name: r.cityName, count: 0, byType: {} };
      c.count += r.count;
      c.byType[p.type] = (c.byType[p.type] ?? 0) + r.count;
      m.set(r.citySlug, c);
    }
  return [...m.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/** 'new-york' → 'New York': a readable fallback when only a slug is known. */
export function unslug(slug: string): string {
  return slug
    .replace(/-\d+$/, '')
    .split('-')
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
}
