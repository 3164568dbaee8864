import { expect } from 'vitest';
import WebSocket from 'ws';

// Real WebSocket clients against a listening test app (shared by the realtime test files).

export interface Conn {
  ws: WebSocket;
  messages: { event: string; data: unknown }[];
  next(): Promise<{ event: string; data: unknown }>;
  closed: Promise<{ code: number; reason: string }>;
}

export interface Connector {
  /** Opens a socket; resolves once the handshake succeeded, rejects with the HTTP status (and body) otherwise. */
  connect: (opts?: { cookie?: string; origin?: string | null; autoPong?: boolean }) => Promise<Conn>;
  /** Terminates every socket this connector opened. */
  closeAll: () => void;
}

/** `base()` is read on each connect, so a test may restart its app on another port. */
export function connector(base: () => string): Connector {
  const open: WebSocket[] = [];
  return {
    connect(opts = {}) {
      const url = base();
      const headers: Record<string, string> = {};
      if (opts.cookie) headers.cookie = opts.cookie;
      const origin = opts.origin === undefined ? url : opts.origin;
      if (origin !== null) headers.origin = origin;
      const ws = new WebSocket(`${url.replace('http', 'ws')}/api/ws`, { headers, autoPong: opts.autoPong ?? true });
      open.push(ws);
      const messages: Conn['messages'] = [];
      const waiters: ((m: Conn['messages'][number]) => void)[] = [];
      ws.on('message', (raw) => {
        const m = JSON.parse((raw as Buffer).toString()); // a text frame: one Buffer (binaryType 'nodebuffer')
        const w = waiters.shift();
        if (w) w(m);
        else messages.push(m);
      });
      const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
      return new Promise((resolve, reject) => {
        ws.on('open', () =>
          resolve({ ws, messages, closed, next: () => (messages.length ? Promise.resolve(messages.shift()!) : new Promise((r) => waiters.push(r))) }),
        );
        ws.on('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body })));
          res.on('close', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body })));
        });
        ws.on('error', reject);
      });
    },
    closeAll() {
      for (const s of open.splice(0)) s.terminate();
    },
  };
}

/** 101 when the handshake succeeded, else the HTTP status it was refused with. */
export const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => 101,
    (e: { status?: number }) => e.status ?? -1,
  );

/**
 * Waits for `cond`, polling every 5 ms, for up to 5 s of wall time: a loaded machine (CI running
 * test files side by side) delays timers and socket events far past the polls' own sum.
 */
export async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

/** The close a socket saw within `ms`, or null if it is still open (a clean failure instead of a test timeout). */
export function closedWithin(c: Conn, ms = 1000): Promise<{ code: number; reason: string } | null> {
  return Promise.race([c.closed, new Promise<null>((r) => setTimeout(() => r(null), ms))]);
}
