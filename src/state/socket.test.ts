import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from 'msw';
import Value from 'typebox/value';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { logout, sessionStore } from './session';
import { resetAllStores } from './resource';
import {
  ADS_REFRESH_DELAY_MS,
  PROBE_INTERVAL_MS,
  dismissPublicMessage,
  PROBE_TIMEOUT_MS,
  onSocketEvent,
  reconnectDelay,
  sendSocketMessage,
  setCurrentInvoice,
  setInvoiceRefresher,
  setWalletReloader,
  socketStore,
  startSocket,
} from './socket';
import { cartStore } from './cart';
import { myAdsStore } from './ads';
import { myDashboardStore } from './myDashboard';
import { walletsStore } from './wallets';
import { socketUrl, type ServerEvent, type ServerEventData } from '../api/socket';
import { serverEvents } from '../../contract/events.ts';
import type { Session } from '../api/session';

/** Stands in for the browser's WebSocket; the test plays the server's side. */
class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closedWith: { code?: number; reason?: string } | null = null;
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  url: string;
  constructor(url: string) {
    this.url = url;
    FakeWebSocket.instances.push(this);
  }
  send(data: string) {
    if (this.readyState !== 1) throw new Error('InvalidStateError');
    this.sent.push(data);
  }
  close(code?: number, reason?: string) {
    this.readyState = 3;
    this.closedWith = { code, reason };
  }
  // the server's side
  accept() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  /** An event the real server could send: its payload is checked against contract/events.ts. */
  push<E extends ServerEvent>(event: E, data: ServerEventData<E>) {
    if (!Value.Check(serverEvents[event], data)) throw new Error(`${event}: ${JSON.stringify(data)} is not a payload the server could send`);
    this.onmessage?.({ data: JSON.stringify({ event, data }) });
  }
  /** The last message this socket sent, parsed. */
  lastSent(): { event: string; data: unknown } {
    return JSON.parse(this.sent[this.sent.length - 1]);
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const member: Session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
const sockets = () => FakeWebSocket.instances;
const last = () => sockets()[sockets().length - 1];
const flush = () => new Promise<void>((r) => setTimeout(r, 0));
const flushMicrotasks = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};
/** Waits out reconnect number `attempt`, whose length is random: none before its shortest, one by its longest. */
function waitOutReconnect(attempt: number): void {
  const n = sockets().length;
  vi.advanceTimersByTime(reconnectDelay(attempt, 0) - 1);
  expect(sockets()).toHaveLength(n);
  vi.advanceTimersByTime(reconnectDelay(attempt, 1) - reconnectDelay(attempt, 0) + 1);
  expect(sockets()).toHaveLength(n + 1);
}

let stop: (() => void) | null = null;

