import { SIGNED_IN, STAFF, type AccessRow } from '../../test/access.ts';

const OWN = 'acts on an ad owned by provider: otherProvider gets 404';

export const accessRows: AccessRow[] = [
  { route: 'POST /api/post-ad', expect: SIGNED_IN, note: 'a JSON body is refused with 400/415 after authorization' },
  { route: 'GET /api/cart-ads-by-user', expect: SIGNED_IN },
  { route: 'GET /api/all-ads-by-user', expect: SIGNED_IN },
  { route: 'DELETE /api/delete-cart-ad/:id', expect: SIGNED_IN, note: OWN },
  { route: 'PUT /api/ad-payment-in-cart/:id', expect: SIGNED_IN, request: { payload: { walletId: 'x' } }, note: OWN },
  { route: 'PUT /api/bump-ad/:id', expect: SIGNED_IN, request: { payload: { walletId: 'x' } }, note: OWN },
  { route: 'PUT /api/update-ad-online-status/:id', expect: SIGNED_IN, request: { payload: { online: false } }, note: OWN },
  { route: 'PUT /api/update-ad-location/:id', expect: SIGNED_IN, request: { payload: { stateId: 'ny', cityId: 'x' } }, note: OWN },
  { route: 'GET /api/admin/get-pending-ads', expect: STAFF },
  { route: 'POST /api/admin/approve-pending-ads', expect: STAFF, request: { payload: { adIds: ['no-such-ad'], decision: 'approve' } } },
  { route: 'GET /api/admin/get-approved-ads', expect: STAFF },
  { route: 'POST /api/admin/set-status-approved-ads', expect: STAFF, request: { payload: { adIds: ['no-such-ad'], status: 'disabled' } } },
  { route: 'GET /api/admin/get-screening-log', expect: STAFF },
];
