import { NOBODY, OWNER, SIGNED_IN, STAFF, type MatrixRow, type PolicyLink, type RequestSpec, type RowContext } from './vocabulary.ts';

function adForm(c: RowContext): FormData {
  const fd = new FormData();
  const fields = {
    listingType: 'female_esc', // the fixture's ads' type: a paid ad keeps the type it was paid for
    title: 'Relaxing massage uptown',
    age: '30',
    // Staff post with a number of their own: an ad sharing a provider's phone links them to that provider, whose ads they may then not review.
    phone: c.me.actor === 'admin' || c.me.actor === 'master' ? '(212) 555-0144' : '(212) 555-0143',
    description: 'Calm, clean studio. Swedish and deep tissue, by appointment only, weekdays.',
    stateId: c.world.ny.stateId,
    cityId: c.world.ny.cityId,
  };
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('photos', new Blob([new Uint8Array(c.photo)], { type: 'image/jpeg' }), 'photo.jpg');
  return fd;
}

/** Paying (an ad, a bump) uses the wallet the request names: its owner's only. */
const walletUsed = (c: RowContext, r: RequestSpec) => c.objects.wallet((r.payload as { walletId: string }).walletId);
const paying = (action: 'pay' | 'bump' | 'renew'): PolicyLink[] => [
  ['ads', action],
  ['wallets', 'use', walletUsed],
];
/** Staff act on the ad the request names (the rows name one). */
const staffOn = (action: 'review' | 'moderate'): PolicyLink => ['ads', action, (c, r) => c.objects.ad((r.payload as { adIds: string[] }).adIds[0])];

