import { createResource } from './resource';
import { pricingApi, type Price } from '../api/pricing';
import type { ListingType, Quote } from '../api/ads';
import { ApiError } from '../api/client';

/** The seed's `listingsPricing` data area: ad and bump prices per listing type. */
export const pricingStore = createResource(async () => {
  const [ad, bump] = await Promise.all([pricingApi.ad(), pricingApi.bump()]);
  return { ad, bump };
});

type Prices = { readonly ad: readonly Price[]; readonly bump: readonly Price[] } | null;

export const adPriceFor = (p: Prices, t: ListingType | '') => p?.ad.find((x) => x.listingType === t) ?? null;
export const bumpPriceFor = (p: Prices, t: ListingType | '') => p?.bump.find((x) => x.listingType === t) ?? null;

/** The quote of a price as the page shows it; none while prices are not read (a page then does not pay: the server would charge what holds). */
export const quoteOf = (p: Price | null): Quote | undefined =>
  p ? { priceCents: p.priceCents, ...(p.durationDays ? { durationDays: p.durationDays } : {}) } : undefined;

/** Runs a payment; refused because the price moved since the page loaded, the prices are read again (the page shows the new one). */
export async function atShownPrice<T>(pay: () => Promise<T>): Promise<T> {
  try {
    return await pay();
  } catch (e) {
    if (e instanceof ApiError && e.code === 'pricing.price_changed') void pricingStore.load();
    throw e;
  }
}
