import { useEffect } from 'react';
import { proxy, subscribe } from 'valtio';
import { onReset } from './resource';
import { loadSession, sessionStore } from './session';
import {
  WS_CONNECTING,
  WS_OPEN,
  encodeSocketMessage,
  openSocket,
  parseSocketMessage,
  sendPublicMessage as postPublicMessage,
  type ClientEvent,
  type ClientEventArgs,
  type ServerEvent,
  type PublicMessageText,
  type ServerEventData,
} from '../api/socket';

/** An `invoiceStatusUpdate` as the wallet keeps it (type upper-cased). */
export type InvoiceStatusUpdate = ServerEventData<'invoiceStatusUpdate'>;
/** A staff announcement (`publicMessage`): its texts by language and when it was sent. */
export type PublicMessage = ServerEventData<'publicMessage'>;

/**
 * The seed's socket data area: the connection flag, the invoice update the wallet shows, and
 * the latest staff announcement, shown by the dashboard layout until dismissed or replaced.
 */
export const socketStore = proxy({
  connected: false,
  invoiceUpdate: null as InvoiceStatusUpdate | null,
  publicMessage: null as PublicMessage | null,
  /** The invoice the wallet screen is waiting on (set by it); updates for it are kept. */
  currentInvoiceId: null as string | null,
});

export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;
/** Close codes the server uses when the session is over: re-read the session before retrying. */
const SESSION_ENDED_CODES = new Set([4001, 4003, 4401, 4403]); // 4003: the account was suspended (master.service.ts)
/**
 * The server keeps 10 sockets per user and closes the oldest for an 11th. That tab must not
 * reconnect at once (it would push out the next one, round and round): it waits until it is
 * looked at again.
 */
export const CLOSE_REPLACED = 4008;

/**
 * The wait before reconnect number `attempt` (0 first): doubling from 1 s up to 30 s, of which a
 * random half ("equal jitter"; `random` in [0, 1)). A restart closes every socket at the same
 * instant: without the random part every browser would come back in the same millisecond, round
 * after round, on the handshake, its session read and an office's shared per-address limit.
 */
export function reconnectDelay(attempt: number, random = Math.random()): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** attempt);
  return ceiling / 2 + random * (ceiling / 2);
}

type Handler = (data: unknown) => void;
const handlers = new Map<string, Set<Handler>>();

/**
 * Listens to one server event (contract/events.ts), with its payload's type; returns the function
 * that stops listening. Name the event literally: realtime.events.test.ts finds the handlers by
 * reading the sources, and fails when the server sends an event nobody here listens to.
 */
export function onSocketEvent<E extends ServerEvent>(event: E, handler: (data: ServerEventData<E>) => void): () => void {
  let set = handlers.get(event);
  if (!set) handlers.set(event, (set = new Set()));
  set.add(handler as Handler);
  return () => {
    set.delete(handler as Handler);
  };
}

let reloadWallets: (() => void) | null = null;
/** The wallet store registers how to reload wallets; payments arriving trigger it. */
export function setWalletReloader(fn: (() => void) | null): void {
  reloadWallets = fn;
}

let refreshInvoices: ((u: InvoiceStatusUpdate) => void) | null = null;
/**
 * The payments store registers how to read the invoices and the wallets' history again; every
 * invoice update triggers it (the list shows all the user's invoices, not only the watched one).
 */
export function setInvoiceRefresher(fn: ((u: InvoiceStatusUpdate) => void) | null): void {
  refreshInvoices = fn;
}

export function setCurrentInvoice(invoiceId: string | null): void {
  socketStore.currentInvoiceId = invoiceId;
}

/**
 * Seed §4: keep an update when it announces a new invoice or concerns the one being watched;
 * reload the wallets once money is seen (received or settled), whichever invoice it is.
 */
export function applyInvoiceUpdate(u: InvoiceStatusUpdate): void {
  // Frames are typed by the contract, not checked: a malformed one is dropped rather than thrown on.
  if (!u || typeof u.type !== 'string') return;
  const type = u.type.toUpperCase();
  const invoiceId = typeof u.invoiceId === 'string' ? u.invoiceId : '';
  if (type === 'INVOICECREATED' || (invoiceId && invoiceId === socketStore.currentInvoiceId)) {
    socketStore.invoiceUpdate = { type, invoiceId, status: typeof u.status === 'string' ? u.status : '' };
  }
  if (type === 'INVOICERECEIVEDPAYMENT' || type === 'INVOICESETTLED') reloadWallets?.();
  // A credited top-up is news on an open dashboard too (its recent activity lists money moving).
  if (type === 'INVOICESETTLED') void import('./myDashboard').then(({ myDashboardStore: d }) => (d.state.data !== null ? d.load() : undefined));
  refreshInvoices?.({ type, invoiceId, status: typeof u.status === 'string' ? u.status : '' });
}
onSocketEvent('invoiceStatusUpdate', applyInvoiceUpdate);

