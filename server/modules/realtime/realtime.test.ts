import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { isSameOrigin } from './realtime.origin.ts';
import { HEARTBEAT_MS } from './realtime.socket.ts';
import { closedWithin, connector, statusOf, until } from './realtime.testkit.ts';

let ctx: TestContext;
let base: string; // http://127.0.0.1:<port>
const sockets = connector(() => base);
const connect = sockets.connect;

beforeEach(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
});
afterEach(async () => {
  sockets.closeAll();
  await ctx.close();
  vi.useRealTimers();
});

describe('handshake', () => {
  it('refuses a guest with 401 before upgrading', async () => {
    expect(await statusOf(connect())).toBe(401);
    expect(ctx.app.deps.hub.connectionCount).toBe(0);
  });

  it('refuses a foreign or missing Origin with 403, even with a session', async () => {
    const u = await makeUser(ctx);
    expect(await statusOf(connect({ cookie: u.cookie, origin: 'https://evil.example' }))).toBe(403);
    expect(await statusOf(connect({ cookie: u.cookie, origin: null }))).toBe(403);
    expect(await statusOf(connect({ cookie: u.cookie, origin: 'null' }))).toBe(403);
    const refused = await connect({ cookie: u.cookie, origin: 'https://evil.example' }).then(
      () => null,
      (e: { body: string }) => JSON.parse(e.body),
    );
    expect(refused).toEqual({ code: 'realtime.foreign_origin', message: 'This connection must come from the site itself.' });
    expect(await statusOf(connect({ cookie: u.cookie, origin: 'http://localhost:3000' }))).toBe(101); // PUBLIC_URL's origin
    await until(() => ctx.app.deps.hub.connectionCount === 1);
  });

  it('refuses a stale session (after logout) with 401', async () => {
    const u = await makeUser(ctx);
    await ctx.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie: u.cookie } });
    expect(await statusOf(connect({ cookie: u.cookie }))).toBe(401);
  });

  it('answers a plain GET with 426', async () => {
    const u = await makeUser(ctx);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/ws', headers: { cookie: u.cookie, origin: 'http://localhost:3000' } });
    expect(res.statusCode).toBe(426);
    expect(res.headers.upgrade).toBe('websocket');
    expect(res.json()).toEqual({ code: 'realtime.websocket_required', message: 'Open this address as a WebSocket.' });
  });
});

