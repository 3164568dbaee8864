// What the sitemap lists of the public ads (site.sitemap.ts): the places with ads, the ads per
// state and a state's ads in slices. Read as the public reads are, after the caches' sync.
import type { AppDeps } from '../../core/deps.ts';
import type { ListingType } from '../ads/ads.tables.ts';

/** Every (state, city, listing type) with public ads now, for the sitemap. */
export function placesWithAds(deps: Pick<AppDeps, 'services'>): { stateSlug: string; citySlug: string; listingType: ListingType }[] {
  const listings = deps.services.listings;
  listings.sync();
  return listings.reads
    .placesWithAds()
    .filter((p) => p.n > listings.expiry.overdue({ cityId: p.cityId, listingType: p.listingType }))
    .map(({ stateSlug, citySlug, listingType }) => ({ stateSlug, citySlug, listingType }));
}

/** Each state with public ads as counted (ads whose time ran out included until the expiry job hides them), by slug, for the sitemap. */
export function publicAdsByState(deps: Pick<AppDeps, 'services'>): { id: string; slug: string; n: number }[] {
  const listings = deps.services.listings;
  listings.sync();
  return listings.reads
    .stateCounts()
    .map(({ id, slug, n }) => ({ id, slug, n }))
    .sort((x, y) => (x.slug < y.slug ? -1 : 1));
}

/** A slice of a state's public ads whose page answers 200 now, oldest bump first, for the sitemap. */
export function stateAdsSlice(deps: Pick<AppDeps, 'services' | 'clock'>, stateId: string, limit: number, offset: number): { id: string; at: string | null }[] {
  const listings = deps.services.listings;
  listings.sync();
  return listings.reads.stateAdsSlice(stateId, deps.clock.now().toISOString(), limit, offset);
}