/**
 * A staff announcement replaces the one shown (even a dismissed one: it is news). Kept only with
 * its English text and time; a language that is not text is left out, so the page falls back to
 * English for it.
 */
export function applyPublicMessage(m: PublicMessage): void {
  const text = m?.text as Partial<Record<keyof PublicMessageText, unknown>> | undefined;
  if (!text || typeof text !== 'object' || typeof text.en !== 'string' || typeof m.at !== 'string') return;
  const kept: PublicMessageText = { en: text.en };
  if (typeof text.es === 'string') kept.es = text.es;
  if (typeof text.pt === 'string') kept.pt = text.pt;
  socketStore.publicMessage = { text: kept, at: m.at };
}
onSocketEvent('publicMessage', applyPublicMessage);

export function dismissPublicMessage(): void {
  socketStore.publicMessage = null;
}

/** Staff: announces `text` to everyone connected now (languages left empty are not sent); answers how many connections it reached. */
export async function sendPublicMessage(text: { en: string; es: string; pt: string }): Promise<number> {
  const body: PublicMessageText = { en: text.en };
  if (text.es.trim()) body.es = text.es;
  if (text.pt.trim()) body.pt = text.pt;
  return (await postPublicMessage(body)).sent;
}

/** A review decides many ads at once, one event each: one reading of the ads follows the burst. */
export const ADS_REFRESH_DELAY_MS = 200;
let adsRefresh: ReturnType<typeof setTimeout> | null = null;

/**
 * One of the user's ads changed status (paid, approved, rejected, expired): the data areas that
 * show the user's ads are read again, those already loaded only (one not yet opened loads when it
 * is). Imported when needed: those stores import the wallets store, which imports this one.
 */
async function refreshAdAreas(): Promise<void> {
  const [{ myAdsStore }, { cartStore }, { myDashboardStore }, { walletsStore }, { transactionsStore, loadTransactions }] = await Promise.all([
    import('./ads'),
    import('./cart'),
    import('./myDashboard'),
    import('./wallets'),
    import('./payments'),
  ]);
  // A decision can move money too (a rejection refunds the price): the wallets and their history as well.
  await Promise.all([
    ...[myAdsStore, cartStore, myDashboardStore, walletsStore].filter((s) => s.state.data !== null).map((s) => s.load()),
    ...(transactionsStore.state.data !== null ? [loadTransactions()] : []),
  ]);
}

function refreshAdAreasSoon(): void {
  adsRefresh ??= setTimeout(() => {
    adsRefresh = null;
    void refreshAdAreas();
  }, ADS_REFRESH_DELAY_MS);
}

onSocketEvent('adStatusUpdate', refreshAdAreasSoon);

// A master approved the account (its ads show, held paid terms start) or set it back to pending:
// the session (role, status) and the ads' areas are read again, without a reload.
onSocketEvent('accountStatusUpdate', () => {
  void loadSession();
  refreshAdAreasSoon();
});

/**
 * Browsers answer the server's pings themselves and never tell the page, and a connection that
 * died without a close (a laptop waking up, a changed network) looks open for minutes, while
 * events sent to it are lost. So the client checks for itself: it sends `clientMessage` and the
 * server echoes it as `privateMessage`; without the echo in PROBE_TIMEOUT_MS the socket is given
 * up and another opened. It checks every PROBE_INTERVAL_MS while the page is visible, and at once
 * when the page is shown again or the network comes back.
 */
export const PROBE_INTERVAL_MS = 60_000;
export const PROBE_TIMEOUT_MS = 10_000;
let probe: { text: string; timer: ReturnType<typeof setTimeout> } | null = null;
let probeCount = 0;
let probeLoop: ReturnType<typeof setInterval> | null = null;

function checkConnection(): void {
  const sock = ws;
  if (!sock || sock.readyState !== WS_OPEN || probe || document.visibilityState === 'hidden') return;
  const text = `probe:${++probeCount}`;
  sock.send(encodeSocketMessage('clientMessage', { text }));
  const timer = setTimeout(() => {
    probe = null;
    if (ws === sock) giveUp(sock);
  }, PROBE_TIMEOUT_MS);
  probe = { text, timer };
}

onSocketEvent('privateMessage', ({ text }) => {
  if (!probe || text !== probe.text) return;
  clearTimeout(probe.timer);
  probe = null;
});

const onPageShown = () => {
  if (document.visibilityState === 'visible') checkConnection();
};
const onOnline = () => checkConnection();

function startProbing(): void {
  stopProbing();
  probeLoop = setInterval(checkConnection, PROBE_INTERVAL_MS);
  document.addEventListener('visibilitychange', onPageShown);
  window.addEventListener('online', onOnline);
}

function stopProbing(): void {
  if (probeLoop) clearInterval(probeLoop);
  probeLoop = null;
  if (probe) clearTimeout(probe.timer);
  probe = null;
  document.removeEventListener('visibilitychange', onPageShown);
  window.removeEventListener('online', onOnline);
}