describe('events', () => {
  let ann: TestUser;
  let bob: TestUser;
  beforeEach(async () => {
    ann = await makeUser(ctx);
    bob = await makeUser(ctx);
  });

  it("delivers hub.sendToUser to every socket of that user and no one else's", async () => {
    const a1 = await connect({ cookie: ann.cookie });
    const a2 = await connect({ cookie: ann.cookie });
    const b = await connect({ cookie: bob.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 3);
    const data = { type: 'INVOICESETTLED', invoiceId: 'inv1', status: 'Settled' };
    expect(ctx.app.deps.hub.sendToUser(ann.id, 'invoiceStatusUpdate', data)).toBe(2);
    expect(await a1.next()).toEqual({ event: 'invoiceStatusUpdate', data });
    expect(await a2.next()).toEqual({ event: 'invoiceStatusUpdate', data });
    ctx.app.deps.hub.sendToUser(bob.id, 'privateMessage', { text: 'for bob' });
    expect(await b.next()).toEqual({ event: 'privateMessage', data: { text: 'for bob' } });
    expect(b.messages).toEqual([]);
  });

  it('broadcasts to everyone', async () => {
    const a = await connect({ cookie: ann.cookie });
    const b = await connect({ cookie: bob.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 2);
    // Staff announcements broadcast publicMessage (realtime.announce.test.ts); any event of contract/events.ts may be.
    const data = { adId: 'ad1', status: 'expired' } as const;
    expect(ctx.app.deps.hub.broadcast('adStatusUpdate', data)).toBe(2);
    expect(await a.next()).toEqual({ event: 'adStatusUpdate', data });
    expect(await b.next()).toEqual({ event: 'adStatusUpdate', data });
  });

  it('echoes clientMessage to the sender only, and ignores junk', async () => {
    const a = await connect({ cookie: ann.cookie });
    const b = await connect({ cookie: bob.cookie });
    const junk = [
      'not json',
      '42',
      'null',
      '{"event":"nope","data":{}}',
      '{"event":"clientMessage","data":{"text":7}}',
      '{"event":"clientMessage"}',
      '{"event":"toString","data":null}',
      '{"event":"clientDisconnect","data":{"now":true}}',
      JSON.stringify({ event: 'clientMessage', data: { text: 'x'.repeat(1001) } }),
    ];
    for (const j of junk) a.ws.send(j);
    a.ws.send(JSON.stringify({ event: 'clientMessage', data: { text: 'ping?' } }));
    expect(await a.next()).toEqual({ event: 'privateMessage', data: { text: 'ping?' } });
    expect(a.messages).toEqual([]);
    expect(b.messages).toEqual([]);
    expect(a.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('closes the socket on clientDisconnect and forgets it', async () => {
    const a = await connect({ cookie: ann.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 1);
    a.ws.send(JSON.stringify({ event: 'clientDisconnect', data: null }));
    expect((await a.closed).code).toBe(1000);
    await until(() => ctx.app.deps.hub.connectionCount === 0);
  });

  it('closes every socket of a user who logs out, and only theirs', async () => {
    const a = await connect({ cookie: ann.cookie });
    const b = await connect({ cookie: bob.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 2);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie: ann.cookie } });
    expect(res.statusCode).toBe(200);
    expect((await a.closed).code).toBe(4001);
    await until(() => ctx.app.deps.hub.connectionCount === 1);
    expect(b.ws.readyState).toBe(WebSocket.OPEN);
  });
});

describe('a session that ends during the handshake', () => {
  /** Runs `change` in the instant between the session check and the socket joining the hub. */
  function duringHandshake(change: () => void) {
    const hub = ctx.app.deps.hub;
    const add = hub.add.bind(hub);
    hub.add = (userId, socket) => {
      change();
      add(userId, socket);
    };
  }

  it('a sign-out, password change or deletion committed meanwhile closes the new socket (4001)', async () => {
    const ann = await makeUser(ctx);
    duringHandshake(() => ctx.app.deps.database.sqlite.prepare('UPDATE users SET token_version = token_version + 1 WHERE id = ?').run(ann.id));
    const a = await connect({ cookie: ann.cookie });
    expect((await a.closed).code).toBe(4001);
    await until(() => ctx.app.deps.hub.connectionCount === 0);
  });

  it('a suspension committed meanwhile closes it (4003)', async () => {
    const ann = await makeUser(ctx);
    duringHandshake(() => ctx.app.deps.database.sqlite.prepare("UPDATE users SET status = 'suspended' WHERE id = ?").run(ann.id));
    const a = await connect({ cookie: ann.cookie });
    expect((await a.closed).code).toBe(4003);
  });

  it('nothing changed: the socket stays open', async () => {
    const ann = await makeUser(ctx);
    duringHandshake(() => {});
    const a = await connect({ cookie: ann.cookie });
    expect(await closedWithin(a, 300)).toBeNull();
  });
});

describe('heartbeat', () => {
  it('terminates a socket that stops answering pings, keeps one that answers', async () => {
    await ctx.close();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }); // the network and everything else stay real
    ctx = await createTestApp();
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const ann = await makeUser(ctx);
    const live = await connect({ cookie: ann.cookie });
    const dead = await connect({ cookie: ann.cookie, autoPong: false });
    await until(() => ctx.app.deps.hub.connectionCount === 2);
    let pings = 0;
    live.ws.on('ping', () => pings++);
    dead.ws.on('ping', () => pings++);

    vi.advanceTimersByTime(HEARTBEAT_MS);
    await until(() => pings === 2);
    await new Promise((r) => setTimeout(r, 50)); // let the live client's pong arrive
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect((await dead.closed).code).toBe(1006);
    await until(() => ctx.app.deps.hub.connectionCount === 1);
    expect(live.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("takes only a pong echoing the server's ping as an answer: pongs a client sends of its own do not keep it", async () => {
    await ctx.close();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    ctx = await createTestApp();
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const ann = await makeUser(ctx);
    const live = await connect({ cookie: ann.cookie });
    const pretender = await connect({ cookie: ann.cookie, autoPong: false });
    await until(() => ctx.app.deps.hub.connectionCount === 2);
    let pings = 0;
    live.ws.on('ping', () => pings++);
    pretender.ws.on('ping', () => {
      pings++;
      pretender.ws.pong('alive'); // not the ping's payload, as a client that does not read would send
    });

    for (let round = 0; round < 2; round++) {
      pretender.ws.pong(); // unsolicited, before the ping
      vi.advanceTimersByTime(HEARTBEAT_MS);
      await until(() => pings === 2 * (round + 1) || pretender.ws.readyState !== WebSocket.OPEN);
      await new Promise((r) => setTimeout(r, 50)); // let the pongs arrive
    }
    expect((await closedWithin(pretender))?.code).toBe(1006);
    await until(() => ctx.app.deps.hub.connectionCount === 1);
    expect(live.ws.readyState).toBe(WebSocket.OPEN);
  });
});

describe('isSameOrigin', () => {
  const pub = 'https://xg.example.com';
  it.each([
    ['https://xg.example.com', 'internal:3000', true],
    ['http://127.0.0.1:5000', '127.0.0.1:5000', true],
    ['http://localhost', 'localhost:80', true],
    ['https://xg.example.com.evil.io', 'xg.example.com', false],
    ['http://xg.example.com', 'other', false],
    ['https://evil.example', 'xg.example.com', false],
    ['null', 'xg.example.com', false],
    ['file:///etc', 'xg.example.com', false],
    [undefined, 'xg.example.com', false],
  ])('%s to host %s → %s', (origin, host, ok) => {
    expect(isSameOrigin(origin, host, pub)).toBe(ok);
  });
});
