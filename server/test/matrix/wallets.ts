import { OWNER, SIGNED_IN, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  { route: 'GET /api/all-wallets-by-user', expect: SIGNED_IN, allowed: 200, lists: ['usdWallet', 'promoWallet'] },
  { route: 'POST /api/create-promo-wallet', expect: SIGNED_IN, allowed: 200, request: () => ({ payload: {} }) },
  {
    route: 'POST /api/add-promo-code-to-promo-wallet',
    expect: SIGNED_IN,
    allowed: 200,
    request: (c) => ({ payload: { code: c.world.promoCode } }),
    policy: ['wallets', 'redeem', (c, r) => c.objects.code((r.payload as { code: string }).code)],
  },
  // Sends the welcome code once: HEAD, after the GET, is answered 409 (past authorization). Before
  // the personal code's row: a personal code redeemed is a welcome credit, which an inbox gets once.
  { route: 'GET /api/email-wallet-promo-code', expect: SIGNED_IN, allowed: 200 },
  // A personal code (the welcome code is one) credits its owner only; to anyone else it is "not
  // valid", exactly as an unknown code is (400), so it cannot be told apart from one.
  {
    route: 'POST /api/add-promo-code-to-promo-wallet',
    target: 'provider.personalCode',
    expect: OWNER,
    policy: ['wallets', 'redeem'],
    allowed: 200,
    notYours: 400,
    request: (c) => ({ payload: { code: c.id('provider.personalCode') } }),
  },
];
