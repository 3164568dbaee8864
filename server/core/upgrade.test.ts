import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../test/harness.ts';
import { connector } from '../modules/realtime/realtime.testkit.ts';

// Requests that ask to switch protocols (`Upgrade:`). Only GET /api/ws is ever upgraded; any other
// such request is plain HTTP, answered and then kept or closed like any other, so an anonymous
// client cannot leave sockets behind that nothing times out or closes.

let ctx: TestContext;
let base: string;
const sockets = connector(() => base);
const raws: net.Socket[] = [];

beforeEach(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
});
afterEach(async () => {
  sockets.closeAll();
  for (const r of raws.splice(0)) r.destroy();
  await ctx.close();
});

/** How many TCP connections the server holds. */
const connections = () => new Promise<number>((resolve, reject) => ctx.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

/**
 * Sends one raw request on a fresh TCP connection and reads the answer's head, then hangs up (FIN).
 * Resolves with the status line and how many connections the server still held `ms` later, or
 * with 'no answer' if none came within 2 s.
 */
function ask(request: string, ms = 300): Promise<{ status: string; held: number }> {
  return new Promise((resolve) => {
    const s = net.connect(Number(new URL(base).port), '127.0.0.1');
    raws.push(s);
    let data = '';
    const silent = setTimeout(() => resolve({ status: 'no answer', held: -1 }), 2000);
    s.on('error', () => {});
    s.on('connect', () => s.write(request));
    s.on('data', (d) => {
      data += d.toString();
      if (!data.includes('\r\n\r\n') || s.writableEnded) return;
      clearTimeout(silent);
      s.end(); // the client is done and hangs up
      setTimeout(() => void connections().then((held) => resolve({ status: data.split('\r\n')[0], held })), ms);
    });
  });
}

const host = () => new URL(base).host;
const websocketGet = (path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${base}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
  `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;

describe('requests that ask for an upgrade', () => {
  it('answers an Upgrade request to any other route as plain HTTP and holds no connection once the client hangs up', async () => {
    const session = await ask(websocketGet('/api/session'));
    const missing = await ask(websocketGet('/no-such-page'));
    const refusedSocket = await ask(websocketGet('/api/ws')); // a guest's handshake: refused before upgrading
    expect({ session, missing, refusedSocket }).toEqual({
      session: { status: 'HTTP/1.1 200 OK', held: 0 },
      missing: { status: 'HTTP/1.1 404 Not Found', held: 0 },
      refusedSocket: { status: 'HTTP/1.1 401 Unauthorized', held: 0 },
    });
  });

  it('reads the body of a POST that carries an Upgrade header, and answers it', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the password 1' });
    const res = await ask(
      `POST /api/login HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${base}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    expect(res).toEqual({ status: 'HTTP/1.1 401 Unauthorized', held: 0 });
  });

  it('ignores an upgrade to another protocol (h2c) and answers in HTTP/1.1', async () => {
    const res = await ask(
      `GET /api/session HTTP/1.1\r\nHost: ${host()}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n`,
    );
    expect(res).toEqual({ status: 'HTTP/1.1 200 OK', held: 0 });
  });

  it('still upgrades GET /api/ws for a signed-in user', async () => {
    const u = await makeUser(ctx);
    const c = await sockets.connect({ cookie: u.cookie });
    expect(c.ws.readyState).toBe(c.ws.OPEN);
  });
});
