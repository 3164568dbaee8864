// A provider getting a paid ad back on the site: an expired ad in a place since disabled, an ad in
// review switched off and on, and a pending owner's renewed ad. The ledger must balance after each.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { expireAds } from './ads.expiry.ts';
import { ledgerDiscrepancies } from '../wallets/ledger.service.ts';
import { expiredAd, fundedUsd, liveAd, pay, placeIn, postAd, type Place } from './ads.testkit.ts';

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
let ny2: Place;
beforeEach(async () => {
  ctx = await createTestApp({ env: { SESSION_DAYS: '365' } });
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
  ny2 = await placeIn(ctx, 'ny', 1);
});
afterEach(async () => {
  expect(await ledgerDiscrepancies(ctx.app.deps.db)).toEqual([]);
  await ctx.close();
});

const put = (u: TestUser, url: string, payload: object) => ctx.app.inject({ method: 'PUT', url, headers: { cookie: u.cookie }, payload });

describe('a provider getting a paid ad back on the site', () => {
  // Renewing there is refused ("move it first"): so an expired ad may move (a rejected or disabled one may not).
  it('lets the owner of an expired ad in a since-disabled city move it to an open city and renew it', async () => {
    const ad = await expiredAd(ctx, owner, admin, ny);
    const wallet = await fundedUsd(ctx, owner, 1500);
    const disabled = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-status-state-cities',
      headers: { cookie: admin.cookie },
      payload: { stateId: 'ny', cityIds: [ny.cityId], enabled: false },
    });
    expect(disabled.statusCode).toBe(200);
    const renewHere = await put(owner, `/api/renew-ad/${ad.id}`, { walletId: wallet });
    expect(renewHere.json().code).toBe('ad.city_disabled');
    const moved = await put(owner, `/api/update-ad-location/${ad.id}`, { stateId: 'ny', cityId: ny2.cityId });
    const renewed = await put(owner, `/api/renew-ad/${ad.id}`, { walletId: wallet });
    expect({ move: [moved.statusCode, moved.json().code], renew: renewed.statusCode }).toEqual({ move: [200, undefined], renew: 200 });
  });

  // An approval is pinned to the ad's updatedAt as the reviewer saw it; online/offline changes
  // nothing staff review, so it leaves updatedAt (which also dates a rejection on the dashboard).
  it('an ad in review switched offline and online again is still approved as the reviewer saw it', async () => {
    const ad = await postAd(ctx, owner, ny);
    expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
    const queue = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } })).json();
    const shown = (queue.pendingAds as { id: string; updatedAt: string }[]).find((a) => a.id === ad.id)!;
    ctx.clock.advance(1000);
    expect((await put(owner, `/api/update-ad-online-status/${ad.id}`, { online: false })).statusCode).toBe(200);
    expect((await put(owner, `/api/update-ad-online-status/${ad.id}`, { online: true })).statusCode).toBe(200);
    const approve = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/approve-pending-ads',
      headers: { cookie: admin.cookie },
      payload: { adIds: [ad.id], decision: 'approve', seen: [{ id: shown.id, updatedAt: shown.updatedAt }] },
    });
    expect(approve.json()).toEqual({ updated: 1 });
  });

  // A pending owner's ads start their paid terms when the owner is approved (startHeldTerms): a
  // renewal of one that ran out while hidden adds its term to the last, not to now, or the days
  // between were given away (two 30-day terms came back as 90 days).
  it("a pending owner's ad that ran out while hidden and was renewed gets the two terms it paid for, not the gap between them too", async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const master = await asMaster(ctx);
    const ad = await liveAd(ctx, pending, admin, ny); // approved, 30 days, hidden (owner pending)
    ctx.clock.advance(60 * DAY_MS); // its term ran out 30 days ago, unseen
    await expireAds(ctx.app.deps);
    const wallet = await fundedUsd(ctx, pending, 1500);
    const renewed = await put(pending, `/api/renew-ad/${ad.id}`, { walletId: wallet });
    expect(renewed.statusCode, renewed.body).toBe(200); // the second paid term: 30 more days
    const approved = await ctx.app.inject({
      method: 'POST',
      url: '/api/master/update-user-status',
      headers: { cookie: master.cookie },
      payload: { userId: pending.id, status: 'approved' },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const row = await ctx.app.deps.db.selectFrom('ads').select(['published_at', 'expires_at']).where('id', '=', ad.id).executeTakeFirstOrThrow();
    const days = (Date.parse(row.expires_at!) - Date.parse(row.published_at!)) / DAY_MS;
    expect(days).toBe(60);
  });
});
