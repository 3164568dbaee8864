// Test fixtures for the marketplace screens (imported by *.test.tsx only). Each is an answer the
// server could send (the contract's types; tests answer them through apiJson, which checks them).
import type { AdContent, OwnerAd, PublicAd, Revision, StaffAd } from '../../api/ads';
import type { AdCard } from '../../../contract/api/ads.ts';
import { apiJson } from '../../test/contract';
import type { ApiRoute } from '../../../contract/api/index.ts';
import { renderError, type ErrorBody, type ErrorCode, type ErrorParams } from '../../../contract/errors/index.ts';
import type { Wallet } from '../../../contract/api/wallets.ts';
import type { City, State } from '../../../contract/api/locations.ts';
import type { pricingApi } from '../../../contract/api/pricing.ts';
import type { ResponseOf } from '../../../contract/api/types.ts';

let n = 0;
/** An ad as the public routes answer it (listings, search, the ad's page). */
export function makeAd(over: Partial<PublicAd> = {}): PublicAd {
  n++;
  return {
    id: `ad${n}`,
    listingType: 'female_esc',
    title: `A friendly companion ${n}`,
    description: 'A description that is long enough to pass the fifty character rule.',
    age: '25',
    state: { id: 'st-ny', name: 'New York', slug: 'new-york' },
    city: { id: 'ct-nyc', name: 'New York City', slug: 'new-york-city' },
    phone: '+12125550123',
    phoneVerified: false,
    photos: [{ url: `/uploads/ads/p${n}.webp`, width: 800, height: 600, thumbUrl: `/uploads/ads/p${n}-thumb.webp` }],
    status: 'approved',
    online: true,
    bumpedAt: '2025-01-02T10:00:00.000Z',
    publishedAt: '2025-01-01T10:00:00.000Z',
    // Far ahead: an approved ad past its expiry shows as expired (my ads).
    expiresAt: '2099-02-01T10:00:00.000Z',
    details: { rates: [], incall: false, outcall: false, availability: {} },
    ...over,
  };
}

/** An ad as the list answers carry it (listings, search): its card, from the same fields as makeAd's ad. */
export function makeCard(over: Partial<PublicAd> = {}): AdCard {
  const ad = makeAd(over);
  const p = ad.photos[0];
  return {
    id: ad.id,
    listingType: ad.listingType,
    title: ad.title,
    age: ad.age,
    state: { name: ad.state.name, slug: ad.state.slug },
    city: { name: ad.city.name, slug: ad.city.slug },
    phoneVerified: ad.phoneVerified,
    photo: p
      ? { url: p.url, width: p.width, height: p.height, thumbUrl: p.thumbUrl, thumbWidth: 300, thumbHeight: Math.round((300 * p.height) / p.width) }
      : null,
    bumpedAt: ad.bumpedAt,
  };
}

/** An ad as its owner sees it (cart, my ads). Unpaid ones have no price or paying wallet yet. */
export function makeOwnerAd(over: Partial<OwnerAd> = {}): OwnerAd {
  const unpaid = over.status === 'unpaid';
  const base = makeAd();
  return {
    ...base,
    ownerId: 'u1',
    rejectionReason: null,
    priceCents: unpaid ? null : 1500,
    paidWalletId: unpaid ? null : 'w-usd',
    createdAt: '2024-12-31T10:00:00.000Z',
    ...(unpaid || over.status === 'in_review' || over.status === 'rejected' ? { bumpedAt: null, publishedAt: null, expiresAt: null } : {}),
    ...over,
  };
}

/** An ad's editable content (a revision's, or the live ad's beside it in the review queue). */
export function contentOf(ad: PublicAd, over: Partial<AdContent> = {}): AdContent {
  const { listingType, title, description, age, state, city, phone, photos } = ad;
  const details = ad.details ?? { rates: [], incall: false, outcall: false, availability: {} };
  return { listingType, title, description, age, state, city, phone, photos, details, ...over };
}

/** An edit of an approved ad, waiting for review unless told otherwise. */
export function makeRevision(ad: PublicAd, content: Partial<AdContent> = {}, over: Partial<Revision> = {}): Revision {
  return { id: `rev-${ad.id}`, status: 'pending', rejectionReason: null, createdAt: '2025-01-05T10:00:00.000Z', content: contentOf(ad, content), ...over };
}

/** An ad as staff see it in review lists: the owner's view plus who posted it (owner.id is ownerId). */
export function makeStaffAd(over: Partial<OwnerAd> & { owner?: Partial<StaffAd['owner']>; updatedAt?: string } = {}): StaffAd {
  const { owner, updatedAt, ...rest } = over;
  const ad = makeOwnerAd(rest);
  const id = owner?.id ?? ad.ownerId;
  return {
    ...ad,
    ownerId: id,
    owner: { id, email: `${id}@example.com`, nickname: `user_${id}`, status: 'approved', ...owner },
    updatedAt: updatedAt ?? ad.createdAt,
  };
}

export const usdWallet = (amountCents = 0): Wallet => ({ id: 'w-usd', walletType: 'USD', amountCents, currency: 'USD' });
export const promoWallet = (amountCents = 0): Wallet => ({ id: 'w-promo', walletType: 'XG-PROMO-WALLET', amountCents, currency: 'USD' });

export const STATES: State[] = [
  { id: 'st-ny', name: 'New York', code: 'NY', slug: 'new-york', countryCode: 'US', enabled: true },
  { id: 'st-tx', name: 'Texas', code: 'TX', slug: 'texas', countryCode: 'US', enabled: true },
];
export const CITIES_NY: City[] = [
  { id: 'ct-nyc', stateId: 'st-ny', name: 'New York City', slug: 'new-york-city', population: 8000000, latitude: 0, longitude: 0, enabled: true },
  { id: 'ct-buf', stateId: 'st-ny', name: 'Buffalo', slug: 'buffalo', population: 270000, latitude: 0, longitude: 0, enabled: true },
];
type PricingList = ResponseOf<(typeof pricingApi)['GET /api/get-ad-pricing']>;
export const AD_PRICING: PricingList = {
  pricing: [
    { id: 'p1', kind: 'ad', listingType: 'female_esc', priceCents: 1500, durationDays: 30 },
    { id: 'p2', kind: 'ad', listingType: 'female_rub', priceCents: 1200, durationDays: 30 },
    { id: 'p3', kind: 'ad', listingType: 'shemale_esc', priceCents: 1000, durationDays: 30 },
  ],
};
/** A bump has no duration: the server sends null. */
export const BUMP_PRICING: PricingList = {
  pricing: [
    { id: 'b1', kind: 'bump', listingType: 'female_esc', priceCents: 300, durationDays: null },
    { id: 'b2', kind: 'bump', listingType: 'female_rub', priceCents: 300, durationDays: null },
    { id: 'b3', kind: 'bump', listingType: 'shemale_esc', priceCents: 300, durationDays: null },
  ],
};

/**
 * An error answer of a route, exactly as the server writes it: the catalogue's English for the
 * code, filled from params. It goes through apiJson, which checks it against the route's error
 * schema. (apiJson's types name only a route's declared statuses, and errors are declared as
 * '4xx'/'5xx', hence the casts; the check at run time is the same.)
 */
export function apiError(route: ApiRoute, status: number, code: ErrorCode, params?: ErrorParams) {
  const body: ErrorBody = params ? { message: renderError(code, params), code, params } : { message: renderError(code), code };
  return apiJson(route, body as never, status as never);
}
