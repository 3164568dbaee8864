import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asMaster, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { expireAds } from './ads.expiry.ts';
import { liveAd, ownerAdminNy, type Place } from './ads.testkit.ts';

// PRODUCT §2: no ad of a pending user is published until the user is approved. Staff may approve
// such an ad meanwhile; the days it was paid for start when it can first show.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ({ ctx, owner, admin, ny } = await ownerAdminNy({ env: { SESSION_DAYS: '365' } }));
});
afterEach(async () => ctx.close());

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe("a pending owner's approved ads", () => {
  it('get their whole paid term from the owner’s approval, at the top of their listing; one that ran out while hidden comes back', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const master = await asMaster(ctx);
    const early = await liveAd(ctx, pending, admin, ny, { title: 'Approved early, hidden long' });
    ctx.clock.advance(10 * DAY_MS);
    const late = await liveAd(ctx, pending, admin, ny, { title: 'Approved later, hidden less' });
    ctx.clock.advance(25 * DAY_MS); // the early one's 30 days ran out while it showed nowhere
    await expireAds(ctx.app.deps);
    const shown = await liveAd(ctx, owner, admin, ny, { title: 'Shown all along, bumped before' });
    ctx.clock.advance(DAY_MS);
    expect((await get(`/api/ads/${late.id}`)).statusCode).toBe(404); // hidden
    expect((await get(`/api/ads/${early.id}`)).statusCode).toBe(404); // past its nominal end, but held: it comes back, so not 410

    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/master/update-user-status',
      headers: { cookie: master.cookie },
      payload: { userId: pending.id, status: 'approved' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const now = ctx.clock.now();
    const inThirtyDays = new Date(now.getTime() + 30 * DAY_MS).toISOString();
    const staffView = (await get('/api/admin/get-approved-ads', admin.cookie)).json().approvedAds as { id: string }[];
    for (const ad of [early, late]) {
      expect(staffView.find((a) => a.id === ad.id)).toMatchObject({
        status: 'approved',
        publishedAt: now.toISOString(),
        bumpedAt: now.toISOString(),
        expiresAt: inThirtyDays,
      });
      expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(200);
    }
    const listed = (await get(`/api/listings?state=${ny.stateSlug}&city=${ny.citySlug}`)).json().ads.map((a: { id: string }) => a.id);
    expect(listed.indexOf(shown.id)).toBeGreaterThan(Math.max(listed.indexOf(early.id), listed.indexOf(late.id)));
    const audit = await ctx.app.deps.db.selectFrom('audit_log').select('after_json').where('action', '=', 'user.status').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after_json!)).toEqual({ status: 'approved', adTermsStarted: expect.arrayContaining([early.id, late.id]) });

    // 29 days on, both still show; a day later both ran out
    ctx.clock.advance(29 * DAY_MS);
    for (const ad of [early, late]) expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(200);
    ctx.clock.advance(DAY_MS);
    for (const ad of [early, late]) expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(410);
  });

  it('an owner approved from the start, or reinstated after a suspension, keeps the terms as they ran', async () => {
    const master = await asMaster(ctx);
    const ad = await liveAd(ctx, owner, admin, ny);
    const before = (await get('/api/admin/get-approved-ads', admin.cookie)).json().approvedAds[0];
    ctx.clock.advance(5 * DAY_MS);
    for (const status of ['suspended', 'approved']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/master/update-user-status',
        headers: { cookie: master.cookie },
        payload: { userId: owner.id, status },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const after = (await get('/api/admin/get-approved-ads', admin.cookie)).json().approvedAds[0];
    expect(after).toMatchObject({ id: ad.id, publishedAt: before.publishedAt, bumpedAt: before.bumpedAt, expiresAt: before.expiresAt });
  });
});