describe('socket store', () => {
  beforeEach(() => {
    FakeWebSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeWebSocket);
    // A reconnect reads the session again: still the same user unless a test says otherwise.
    server.use(http.get('/api/session', () => apiJson('GET /api/session', member)));
  });
  afterEach(() => {
    stop?.();
    stop = null;
    setWalletReloader(null);
    setInvoiceRefresher(null);
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('connects only once the session is signed in, to /api/ws on the same origin', async () => {
    stop = startSocket();
    await flush();
    expect(sockets()).toHaveLength(0);
    sessionStore.session = member;
    await flush();
    expect(sockets()).toHaveLength(1);
    expect(last().url).toBe('ws://localhost:3000/api/ws');
    expect(socketStore.connected).toBe(false);
    last().accept();
    expect(socketStore.connected).toBe(true);
    expect(socketUrl({ protocol: 'https:', host: 'xg.example' })).toBe('wss://xg.example/api/ws');
  });

  it('clears the connected flag on close and reconnects with backoff while signed in', async () => {
    sessionStore.session = member;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stop = startSocket();
    last().accept();
    last().drop();
    expect(socketStore.connected).toBe(false);
    expect(sockets()).toHaveLength(1);
    waitOutReconnect(0); // 0.5 to 1 s
    last().drop(); // refused again: the wait doubles
    waitOutReconnect(1); // 1 to 2 s
    last().accept();
    expect(socketStore.connected).toBe(true);
    last().drop(); // a good connection resets the backoff
    waitOutReconnect(0);
    expect([reconnectDelay(0, 0), reconnectDelay(0, 0.5), reconnectDelay(3, 0), reconnectDelay(20, 0), reconnectDelay(20, 1)]).toEqual([
      500, 750, 4000, 15_000, 30_000,
    ]);
  });

  // A restart closes every socket at the same instant (1001): the browsers must not all come back
  // in the same millisecond, round after round.
  it('spreads the reconnects of clients closed at the same instant over the second half of the wait', async () => {
    sessionStore.session = member;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const waits: number[] = [];
    for (let client = 0; client < 10; client++) {
      stop = startSocket();
      const sock = last();
      sock.accept();
      sock.drop(1001); // the server shutting down
      let waited = 0;
      while (sockets().at(-1) === sock && waited < 60_000) {
        vi.advanceTimersByTime(10);
        waited += 10;
      }
      waits.push(waited);
      stop();
      stop = null;
    }
    const seen = `waits: ${waits.join(', ')} ms`;
    expect(
      waits.every((w) => w >= 500 && w <= 1000),
      seen,
    ).toBe(true);
    expect(new Set(waits).size, seen).toBeGreaterThan(1);
  });

  it('reconnects at once when the network comes back, not at the end of a long backoff', async () => {
    sessionStore.session = member;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stop = startSocket();
    last().accept();
    last().drop(); // the network went away
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(reconnectDelay(i, 1));
      last().drop(); // offline: refused at once
    }
    expect(sockets()).toHaveLength(5);
    window.dispatchEvent(new Event('online')); // the next try was 16 s away
    expect(sockets()).toHaveLength(6);
    last().accept();
    expect(socketStore.connected).toBe(true);
    window.dispatchEvent(new Event('online')); // connected: nothing more
    expect(sockets()).toHaveLength(6);
  });

  it('waits until the tab is looked at again when the server replaced it with a newer socket (4008)', async () => {
    sessionStore.session = member;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stop = startSocket();
    last().accept();
    last().drop(4008);
    vi.advanceTimersByTime(60_000);
    expect(sockets()).toHaveLength(1);
    window.dispatchEvent(new Event('focus'));
    expect(sockets()).toHaveLength(2);
    window.dispatchEvent(new Event('focus')); // once only
    expect(sockets()).toHaveLength(2);
  });

  it('stops on logout: says goodbye, closes, and does not come back', async () => {
    server.use(http.post('/api/logout', () => apiJson('POST /api/logout', { isAuthenticated: false, userRoles: ['GUEST_USER'] })));
    sessionStore.session = member;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stop = startSocket();
    const ws = last();
    ws.accept();
    socketStore.invoiceUpdate = { type: 'INVOICECREATED', invoiceId: 'i1', status: 'New' };
    await logout();
    expect(ws.sent.map((s) => JSON.parse(s).event)).toEqual(['clientDisconnect']);
    expect(ws.closedWith?.code).toBe(1000);
    expect(socketStore.connected).toBe(false);
    expect(socketStore.invoiceUpdate).toBeNull();
    vi.advanceTimersByTime(10 * 60_000);
    await flushMicrotasks();
    expect(sockets()).toHaveLength(1);
    expect(sendSocketMessage('clientMessage', { text: 'hi' })).toBe(false);
  });

  for (const [code, why] of [
    [4001, 'signed out elsewhere'],
    [4003, 'the account suspended'],
  ] as const)
    it(`re-reads the session when the server ends it (${code}: ${why}), and stays closed for a guest`, async () => {
      server.use(http.get('/api/session', () => apiJson('GET /api/session', { isAuthenticated: false, userRoles: ['GUEST_USER'] })));
      sessionStore.session = member;
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      stop = startSocket();
      last().accept();
      last().drop(code);
      await vi.waitFor(() => expect(sessionStore.session.isAuthenticated).toBe(false));
      await flushMicrotasks();
      vi.advanceTimersByTime(10 * 60_000);
      expect(sockets()).toHaveLength(1);
    });

  // The socket opens with whatever cookie the browser holds now: after a loss (a laptop asleep,
  // a restart) another user may have signed in, or this one out, in another tab meanwhile.
  it('reads the session again after a reconnect, not after the first connection', async () => {
    let reads = 0;
    server.use(
      http.get('/api/session', () => {
        reads++;
        return apiJson('GET /api/session', member);
      }),
    );
    sessionStore.session = member;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stop = startSocket();
    last().accept();
    await flushMicrotasks();
    expect(reads).toBe(0);
    last().drop(1006);
    waitOutReconnect(0);
    expect(reads).toBe(0); // not before it is back
    last().accept();
    await vi.waitFor(() => expect(reads).toBe(1));
  });

  it('reconnects as the new user after a sign-in as someone else', async () => {
    sessionStore.session = member;
    stop = startSocket();
    const first = last();
    first.accept();
    resetAllStores(); // what login() does before storing the new session
    sessionStore.session = { ...member, id: 'u2', email: 'bo@example.com' };
    await flush();
    expect(first.closedWith?.code).toBe(1000);
    expect(sockets()).toHaveLength(2);
  });

  it('keeps invoice updates per the seed rule and reloads wallets when money arrives', async () => {
    const reload = vi.fn();
    setWalletReloader(reload);
    sessionStore.session = member;
    stop = startSocket();
    const ws = last();
    ws.accept();
    setCurrentInvoice('inv-2');

    ws.push('invoiceStatusUpdate', { type: 'INVOICECREATED', invoiceId: 'inv-1', status: 'New' });
    expect(socketStore.invoiceUpdate).toEqual({ type: 'INVOICECREATED', invoiceId: 'inv-1', status: 'New' });

    ws.push('invoiceStatusUpdate', { type: 'INVOICERECEIVEDPAYMENT', invoiceId: 'inv-9', status: 'Processing' });
    expect(socketStore.invoiceUpdate?.invoiceId).toBe('inv-1'); // not the invoice being watched
    expect(reload).toHaveBeenCalledTimes(1); // but money arrived: wallets reload

    ws.push('invoiceStatusUpdate', { type: 'InvoiceExpired', invoiceId: 'inv-2', status: 'Expired' });
    expect(socketStore.invoiceUpdate).toEqual({ type: 'INVOICEEXPIRED', invoiceId: 'inv-2', status: 'Expired' });
    expect(reload).toHaveBeenCalledTimes(1);

    ws.push('invoiceStatusUpdate', { type: 'INVOICESETTLED', invoiceId: 'inv-2', status: 'Settled' });
    expect(socketStore.invoiceUpdate).toEqual({ type: 'INVOICESETTLED', invoiceId: 'inv-2', status: 'Settled' });
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('hands every invoice update, whichever invoice, upper-cased, to the payments refresher', async () => {
    const seen: unknown[] = [];
    setInvoiceRefresher((u) => seen.push(u));
    sessionStore.session = member;
    stop = startSocket();
    const ws = last();
    ws.accept();
    setCurrentInvoice('inv-2');
    ws.push('invoiceStatusUpdate', { type: 'InvoiceReceivedPayment', invoiceId: 'inv-2', status: 'Processing' });
    ws.push('invoiceStatusUpdate', { type: 'INVOICEEXPIRED', invoiceId: 'inv-7', status: 'Expired' });
    ws.onmessage?.({ data: JSON.stringify({ event: 'invoiceStatusUpdate', data: { invoiceId: 'inv-2' } }) }); // no type: dropped
    expect(seen).toEqual([
      { type: 'INVOICERECEIVEDPAYMENT', invoiceId: 'inv-2', status: 'Processing' },
      { type: 'INVOICEEXPIRED', invoiceId: 'inv-7', status: 'Expired' },
    ]);
    setInvoiceRefresher(null);
    ws.push('invoiceStatusUpdate', { type: 'INVOICESETTLED', invoiceId: 'inv-2', status: 'Settled' });
    expect(seen).toHaveLength(2);
    expect(socketStore.invoiceUpdate).toEqual({ type: 'INVOICESETTLED', invoiceId: 'inv-2', status: 'Settled' });
  });

  it('delivers events to subscribers until they unsubscribe, ignoring malformed frames', async () => {
    sessionStore.session = member;
    stop = startSocket();
    const ws = last();
    ws.accept();
    const seen: unknown[] = [];
    const off = onSocketEvent('privateMessage', (d) => seen.push(d));
    ws.onmessage?.({ data: 'not json' });
    ws.onmessage?.({ data: JSON.stringify({ data: 'no event' }) });
    ws.onmessage?.({ data: JSON.stringify({ event: 'noSuchEvent', data: { text: 'nobody listens' } }) });
    ws.push('adStatusUpdate', { adId: 'ad1', status: 'approved' });
    ws.push('privateMessage', { text: 'hello' });
    off();
    ws.push('privateMessage', { text: 'after' });
    expect(seen).toEqual([{ text: 'hello' }]);
    expect(sendSocketMessage('clientMessage', { text: 'hi' })).toBe(true);
    expect(JSON.parse(ws.sent[0])).toEqual({ event: 'clientMessage', data: { text: 'hi' } });
  });

  it('checks the connection by its echo, and replaces a socket that no longer answers', async () => {
    sessionStore.session = member;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    stop = startSocket();
    const ws = last();
    ws.accept();
    expect(ws.sent).toEqual([]);
    vi.advanceTimersByTime(PROBE_INTERVAL_MS);
    const check = ws.lastSent();
    expect(check).toEqual({ event: 'clientMessage', data: { text: expect.stringMatching(/^probe:/) } });
    ws.push('privateMessage', check.data as { text: string }); // the server's echo
    vi.advanceTimersByTime(PROBE_TIMEOUT_MS);
    expect(socketStore.connected).toBe(true);
    expect(ws.closedWith).toBeNull();

    // The page shown again checks at once; this time no echo comes back.
    document.dispatchEvent(new Event('visibilitychange'));
    expect(ws.sent).toHaveLength(2);
    ws.push('privateMessage', { text: 'not the check' });
    vi.advanceTimersByTime(PROBE_TIMEOUT_MS - 1);
    expect(socketStore.connected).toBe(true);
    vi.advanceTimersByTime(1);
    expect(socketStore.connected).toBe(false);
    expect(ws.closedWith?.code).toBe(4000);
    vi.advanceTimersByTime(reconnectDelay(0, 1));
    expect(sockets()).toHaveLength(2);
    last().accept();
    expect(socketStore.connected).toBe(true);
    ws.push('privateMessage', check.data as { text: string }); // the old socket is not listened to any more
    expect(socketStore.connected).toBe(true);
  });

  it('reads the ad areas already loaded again when an ad changes status, once for a burst', async () => {
    const reads: string[] = [];
    server.use(
      http.get('/api/cart-ads-by-user', () => {
        reads.push('cart');
        return apiJson('GET /api/cart-ads-by-user', { pendingAds: [], total: 0, page: 1, pageSize: 20 });
      }),
      http.get('/api/all-ads-by-user', () => {
        reads.push('mine');
        return apiJson('GET /api/all-ads-by-user', {
          approvedAds: [],
          pendingAds: [],
          total: 0,
          page: 1,
          pageSize: 20,
          totals: { approvedAds: 0, pendingAds: 0 },
        });
      }),
      http.get('/api/all-wallets-by-user', () => {
        reads.push('wallets');
        return apiJson('GET /api/all-wallets-by-user', { wallets: [] });
      }),
    );
    cartStore.state.data = []; // the cart was opened; "my ads" and the dashboard were not
    walletsStore.state.data = []; // and the wallets (a rejection refunds: they are read again too)
    sessionStore.session = member;
    stop = startSocket();
    const ws = last();
    ws.accept();
    for (const adId of ['a1', 'a2', 'a3']) ws.push('adStatusUpdate', { adId, status: 'approved' });
    await vi.waitFor(() => expect(reads.toSorted()).toEqual(['cart', 'wallets']));
    await new Promise((r) => setTimeout(r, ADS_REFRESH_DELAY_MS * 2));
    expect(reads.toSorted()).toEqual(['cart', 'wallets']);
    expect(myAdsStore.state.data).toBeNull();
    expect(myDashboardStore.state.data).toBeNull();
  });

  // A pending provider with "my ads" open when a master approves the account: the session says
  // approved and "my ads" is read again (its ads show now), without a reload.
  it('reads the session and the open ads areas again when a master changes the account', async () => {
    const reads: string[] = [];
    const pending: Session = { ...member, userStatus: 'pending' };
    server.use(
      http.get('/api/session', () => {
        reads.push('session');
        return apiJson('GET /api/session', member);
      }),
      http.get('/api/cart-ads-by-user', () => {
        reads.push('cart');
        return apiJson('GET /api/cart-ads-by-user', { pendingAds: [], total: 0, page: 1, pageSize: 20 });
      }),
    );
    cartStore.state.data = []; // an ads area is open
    sessionStore.session = pending;
    stop = startSocket();
    const ws = last();
    ws.accept();
    ws.push('accountStatusUpdate', { status: 'approved' });
    await vi.waitFor(() => expect(reads.toSorted()).toEqual(['cart', 'session']));
    expect(sessionStore.session?.userStatus).toBe('approved');
  });

  it('reads the open dashboard again when an ad changes status: its counts and its recent activity, decisions and money alike', async () => {
    const reads: string[] = [];
    const approved = { adId: 'a1', title: 'Evenings in the city', event: 'approved' as const, at: '2025-01-05T12:00:00.000Z', reason: null };
    let recent: (typeof approved)[] = [];
    server.use(
      http.get('/api/my-ads-overview', () => {
        reads.push('overview');
        const counts = { unpaid: 0, in_review: recent.length ? 0 : 1, approved: recent.length, rejected: 0, disabled: 0, expired: 0 };
        return apiJson('GET /api/my-ads-overview', { counts, online: recent.length, recent });
      }),
      http.get('/api/wallet-transactions', () => {
        reads.push('transactions');
        return apiJson('GET /api/wallet-transactions', { transactions: [], total: 0, page: 1, pageSize: 5 });
      }),
      http.get('/api/all-wallets-by-user', () => {
        reads.push('wallets');
        return apiJson('GET /api/all-wallets-by-user', { wallets: [] });
      }),
    );
    await myDashboardStore.load(); // the dashboard is open
    expect(myDashboardStore.state.data?.counts.in_review).toBe(1);
    reads.length = 0;
    sessionStore.session = member;
    stop = startSocket();
    const ws = last();
    ws.accept();
    recent = [approved];
    ws.push('adStatusUpdate', { adId: 'a1', status: 'approved' });
    await vi.waitFor(() => expect(myDashboardStore.state.data?.activity).toEqual([{ source: 'ad', ...approved }]));
    expect(myDashboardStore.state.data?.counts).toMatchObject({ in_review: 0, approved: 1 });
    expect(reads.toSorted()).toEqual(['overview', 'transactions', 'wallets', 'wallets']);
  });

  it('reads the open dashboard again when a top-up is credited: its money in the recent activity', async () => {
    const credited = {
      id: 7,
      walletId: 'w1',
      walletType: 'USD' as const,
      kind: 'invoice_credit',
      amountCents: 2500,
      balanceAfterCents: 2500,
      reference: 'inv1',
      createdAt: '2025-01-05T12:00:00.000Z',
    };
    let transactions: (typeof credited)[] = [];
    server.use(
      http.get('/api/my-ads-overview', () =>
        apiJson('GET /api/my-ads-overview', { counts: { unpaid: 0, in_review: 0, approved: 0, rejected: 0, disabled: 0, expired: 0 }, online: 0, recent: [] }),
      ),
      http.get('/api/wallet-transactions', () => apiJson('GET /api/wallet-transactions', { transactions, total: transactions.length, page: 1, pageSize: 5 })),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [] })),
    );
    await myDashboardStore.load();
    expect(myDashboardStore.state.data?.activity).toEqual([]);
    sessionStore.session = member;
    stop = startSocket();
    const ws = last();
    ws.accept();
    transactions = [credited];
    ws.push('invoiceStatusUpdate', { type: 'INVOICESETTLED', invoiceId: 'inv1', status: 'Settled' });
    await vi.waitFor(() => expect(myDashboardStore.state.data?.activity).toHaveLength(1));
  });

  it('keeps the latest announcement until it is dismissed or replaced, drops malformed ones, and forgets it on logout', async () => {
    server.use(http.post('/api/logout', () => apiJson('POST /api/logout', { isAuthenticated: false, userRoles: ['GUEST_USER'] })));
    sessionStore.session = member;
    stop = startSocket();
    const ws = last();
    ws.accept();
    expect(socketStore.publicMessage).toBeNull();
    const first = { text: { en: 'Maintenance tonight at 02:00 UTC.', es: 'Mantenimiento esta noche a las 02:00 UTC.' }, at: '2026-01-15T12:00:00.000Z' };
    ws.push('publicMessage', first);
    expect(socketStore.publicMessage).toEqual(first);
    const second = { text: { en: 'Back online.' }, at: '2026-01-15T12:10:00.000Z' };
    ws.push('publicMessage', second);
    expect(socketStore.publicMessage).toEqual(second);
    dismissPublicMessage();
    expect(socketStore.publicMessage).toBeNull();

    for (const data of [null, { text: 'no languages', at: first.at }, { text: { es: 'sin inglés' }, at: first.at }, { text: { en: 'no time' } }]) {
      ws.onmessage?.({ data: JSON.stringify({ event: 'publicMessage', data }) });
    }
    expect(socketStore.publicMessage).toBeNull();
    ws.onmessage?.({ data: JSON.stringify({ event: 'publicMessage', data: { text: { en: 'Hi', pt: 7 }, at: first.at } }) }); // a broken language is left out
    expect(socketStore.publicMessage).toEqual({ text: { en: 'Hi' }, at: first.at });

    ws.push('publicMessage', first);
    await logout();
    expect(socketStore.publicMessage).toBeNull();
  });

  it('closes when the last user of the socket stops', async () => {
    sessionStore.session = member;
    const a = startSocket();
    const b = startSocket();
    expect(sockets()).toHaveLength(1);
    last().accept();
    a();
    expect(last().readyState).toBe(1);
    b();
    expect(last().closedWith?.code).toBe(1000);
    expect(socketStore.connected).toBe(false);
  });
});
