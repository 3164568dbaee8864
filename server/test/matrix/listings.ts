import { OWNER_AND_STAFF_SEE, PUBLIC, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  {
    route: 'GET /api/listings',
    expect: PUBLIC,
    allowed: 200,
    request: (c) => ({ url: `/api/listings?state=${c.world.ny.stateSlug}&city=${c.world.ny.citySlug}&type=female-escorts` }),
  },
  { route: 'GET /api/search', expect: PUBLIC, allowed: 200, request: () => ({ url: '/api/search?query=companion' }) },
  { route: 'GET /api/ads/:id', target: 'provider.liveAd', expect: PUBLIC, policy: ['listings', 'view'], allowed: 200 },
  // Not public yet: its owner and staff see it, anyone else gets 404 (PRODUCT §7).
  { route: 'GET /api/ads/:id', target: 'provider.cartAd', expect: OWNER_AND_STAFF_SEE, policy: ['listings', 'view'], allowed: 200, mirror: true },
  { route: 'GET /api/ads/:id', target: 'provider.reviewAd', expect: OWNER_AND_STAFF_SEE, policy: ['listings', 'view'], allowed: 200, mirror: true },
  {
    route: 'GET /api/ads/:id',
    target: 'pendingProvider.liveAd',
    expect: OWNER_AND_STAFF_SEE,
    policy: ['listings', 'view'],
    allowed: 200,
    note: 'approved, but its owner is pending',
  },
  {
    route: 'GET /api/ads/:id',
    target: 'suspendedProvider.liveAd',
    expect: OWNER_AND_STAFF_SEE,
    policy: ['listings', 'view'],
    allowed: 200,
    note: 'approved, but its owner is suspended',
  },
  {
    route: 'GET /api/users-ads-aggregate/us/:listingType',
    expect: PUBLIC,
    allowed: 200,
    request: () => ({ url: '/api/users-ads-aggregate/us/female-escorts' }),
  },
  {
    route: 'GET /api/users-ads-aggregate/us/:listingType/states',
    expect: PUBLIC,
    allowed: 200,
    request: () => ({ url: '/api/users-ads-aggregate/us/female-escorts/states' }),
  },
  { route: 'GET /api/home', expect: PUBLIC, allowed: 200 },
  {
    route: 'POST /api/report-ad/:id',
    target: 'provider.liveAd',
    expect: PUBLIC,
    policy: ['listings', 'report'],
    allowed: 201,
    request: () => ({ payload: { message: 'This ad looks wrong to me.' } }),
  },
];
