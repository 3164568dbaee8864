// Test fixtures for the marketplace screens (imported by *.test.tsx only).
import type { Ad } from '../../api/ads';
import type { Wallet } from '../../api/wallets';

let n = 0;
export function makeAd(over: Partial<Ad> = {}): Ad {
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
    photos: [{ url: `/uploads/p${n}.jpg`, width: 800, height: 600 }],
    status: 'approved',
    online: true,
    bumpedAt: '2025-01-02T10:00:00.000Z',
    publishedAt: '2025-01-01T10:00:00.000Z',
    expiresAt: '2025-02-01T10:00:00.000Z',
    ...over,
  };
}

export const usdWallet = (amountCents = 0): Wallet => ({ id: 'w-usd', walletType: 'USD', amountCents, currency: 'USD' });
export const promoWallet = (amountCents = 0): Wallet => ({ id: 'w-promo', walletType: 'XG-PROMO-WALLET', amountCents, currency: 'USD' });

export const STATES = [
  { id: 'st-ny', name: 'New York', code: 'NY', slug: 'new-york', countryCode: 'US', enabled: true },
  { id: 'st-tx', name: 'Texas', code: 'TX', slug: 'texas', countryCode: 'US', enabled: true },
];
export const CITIES_NY = [
  { id: 'ct-nyc', stateId: 'st-ny', name: 'New York City', slug: 'new-york-city', population: 8000000, latitude: 0, longitude: 0, enabled: true },
  { id: 'ct-buf', stateId: 'st-ny', name: 'Buffalo', slug: 'buffalo', population: 270000, latitude: 0, longitude: 0, enabled: true },
];
export const AD_PRICING = {
  pricing: [
    { id: 'p1', kind: 'ad', listingType: 'female_esc', priceCents: 1500, durationDays: 30 },
    { id: 'p2', kind: 'ad', listingType: 'female_rub', priceCents: 1200, durationDays: 30 },
    { id: 'p3', kind: 'ad', listingType: 'shemale_esc', priceCents: 1000, durationDays: 30 },
  ],
};
export const BUMP_PRICING = {
  pricing: [
    { id: 'b1', kind: 'bump', listingType: 'female_esc', priceCents: 300 },
    { id: 'b2', kind: 'bump', listingType: 'female_rub', priceCents: 300 },
    { id: 'b3', kind: 'bump', listingType: 'shemale_esc', priceCents: 300 },
  ],
};
