import { SIGNED_IN, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  { route: 'GET /api/all-wallets-by-user', expect: SIGNED_IN },
  { route: 'POST /api/create-promo-wallet', expect: SIGNED_IN },
  { route: 'POST /api/add-promo-code-to-promo-wallet', expect: SIGNED_IN, request: { payload: { code: 'NO-SUCH-CODE' } } },
  { route: 'GET /api/email-wallet-promo-code', expect: SIGNED_IN },
];
