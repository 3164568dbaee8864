import { PUBLIC, STAFF, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  { route: 'GET /api/get-ad-pricing', expect: PUBLIC, allowed: 200 },
  { route: 'GET /api/get-bump-pricing', expect: PUBLIC, allowed: 200 },
  { route: 'GET /api/admin/get-all-pricing', expect: STAFF, allowed: 200 },
  {
    route: 'POST /api/admin/set-price-by-id',
    expect: STAFF,
    policy: ['pricing', 'setPrice', (_, r) => ({ id: (r.payload as { id: string }).id })],
    allowed: 200,
    request: (c) => ({ payload: { id: c.world.bumpPriceId, priceCents: 1 } }),
  },
  { route: 'GET /api/admin/get-all-promo-codes', expect: STAFF, allowed: 200 },
  {
    route: 'POST /api/admin/set-promo-code-by-id',
    expect: STAFF,
    policy: ['pricing', 'setPromoCode', (_, r) => ({ id: (r.payload as { id: string }).id })],
    allowed: 200,
    request: (c) => ({ payload: { id: c.world.staffPromoCodeId, code: 'MATRIX-STAFF', amountCents: 100_000, maxUses: 1000, active: true } }),
  },
  {
    route: 'POST /api/admin/set-promo-code-by-id',
    expect: STAFF,
    policy: ['pricing', 'setPromoCode'],
    allowed: 201,
    request: (c) => ({ payload: { code: `NEW-${c.unique.toUpperCase()}`, amountCents: 100_000, maxUses: 1000, active: true } }),
    note: 'without an id: creates a code',
  },
];
