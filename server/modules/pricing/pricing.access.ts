import { PUBLIC, STAFF, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  { route: 'GET /api/get-ad-pricing', expect: PUBLIC },
  { route: 'GET /api/get-bump-pricing', expect: PUBLIC },
  { route: 'GET /api/admin/get-all-pricing', expect: STAFF },
  { route: 'POST /api/admin/set-price-by-id', expect: STAFF, request: { payload: { id: 'no-such-price', priceCents: 100 } } },
  { route: 'GET /api/admin/get-all-promo-codes', expect: STAFF },
  { route: 'POST /api/admin/set-promo-code-by-id', expect: STAFF, request: { payload: { id: 'no-such-code', code: 'NOPE', amountCents: 100, maxUses: 1, active: true } } },
];
