import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { server } from '../test/server';
import { logout, sessionStore } from './session';
import { resetAllStores } from './resource';
import { onSocketEvent, reconnectDelay, sendSocketMessage, setCurrentInvoice, setWalletReloader, socketStore, startSocket } from './socket';
import { socketUrl } from '../api/socket';
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
  push(event: string, data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ event, data }) });
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

let stop: (() => void) | null = null;

describe('socket store', () => {
  beforeEach(() => {
    FakeWebSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeWebSocket);
  });
  afterEach(() => {
    stop?.();
    stop = null;
    setWalletReloader(null);
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
    vi.advanceTimersByTime(reconnectDelay(0) - 1);
    expect(sockets()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets()).toHaveLength(2);
    last().drop(); // refused again: the wait doubles
    vi.advanceTimersByTime(reconnectDelay(1) - 1);
    expect(sockets()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets()).toHaveLength(3);
    last().accept();
    expect(socketStore.connected).toBe(true);
    last().drop(); // a good connection resets the backoff
    vi.advanceTimersByTime(reconnectDelay(0));
    expect(sockets()).toHaveLength(4);
    expect(reconnectDelay(20)).toBe(30_000);
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
    server.use(http.post('/api/logout', () => HttpResponse.json({ isAuthenticated: false, userRoles: ['GUEST_USER'] })));
    sessionStore.session = member;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stop = startSocket();
    const ws = last();
    ws.accept();
    socketStore.invoiceUpdate = { type: 'INVOICECREATED', invoiceId: 'i1' };
    await logout();
    expect(ws.sent.map((s) => JSON.parse(s).event)).toEqual(['clientDisconnect']);
    expect(ws.closedWith?.code).toBe(1000);
    expect(socketStore.connected).toBe(false);
    expect(socketStore.invoiceUpdate).toBeNull();
    vi.advanceTimersByTime(10 * 60_000);
    await flushMicrotasks();
    expect(sockets()).toHaveLength(1);
    expect(sendSocketMessage('clientMessage', 'hi')).toBe(false);
  });

  it('re-reads the session when the server ends it, and stays closed for a guest', async () => {
    server.use(http.get('/api/session', () => HttpResponse.json({ isAuthenticated: false, userRoles: ['GUEST_USER'] })));
    sessionStore.session = member;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stop = startSocket();
    last().accept();
    last().drop(4001);
    await vi.waitFor(() => expect(sessionStore.session.isAuthenticated).toBe(false));
    await flushMicrotasks();
    vi.advanceTimersByTime(10 * 60_000);
    expect(sockets()).toHaveLength(1);
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

    ws.push('invoiceStatusUpdate', { type: 'INVOICERECEIVEDPAYMENT', invoiceId: 'inv-9' });
    expect(socketStore.invoiceUpdate?.invoiceId).toBe('inv-1'); // not the invoice being watched
    expect(reload).toHaveBeenCalledTimes(1); // but money arrived: wallets reload

    ws.push('invoiceStatusUpdate', { type: 'InvoiceExpired', invoiceId: 'inv-2' });
    expect(socketStore.invoiceUpdate).toEqual({ type: 'INVOICEEXPIRED', invoiceId: 'inv-2' });
    expect(reload).toHaveBeenCalledTimes(1);

    ws.push('invoiceStatusUpdate', { type: 'INVOICESETTLED', invoiceId: 'inv-2', status: 'Settled' });
    expect(socketStore.invoiceUpdate).toEqual({ type: 'INVOICESETTLED', invoiceId: 'inv-2', status: 'Settled' });
    expect(reload).toHaveBeenCalledTimes(2);
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
    ws.push('publicMessage', 'for everyone');
    ws.push('privateMessage', { text: 'hello' });
    off();
    ws.push('privateMessage', { text: 'after' });
    expect(seen).toEqual([{ text: 'hello' }]);
    expect(sendSocketMessage('clientMessage', { text: 'hi' })).toBe(true);
    expect(JSON.parse(ws.sent[0])).toEqual({ event: 'clientMessage', data: { text: 'hi' } });
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
