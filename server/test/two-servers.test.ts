import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext } from './harness.ts';
import { openFileApp, type FileApp } from './ledger-property/file-app.ts';
import { fundedUsd, placeIn, postAd } from '../modules/ads/ads.testkit.ts';
import { closedWithin, connector } from '../modules/realtime/realtime.testkit.ts';
import { recheckSockets } from '../modules/realtime/realtime.socket.ts';
import { asMaster } from './harness.ts';

// Two servers on one database file (STYLE: a second process is a supported case): what one keeps
// in memory must follow what the other commits. The other server here is a second app with its
// own connections to the file, as a second process has.

let ctx: TestContext;
let other: FileApp;
beforeEach(async () => {
  ctx = await createTestApp();
  other = await openFileApp(path.join(ctx.dataDir, 'xg.sqlite'), ctx.dataDir);
});
afterEach(async () => {
  await other.close();
  await ctx.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Longer than the caches' recheck of other processes' writes (one second). */
const RECHECK = 1200;

describe('two servers on one file', () => {
  it('a price changed on one is shown by the other, which takes payments at the price it shows', async () => {
    const admin = await asAdmin(ctx);
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await postAd(ctx, owner, await placeIn(ctx, 'ny'));
    const walletId = await fundedUsd(ctx, owner, 5000);
    const shown = async () =>
      ((await other.app.inject({ url: '/api/get-ad-pricing' })).json().pricing as { id: string; listingType: string; priceCents: number }[]).find(
        (p) => p.listingType === 'female_esc',
      )!;
    const before = await shown();
    const set = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-price-by-id',
      headers: { cookie: admin.cookie },
      payload: { id: before.id, priceCents: before.priceCents + 500 },
    });
    expect(set.statusCode).toBe(200);
    await sleep(RECHECK);
    const now = await shown();
    expect(now.priceCents).toBe(before.priceCents + 500);
    // As the client pays: naming the price the page shows.
    const paid = await other.app.inject({
      method: 'PUT',
      url: `/api/ad-payment-in-cart/${ad.id}`,
      headers: { cookie: owner.cookie, 'sec-fetch-site': 'same-origin' },
      payload: { walletId, priceCents: now.priceCents },
    });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('a state disabled on one is no longer listed by the other; enabled again, it is listed again', async () => {
    const admin = await asAdmin(ctx);
    const listed = async () => ((await other.app.inject({ url: '/api/states-from-country' })).json().states as { id: string }[]).some((s) => s.id === 'ny');
    const setState = (enabled: boolean) =>
      ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-state-cities', headers: { cookie: admin.cookie }, payload: { stateId: 'ny', enabled } });
    expect(await listed()).toBe(true);
    expect((await other.app.inject({ url: '/api/cities-from-state/ny' })).statusCode).toBe(200);
    expect((await setState(false)).statusCode).toBe(200);
    await sleep(RECHECK);
    expect(await listed()).toBe(false);
    expect((await other.app.inject({ url: '/api/cities-from-state/ny' })).statusCode).toBe(404);
    expect((await setState(true)).statusCode).toBe(200);
    await sleep(RECHECK);
    expect(await listed()).toBe(true);
  });

  it("a user suspended or signed out on one loses the sockets held on the other at its next check (every 30 s), the others' stay", async () => {
    const master = await asMaster(ctx);
    const [ann, bob, cy] = [
      await makeUser(ctx, { status: 'approved' }),
      await makeUser(ctx, { status: 'approved' }),
      await makeUser(ctx, { status: 'approved' }),
    ];
    const base = await other.app.listen({ host: '127.0.0.1', port: 0 });
    const sockets = connector(() => base);
    try {
      const [annWs, bobWs, cyWs] = await Promise.all([ann, bob, cy].map((u) => sockets.connect({ cookie: u.cookie })));
      expect(await recheckSockets(other.app.deps)).toBe(0);
      const suspend = await ctx.app.inject({
        method: 'POST',
        url: '/api/master/update-user-status',
        headers: { cookie: master.cookie },
        payload: { userId: ann.id, status: 'suspended' },
      });
      expect(suspend.statusCode).toBe(200);
      expect((await ctx.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: bob.cookie } })).statusCode).toBe(200); // every session of bob's ends
      expect(await closedWithin(annWs, 200)).toBeNull(); // the other server has not looked yet
      expect(await recheckSockets(other.app.deps)).toBe(2);
      expect(await closedWithin(annWs)).toMatchObject({ code: 4003 });
      expect(await closedWithin(bobWs)).toMatchObject({ code: 4001 });
      expect(await closedWithin(cyWs, 200)).toBeNull();
    } finally {
      sockets.closeAll();
    }
  });
});