export const rows: MatrixRow[] = [
  // Pending users may post (PRODUCT §2): every live session posts a real ad.
  { route: 'POST /api/post-ad', expect: SIGNED_IN, request: (c) => ({ payload: adForm(c) }), allowed: 201 },
  { route: 'GET /api/cart-ads-by-user', expect: SIGNED_IN, allowed: 200, lists: ['cartAd'] },
  { route: 'GET /api/all-ads-by-user', expect: SIGNED_IN, allowed: 200, lists: ['cartAd', 'reviewAd', 'liveAd'] },
  {
    route: 'GET /api/all-ads-by-user',
    expect: SIGNED_IN,
    allowed: 200,
    request: () => ({ url: '/api/all-ads-by-user?list=approved&page=1&pageSize=5' }),
    lists: ['liveAd'],
    note: 'one list, paged',
  },
  // The dashboard's counts and latest decisions: the live ad's approval is one of them.
  { route: 'GET /api/my-ads-overview', expect: SIGNED_IN, allowed: 200, lists: ['liveAd'] },

  { route: 'DELETE /api/delete-cart-ad/:id', target: 'provider.cartAd', expect: OWNER, policy: ['ads', 'deleteFromCart'], allowed: 200 },
  // Editing: in place while unpaid, as a revision once live (the public keeps the approved text).
  {
    route: 'PUT /api/ads/:id',
    target: 'provider.cartAd',
    expect: OWNER,
    policy: ['ads', 'edit'],
    allowed: 200,
    mirror: true,
    request: (c) => ({ payload: adForm(c) }),
  },
  { route: 'PUT /api/ads/:id', target: 'provider.liveAd', expect: OWNER, policy: ['ads', 'edit'], allowed: 200, request: (c) => ({ payload: adForm(c) }) },
  {
    route: 'PUT /api/renew-ad/:id',
    target: 'provider.liveAd',
    expect: OWNER,
    policy: paying('renew'),
    allowed: 200,
    mirror: true,
    request: (c) => ({ payload: { walletId: c.myWallet('usdWallet') } }),
  },
  { route: 'DELETE /api/ads/:id', target: 'provider.cartAd', expect: OWNER, policy: ['ads', 'delete'], allowed: 200, mirror: true },
  { route: 'DELETE /api/ads/:id', target: 'provider.reviewAd', expect: OWNER, policy: ['ads', 'delete'], allowed: 200, note: 'refunded in full' },
  {
    route: 'DELETE /api/delete-cart-ad/:id',
    target: 'provider.reviewAd',
    expect: OWNER,
    policy: ['ads', 'deleteFromCart'],
    allowed: 409,
    note: 'a paid ad stays: its owner gets 409',
  },
  // Each actor pays with a funded wallet of their own: only the ad's owner may pay for it.
  {
    route: 'PUT /api/ad-payment-in-cart/:id',
    target: 'provider.cartAd',
    expect: OWNER,
    policy: paying('pay'),
    allowed: 200,
    request: (c) => ({ payload: { walletId: c.myWallet('usdWallet') } }),
  },
  {
    route: 'PUT /api/ad-payment-in-cart/:id',
    target: 'provider.cartAd',
    expect: OWNER,
    policy: paying('pay'),
    allowed: 200,
    request: (c) => ({ payload: { walletId: c.myWallet('promoWallet') } }),
    note: 'from the promo wallet',
  },
  {
    route: 'PUT /api/ad-payment-in-cart/:id',
    target: 'provider.cartAd',
    expect: NOBODY,
    policy: paying('pay'),
    mirror: true,
    request: (c) => ({ payload: { walletId: c.id('otherProvider.usdWallet') } }),
    note: "paid from otherProvider's wallet: neither the ad's owner nor the wallet's may",
  },
  {
    route: 'PUT /api/ad-payment-in-cart/:id',
    target: 'pendingProvider.cartAd',
    expect: OWNER,
    policy: paying('pay'),
    allowed: 200,
    request: (c) => ({ payload: { walletId: c.myWallet('usdWallet') } }),
    note: 'a pending user pays their own ad',
  },
  {
    route: 'PUT /api/ad-payment-in-cart/:id',
    target: 'provider.reviewAd',
    expect: OWNER,
    policy: paying('pay'),
    allowed: 409,
    request: (c) => ({ payload: { walletId: c.myWallet('usdWallet') } }),
    note: 'already paid',
  },
  {
    route: 'PUT /api/bump-ad/:id',
    target: 'provider.liveAd',
    expect: OWNER,
    policy: paying('bump'),
    allowed: 200,
    request: (c) => ({ payload: { walletId: c.myWallet('usdWallet') } }),
  },
  {
    route: 'PUT /api/bump-ad/:id',
    target: 'provider.liveAd',
    expect: OWNER,
    policy: paying('bump'),
    allowed: 200,
    request: (c) => ({ payload: { walletId: c.myWallet('promoWallet') } }),
    note: 'from the promo wallet',
  },
  {
    route: 'PUT /api/bump-ad/:id',
    target: 'provider.liveAd',
    expect: NOBODY,
    policy: paying('bump'),
    mirror: true,
    request: (c) => ({ payload: { walletId: c.id('otherProvider.promoWallet') } }),
    note: "paid from otherProvider's wallet",
  },
  {
    route: 'PUT /api/update-ad-online-status/:id',
    target: 'provider.liveAd',
    expect: OWNER,
    policy: ['ads', 'setOnline'],
    allowed: 200,
    request: () => ({ payload: { online: false } }),
  },
  {
    route: 'PUT /api/update-ad-online-status/:id',
    target: 'provider.cartAd',
    expect: OWNER,
    policy: ['ads', 'setOnline'],
    allowed: 200,
    request: () => ({ payload: { online: false } }),
  },
  {
    route: 'PUT /api/update-ad-online-status/:id',
    target: 'suspendedProvider.liveAd',
    expect: OWNER,
    policy: ['ads', 'setOnline'],
    request: () => ({ payload: { online: true } }),
    note: 'a suspended owner may not act (nor anyone else)',
  },
  {
    route: 'PUT /api/update-ad-location/:id',
    target: 'provider.liveAd',
    expect: OWNER,
    policy: ['ads', 'move'],
    allowed: 200,
    request: (c) => ({ payload: c.world.otherNyCity }),
  },
  {
    route: 'PUT /api/update-ad-location/:id',
    target: 'provider.reviewAd',
    expect: OWNER,
    policy: ['ads', 'move'],
    allowed: 200,
    request: (c) => ({ payload: c.world.otherNyCity }),
  },

  { route: 'GET /api/admin/get-pending-ads', expect: STAFF, allowed: 200 },
  { route: 'GET /api/admin/get-pending-ads', expect: STAFF, allowed: 200, request: () => ({ url: '/api/admin/get-pending-ads?includeUnpaid=true' }) },
  {
    route: 'POST /api/admin/approve-pending-ads',
    expect: STAFF,
    policy: staffOn('review'),
    allowed: 200,
    request: (c) => ({ payload: { adIds: [c.id('provider.reviewAd')], decision: 'approve' } }),
  },
  {
    route: 'POST /api/admin/approve-pending-ads',
    expect: STAFF,
    policy: staffOn('review'),
    allowed: 200,
    request: (c) => ({ payload: { adIds: [c.id('otherProvider.reviewAd')], decision: 'reject', reason: 'Photos do not match the text.' } }),
    note: 'reject: the refund goes to the wallet that paid',
  },
  { route: 'GET /api/admin/get-approved-ads', expect: STAFF, allowed: 200 },
  {
    route: 'POST /api/admin/set-status-approved-ads',
    expect: STAFF,
    policy: staffOn('moderate'),
    allowed: 200,
    request: (c) => ({ payload: { adIds: [c.id('provider.liveAd')], status: 'disabled' } }),
  },
  { route: 'GET /api/admin/get-screening-log', expect: STAFF, allowed: 200 },
];
