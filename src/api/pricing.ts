import { api } from './client';
import type { ListingType } from './ads';

export interface Price {
  id: string;
  kind: 'ad' | 'bump';
  listingType: ListingType;
  priceCents: number;
  durationDays?: number | null;
}

// The contract says {pricing: [...]}; tolerate a bare array, a single object or {price} too, so
// a small difference in the server's envelope does not blank the price on every screen.
export function toPriceList(body: unknown, kind?: 'ad' | 'bump'): Price[] {
  let raw: unknown = body;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    raw = o.pricing ?? o.prices ?? o.price ?? o.items ?? (('priceCents' in o) ? o : []);
  }
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? [raw] : [];
  return list
    .filter((p): p is Record<string, unknown> => !!p && typeof p === 'object')
    .map((p) => ({
      id: String(p.id ?? ''),
      kind: (p.kind as Price['kind']) ?? kind ?? 'ad',
      listingType: p.listingType as ListingType,
      priceCents: Number(p.priceCents ?? 0),
      durationDays: p.durationDays == null ? null : Number(p.durationDays),
    }));
}

export const pricingApi = {
  ad: async () => toPriceList(await api.get<unknown>('get-ad-pricing', { redirectOnAuth: false }), 'ad'),
  bump: async () => toPriceList(await api.get<unknown>('get-bump-pricing', { redirectOnAuth: false }), 'bump'),
};
