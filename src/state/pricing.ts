import { createResource } from './resource';
import { pricingApi, type Price } from '../api/pricing';
import type { ListingType } from '../api/ads';

/** The seed's `listingsPricing` data area: ad and bump prices per listing type. */
export const pricingStore = createResource(async () => {
  const [ad, bump] = await Promise.all([pricingApi.ad(), pricingApi.bump()]);
  return { ad, bump };
});

type Prices = { readonly ad: readonly Price[]; readonly bump: readonly Price[] } | null;

export const adPriceFor = (p: Prices, t: ListingType | '') => p?.ad.find((x) => x.listingType === t) ?? null;
export const bumpPriceFor = (p: Prices, t: ListingType | '') => p?.bump.find((x) => x.listingType === t) ?? null;
