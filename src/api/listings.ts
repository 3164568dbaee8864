import { api } from './client';
import type { Ad, ListingType } from './ads';

export interface Page<T> {
  ads: T[];
  total: number;
  page: number;
  pageSize: number;
}
export interface AggregateRow {
  stateId: string;
  stateSlug: string;
  stateName?: string;
  cityId: string;
  citySlug: string;
  cityName?: string;
  count: number;
}

// Public reads: a 401/403 here must never bounce a guest to the login page.
const pub = { redirectOnAuth: false } as const;

function clean(params: Record<string, string | number | undefined>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

export const listingsApi = {
  list: (q: { state: string; city?: string; type?: string; page?: number }) =>
    api.get<Page<Ad>>('listings', { searchParams: clean(q), ...pub }),
  ad: (id: string) => api.get<{ ad: Ad }>(`ads/${encodeURIComponent(id)}`, pub),
  search: (q: { query: string; state?: string; type?: string; page?: number }) =>
    api.get<Page<Ad>>('search', { searchParams: clean(q), ...pub }),
  aggregate: (listingType: ListingType) =>
    api.get<{ locations: AggregateRow[] }>(`users-ads-aggregate/us/${encodeURIComponent(listingType)}`, pub),
};
