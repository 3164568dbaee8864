import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { recheckSockets } from './realtime.socket.ts';
import { closedWithin, connector, until } from './realtime.testkit.ts';

// A socket does not outlive the session cookie it opened with: the 30-second recheck closes it once
// the cookie has run out (every HTTP request with that cookie is a guest's by then).

let ctx: TestContext;
let base: string;
const sockets = connector(() => base);
beforeEach(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
});
afterEach(async () => {
  sockets.closeAll();
  await ctx.close();
});

const settled = (userId: string) =>
  ctx.app.deps.hub.sendToUser(userId, 'invoiceStatusUpdate', { type: 'INVOICESETTLED', invoiceId: 'inv1', status: 'Settled' });

describe('a socket whose session cookie has run out', () => {
  it('stays open until the cookie ends, then is closed (4001) and gets no more private events', async () => {
    const u = await makeUser(ctx);
    const conn = await sockets.connect({ cookie: u.cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 1);

    ctx.clock.advance(ctx.config.sessionDays * DAY_MS - 60_000); // a minute before the cookie's end
    expect(await recheckSockets(ctx.app.deps)).toBe(0);
    expect(settled(u.id)).toBe(1);

    ctx.clock.advance(2 * 60_000);
    const session = await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: u.cookie } });
    expect(session.json().isAuthenticated).toBe(false);
    expect(await recheckSockets(ctx.app.deps)).toBe(1);
    expect(settled(u.id)).toBe(0);
    expect(await closedWithin(conn, 1000)).toMatchObject({ code: 4001 });
  });

  it("closes only that socket: the same user's socket from a later sign-in stays", async () => {
    const u = await makeUser(ctx);
    const old = await sockets.connect({ cookie: u.cookie });
    ctx.clock.advance(ctx.config.sessionDays * DAY_MS - 60_000);
    const again = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password: u.password } });
    expect(again.statusCode).toBe(200);
    const cookie = String(again.headers['set-cookie']).split(';')[0];
    const fresh = await sockets.connect({ cookie });
    await until(() => ctx.app.deps.hub.connectionCount === 2);

    ctx.clock.advance(2 * 60_000);
    expect(await recheckSockets(ctx.app.deps)).toBe(1);
    expect(await closedWithin(old, 1000)).toMatchObject({ code: 4001 });
    expect(settled(u.id)).toBe(1);
    expect(await fresh.next()).toMatchObject({ event: 'invoiceStatusUpdate', data: { invoiceId: 'inv1' } });
    expect(fresh.ws.readyState).toBe(fresh.ws.OPEN);
  });
});