/** No echo: the link is dead. Dropped now (a close handshake would wait on it) and replaced. */
function giveUp(sock: WebSocket): void {
  sock.onopen = sock.onmessage = sock.onclose = null;
  sock.close(4000, 'no answer');
  ws = null;
  lost = true;
  socketStore.connected = false;
  stopProbing();
  scheduleReconnect();
}

function dispatch(raw: unknown): void {
  const msg = parseSocketMessage(raw);
  if (!msg) return;
  for (const h of [...(handlers.get(msg.event) ?? [])]) {
    try {
      h(msg.data);
    } catch (e) {
      console.error(e); // one broken listener must not starve the others
    }
  }
}

let ws: WebSocket | null = null;
let wsUser: string | null = null;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let attempts = 0;
/** The connection was lost (not closed here): the next one opened is a reconnect. */
let lost = false;
let users = 0; // how many mounted components want the socket
let stopWatchingSession: (() => void) | null = null;

function currentUser(): string | null {
  const s = sessionStore.session;
  return s.isAuthenticated ? (s.id ?? '') : null;
}

/** Brings the connection in line with the session: open while signed in, closed otherwise. */
function sync(): void {
  const who = users > 0 ? currentUser() : null;
  if (who === null) return disconnect();
  if (ws && wsUser === who) return;
  if (ws || (retryTimer && wsUser !== who)) disconnect();
  if (retryTimer) return; // a reconnect for this user is already scheduled
  connect(who);
}

function connect(who: string): void {
  const sock = openSocket();
  ws = sock;
  wsUser = who;
  sock.onopen = () => {
    if (ws !== sock) return;
    attempts = 0;
    socketStore.connected = true;
    startProbing();
    // Back after a loss: whoever signed in or out meanwhile (another tab, another device) is known
    // only from the session (the socket opened with whatever cookie the browser now holds).
    if (lost) void loadSession();
    lost = false;
  };
  sock.onmessage = (e: MessageEvent) => {
    if (ws === sock) dispatch(e.data);
  };
  sock.onclose = (e: CloseEvent) => {
    if (ws !== sock) return;
    ws = null;
    lost = true;
    socketStore.connected = false;
    stopProbing();
    if (SESSION_ENDED_CODES.has(e.code)) void loadSession(); // signed out elsewhere or suspended
    if (e.code === CLOSE_REPLACED) return reconnectWhenSeen();
    scheduleReconnect();
  };
}

function reconnectWhenSeen(): void {
  const again = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', again);
    window.removeEventListener('focus', again);
    sync();
  };
  document.addEventListener('visibilitychange', again);
  window.addEventListener('focus', again);
}

function scheduleReconnect(): void {
  if (users === 0 || currentUser() === null || retryTimer) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    sync();
  }, reconnectDelay(attempts++));
}

/**
 * The network is back (the browser's `online`): a reconnect waiting out its backoff (up to 30 s
 * after a long outage) is tried now, so live updates resume as soon as they can.
 */
function onNetworkBack(): void {
  if (!retryTimer) return;
  clearTimeout(retryTimer);
  retryTimer = null;
  attempts = 0;
  sync();
}

function disconnect(): void {
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  attempts = 0;
  lost = false;
  const sock = ws;
  ws = null;
  wsUser = null;
  socketStore.connected = false;
  stopProbing();
  if (!sock) return;
  sock.onopen = sock.onmessage = sock.onclose = null;
  if (sock.readyState === WS_OPEN) sock.send(encodeSocketMessage('clientDisconnect'));
  if (sock.readyState === WS_OPEN || sock.readyState === WS_CONNECTING) sock.close(1000, 'client disconnect');
}

/** Sends a client event (contract/events.ts) with its payload; false when there is no open connection. */
export function sendSocketMessage<E extends ClientEvent>(event: E, ...args: ClientEventArgs<E>): boolean {
  if (!ws || ws.readyState !== WS_OPEN) return false;
  ws.send(encodeSocketMessage(event, ...args));
  return true;
}

/** Starts following the session (connect when signed in); returns the matching stop. */
export function startSocket(): () => void {
  users++;
  if (users === 1) {
    stopWatchingSession = subscribe(sessionStore, sync);
    window.addEventListener('online', onNetworkBack);
  }
  sync();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    users--;
    if (users > 0) return;
    stopWatchingSession?.();
    stopWatchingSession = null;
    window.removeEventListener('online', onNetworkBack);
    disconnect();
  };
}

/** Keeps the socket running while the calling component is mounted (the dashboard layout). */
export function useSocket(): void {
  useEffect(() => startSocket(), []);
}

// Logout (and login, which starts clean) resets every area: close this user's connection and
// forget their invoice and the announcement shown. If a session is still there afterwards, the
// next sync reconnects.
onReset(() => {
  disconnect();
  if (adsRefresh) clearTimeout(adsRefresh);
  adsRefresh = null;
  socketStore.invoiceUpdate = null;
  socketStore.currentInvoiceId = null;
  socketStore.publicMessage = null;
  queueMicrotask(sync);
});
