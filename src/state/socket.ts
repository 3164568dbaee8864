import { useEffect } from 'react';
import { proxy, subscribe } from 'valtio';
import { onReset } from './resource';
import { loadSession, sessionStore } from './session';
import { WS_CONNECTING, WS_OPEN, encodeSocketMessage, openSocket, parseSocketMessage, type ClientEvent } from '../api/socket';

export interface InvoiceStatusUpdate {
  type: string;
  invoiceId: string;
  status?: string;
}

/** The seed's socket data area: the connection flag and the invoice update the wallet shows. */
export const socketStore = proxy({
  connected: false,
  invoiceUpdate: null as InvoiceStatusUpdate | null,
  /** The invoice the wallet screen is waiting on (set by it); updates for it are kept. */
  currentInvoiceId: null as string | null,
});

export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;
/** Close codes the server uses when the session is over: re-read the session before retrying. */
const SESSION_ENDED_CODES = new Set([4001, 4401, 4403]);
/**
 * The server keeps 10 sockets per user and closes the oldest for an 11th. That tab must not
 * reconnect at once (it would push out the next one, round and round): it waits until it is
 * looked at again.
 */
export const CLOSE_REPLACED = 4008;

export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** attempt);
}

type Handler = (data: unknown) => void;
const handlers = new Map<string, Set<Handler>>();

/** Listens to one server event; returns the function that stops listening. */
export function onSocketEvent<T = unknown>(event: string, handler: (data: T) => void): () => void {
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

export function setCurrentInvoice(invoiceId: string | null): void {
  socketStore.currentInvoiceId = invoiceId;
}

/**
 * Seed §4: keep an update when it announces a new invoice or concerns the one being watched;
 * reload the wallets once money is seen (received or settled), whichever invoice it is.
 */
export function applyInvoiceUpdate(raw: unknown): void {
  const u = raw as Partial<InvoiceStatusUpdate> | null;
  if (!u || typeof u.type !== 'string') return;
  const type = u.type.toUpperCase();
  const invoiceId = typeof u.invoiceId === 'string' ? u.invoiceId : '';
  if (type === 'INVOICECREATED' || (invoiceId && invoiceId === socketStore.currentInvoiceId)) {
    socketStore.invoiceUpdate = { type, invoiceId, ...(typeof u.status === 'string' ? { status: u.status } : {}) };
  }
  if (type === 'INVOICERECEIVEDPAYMENT' || type === 'INVOICESETTLED') reloadWallets?.();
}

function dispatch(raw: unknown): void {
  const msg = parseSocketMessage(raw);
  if (!msg) return;
  if (msg.event === 'invoiceStatusUpdate') applyInvoiceUpdate(msg.data);
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
  };
  sock.onmessage = (e: MessageEvent) => {
    if (ws === sock) dispatch(e.data);
  };
  sock.onclose = (e: CloseEvent) => {
    if (ws !== sock) return;
    ws = null;
    socketStore.connected = false;
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

function disconnect(): void {
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  attempts = 0;
  const sock = ws;
  ws = null;
  wsUser = null;
  socketStore.connected = false;
  if (!sock) return;
  sock.onopen = sock.onmessage = sock.onclose = null;
  if (sock.readyState === WS_OPEN) sock.send(encodeSocketMessage('clientDisconnect'));
  if (sock.readyState === WS_OPEN || sock.readyState === WS_CONNECTING) sock.close(1000, 'client disconnect');
}

/** Sends a client event; false when there is no open connection. */
export function sendSocketMessage(event: ClientEvent, data: unknown = null): boolean {
  if (!ws || ws.readyState !== WS_OPEN) return false;
  ws.send(encodeSocketMessage(event, data));
  return true;
}

/** Starts following the session (connect when signed in); returns the matching stop. */
export function startSocket(): () => void {
  users++;
  if (users === 1) stopWatchingSession = subscribe(sessionStore, sync);
  sync();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    users--;
    if (users > 0) return;
    stopWatchingSession?.();
    stopWatchingSession = null;
    disconnect();
  };
}

/** Keeps the socket running while the calling component is mounted (the dashboard layout). */
export function useSocket(): void {
  useEffect(() => startSocket(), []);
}

// Logout (and login, which starts clean) resets every area: close this user's connection and
// forget their invoice. If a session is still there afterwards, the next sync reconnects.
onReset(() => {
  disconnect();
  socketStore.invoiceUpdate = null;
  socketStore.currentInvoiceId = null;
  queueMicrotask(sync);
});
