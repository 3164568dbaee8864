import { NOBODY, SIGNED_IN, STAFF, type MatrixRow } from './vocabulary.ts';

// The matrix sends a plain GET (no upgrade): a signed-in user from our own origin gets 426
// (use a WebSocket), a guest 401. The real handshake is tested in realtime.test.ts.
export const rows: MatrixRow[] = [
  { route: 'GET /api/ws', expect: SIGNED_IN, allowed: 426, request: () => ({ headers: { origin: 'http://localhost:3000' } }) },
  {
    route: 'GET /api/ws',
    expect: NOBODY,
    request: () => ({ headers: { origin: 'https://evil.example' } }),
    note: 'a foreign Origin is refused even with a valid session',
  },
  // Each allowed actor sends one (the limit is 10 an hour per staff member); delivery is tested in realtime.announce.test.ts.
  { route: 'POST /api/admin/send-public-message', expect: STAFF, allowed: 200, request: () => ({ payload: { text: { en: 'Maintenance at 02:00 UTC.' } } }) },
];
