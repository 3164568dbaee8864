import { SIGNED_IN, STAFF, type MatrixRow, type PolicyLink } from './vocabulary.ts';

// The Textbelt key and messages are staff's (/api/admin by prefix). Phone verification acts on the
// session's own account, asked of profile.manage like every profile route. The matrix's app has
// no Textbelt on this machine, so a key set here leaves the gateway unconfigured: the balance is a
// 409 and messages go to the outbox; nothing is sent anywhere.
const manage: PolicyLink = ['profile', 'manage', (c) => c.objects.user(c.me.id)];

// Three codes an hour per number: every request asks for another number.
let phones = 0;
const nextPhone = () => `+1646555${String(1000 + (phones++ % 9000)).padStart(4, '0')}`;

export const rows: MatrixRow[] = [
  { route: 'GET /api/admin/get-textbelt-token', expect: STAFF, allowed: 200 },
  {
    route: 'PUT /api/admin/update-textbelt-token-by-id/:id',
    expect: STAFF,
    allowed: 200,
    request: (c) => ({ url: '/api/admin/update-textbelt-token-by-id/1', payload: { token: `matrix_key_${c.unique.replace(/[^A-Za-z0-9_-]/g, '')}` } }),
  },
  { route: 'GET /api/admin/get-textbelt-balance/:id', expect: STAFF, allowed: 409, request: () => ({ url: '/api/admin/get-textbelt-balance/1' }) },
  {
    route: 'POST /api/admin/send-textbelt-test-sms',
    expect: STAFF,
    allowed: 200,
    request: () => ({ payload: { phone: '+12125550100', message: 'Matrix test message.' } }),
  },
  { route: 'GET /api/admin/get-textbelt-messages', expect: STAFF, allowed: 200 },
  { route: 'POST /api/admin/refresh-textbelt-statuses', expect: STAFF, allowed: 200, request: () => ({ payload: {} }) },
  { route: 'POST /api/phone-verification', expect: SIGNED_IN, policy: manage, allowed: 202, request: () => ({ payload: { phone: nextPhone() } }) },
  // No code is right here (a right one would change the actor's phone for every later row): 400.
  {
    route: 'POST /api/phone-verification/confirm',
    expect: SIGNED_IN,
    policy: manage,
    allowed: 400,
    request: () => ({ payload: { code: '000000' } }),
  },
];
