import { PUBLIC, type MatrixRow } from './vocabulary.ts';

// Logging out ends the actor's sessions: the fixture signs them in again before the next request.
export const rows: MatrixRow[] = [
  {
    route: 'POST /api/register',
    expect: PUBLIC,
    allowed: 201,
    request: (c) => ({ payload: { email: `matrix-${c.unique}@example.com`, password: 'correct horse battery', nickname: `m_${c.unique}` } }),
  },
  {
    route: 'POST /api/login',
    expect: PUBLIC,
    allowed: 200,
    request: (c) => ({ payload: { email: c.world.loginEmail, password: c.world.loginPassword } }),
    policy: ['auth', 'signIn', (c, r) => c.objects.account((r.payload as { email: string }).email)],
  },
  { route: 'GET /api/session', expect: PUBLIC, allowed: 200, self: true },
  { route: 'GET /api/logout', expect: PUBLIC, allowed: 200 },
  { route: 'POST /api/logout', expect: PUBLIC, allowed: 200 },
  // The same 202 for any address (an unknown one here: nothing is sent, nothing is stored).
  { route: 'POST /api/password-reset-request', expect: PUBLIC, allowed: 202, request: (c) => ({ payload: { email: `nobody-${c.unique}@example.com` } }) },
  // The signed link is the authorization (ads.reminders.test.ts); a wrong one is a 400 for everyone.
  { route: 'POST /api/unsubscribe', expect: PUBLIC, allowed: 400, request: () => ({ url: '/api/unsubscribe?u=nobody&t=forged', payload: {} }) },
  // Opened in a browser: a 303 to the confirmation page for everyone, whatever the link says (never unsubscribes).
  { route: 'GET /api/unsubscribe', expect: PUBLIC, allowed: 303, request: () => ({ url: '/api/unsubscribe?u=nobody&t=forged' }) },
  // A token is the authorization (tests of it: auth.reset.test.ts); a wrong one is a 400 for everyone.
  {
    route: 'POST /api/password-reset',
    expect: PUBLIC,
    allowed: 400,
    request: () => ({ payload: { token: 'not-a-real-token', newPassword: 'a brand new passphrase' } }),
  },
];
