import { useEffect } from 'react';
import { subscribe } from 'valtio';
import { onReset } from './resource';
import { loadSession, sessionStore } from './session';
import { WS_CONNECTING, WS_OPEN, encodeSocketMessage, openSocket, type ClientEvent, type ClientEventArgs } from '../api/socket';
import { cancelAdsRefresh, dispatch, onSocketEvent, socketStore } from './socket.events';

// The client's WebSocket: one connection while signed in, its reconnect policy, the check that it
// is still alive, and the reset on logout. The events it carries are handled in socket.events.ts;
// the app imports both from here.
export {
  ADS_REFRESH_DELAY_MS,
  dismissPublicMessage,
  onSocketEvent,
  sendPublicMessage,
  setCurrentInvoice,
  setInvoiceRefresher,
  setWalletReloader,
  socketStore,
  type InvoiceStatusUpdate,
} from './socket.events';

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

// Stays in this file: realtime.events.test.ts lets only socket.ts (among the client's stores)
// forward a non-literal `event` to encodeSocketMessage.
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
  cancelAdsRefresh();
  socketStore.invoiceUpdate = null;
  socketStore.currentInvoiceId = null;
  socketStore.publicMessage = null;
  queueMicrotask(sync);
});
