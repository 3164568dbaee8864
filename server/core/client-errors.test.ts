import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/harness.ts';
import { ERRORS } from '../../contract/errors/index.ts';

// Requests Node's HTTP parser refuses never reach a route, yet their answer is an error like any
// other: `{message, code}` (PRODUCT §7: the client translates `code`) with the API's security
// headers, and the connection is closed after it.

let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await ctx.close();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Whether the server closed the connection after answering. */
  closed: boolean;
}

function parse(raw: string, closed: boolean): Answer {
  const end = raw.indexOf('\r\n\r\n');
  const [line, ...fields] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const f of fields) headers[f.slice(0, f.indexOf(':')).toLowerCase()] = f.slice(f.indexOf(':') + 1).trim();
  const text = Buffer.from(raw.slice(end + 4), 'latin1').toString('utf8');
  return { status: Number(line.split(' ')[1]), headers, body: text ? JSON.parse(text) : null, closed };
}

/** Writes `request` on a fresh connection (or lets `onOpen` act on it); resolves with the answer once the server closes, or after 5 s. */
function raw(request: string | null, onOpen?: (client: net.Socket) => void): Promise<Answer> {
  return new Promise((resolve) => {
    let out = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      sock.destroy();
      resolve(parse(out, closed));
    };
    const sock = net.connect(port, '127.0.0.1', () => {
      if (request !== null) sock.write(request);
      onOpen?.(sock);
    });
    sock.on('data', (d) => (out += d.toString('latin1')));
    sock.on('close', () => finish(true));
    sock.on('error', () => finish(true));
    setTimeout(() => finish(false), 5000).unref();
  });
}

const coded = (code: keyof typeof ERRORS) => ({ message: ERRORS[code], code });

describe('requests the HTTP parser refuses', () => {
  it('answers oversized headers (a browser with many cookies) with 431 request.headers_too_large, the API headers, and closes', async () => {
    const res = await raw(`GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res).toMatchObject({ status: 431, body: coded('request.headers_too_large'), closed: true });
    expect(res.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
      connection: 'close',
    });
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(res.body)));
  });

  it('answers an oversized URL with 431 request.headers_too_large', async () => {
    const res = await raw(`GET /api/listings?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(res).toMatchObject({ status: 431, body: coded('request.headers_too_large'), closed: true });
  });

  it('answers a malformed request line or header with 400 request.malformed', async () => {
    const line = await raw('GET /api/session HTTP/9.9 nonsense\r\nHost: 127.0.0.1\r\n\r\n');
    const header = await raw('GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n');
    expect({ line, header }).toMatchObject({
      line: { status: 400, body: coded('request.malformed'), closed: true },
      header: { status: 400, body: coded('request.malformed'), closed: true },
    });
    expect(line.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a request with both Transfer-Encoding and Content-Length (request smuggling) with 400 request.malformed', async () => {
    const res = await raw(
      'POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect(res).toMatchObject({ status: 400, body: coded('request.malformed'), closed: true });
  });

  it('answers a request that took too long to arrive with 408 request.timeout', async () => {
    // Node raises this from its periodic check (every 30 s by default); the check's own error is raised here at once.
    const server = new Promise<net.Socket>((resolve) => ctx.app.server.once('connection', resolve));
    const res = await raw('GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n', () => {
      void server.then((socket) =>
        ctx.app.server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket),
      );
    });
    expect(res).toMatchObject({ status: 408, body: coded('request.timeout'), closed: true });
  });
});
