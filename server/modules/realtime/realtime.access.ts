import { SIGNED_IN, type AccessRow } from '../../test/access.ts';

// The matrix sends a plain GET (no upgrade): a signed-in user from our own origin gets 426
// (use a WebSocket), a guest 401. The real handshake is tested in realtime.test.ts.
export const accessRows: AccessRow[] = [
  { route: 'GET /api/ws', expect: SIGNED_IN, request: { headers: { origin: 'http://localhost:3000' } } },
  {
    route: 'GET /api/ws',
    expect: { guest: 'deny', provider: 'deny', otherProvider: 'deny', admin: 'deny', master: 'deny' },
    request: { headers: { origin: 'https://evil.example' } },
    note: 'a foreign Origin is refused even with a valid session',
  },
];
