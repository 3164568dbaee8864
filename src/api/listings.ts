import { api } from './client';
import type { listingsApi as contract } from '../../contract/api/listings.ts';
import type { ListingType } from '../../contract/api/pricing.ts';
import type { ParamsOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

type Listings = typeof contract;
export type AdPage = ResponseOf<Listings['GET /api/listings']>;
export type AdView = ResponseOf<Listings['GET /api/ads/:id']>;
export type Aggregate = ResponseOf<Listings['GET /api/users-ads-aggregate/us/:listingType']>;
export type HomeCounts = ResponseOf<Listings['GET /api/home']>;
export type StateCounts = ResponseOf<Listings['GET /api/users-ads-aggregate/us/:listingType/states']>;
export type ListingsQuery = QueryOf<Listings['GET /api/listings']>;
export type SearchQuery = QueryOf<Listings['GET /api/search']>;

// Public reads: a 401/403 here must never bounce a guest to the login page.
const pub = { redirectOnAuth: false } as const;

function clean(params: Record<string, string | number | undefined>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

export const listingsApi = {
  list: (q: ListingsQuery & { state: string }) => api.get<AdPage>('listings', { searchParams: clean(q), ...pub }),
  ad: (id: ParamsOf<Listings['GET /api/ads/:id']>['id']) => api.get<AdView>(`ads/${encodeURIComponent(id)}`, pub),
  search: (q: SearchQuery & { query: string }) => api.get<AdPage>('search', { searchParams: clean(q), ...pub }),
  /** `state`: one state's cities only (its slug). */
  aggregate: (listingType: ListingType, state?: string) =>
    api.get<Aggregate>(`users-ads-aggregate/us/${encodeURIComponent(listingType)}`, { searchParams: clean({ state }), ...pub }),
  /** The states with ads of a type and their numbers. */
  stateCounts: (listingType: ListingType) => api.get<StateCounts>(`users-ads-aggregate/us/${encodeURIComponent(listingType)}/states`, pub),
  home: () => api.get<HomeCounts>('home', pub),
};
