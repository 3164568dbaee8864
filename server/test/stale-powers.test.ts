import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext } from './harness.ts';
import { fundedUsd, liveAd, pay, placeIn, postAd } from '../modules/ads/ads.testkit.ts';

// A staff member demoted (or suspended) by a master while a request of theirs is already under
// way: the request passed the session check with the old roles, but acts with what is true when
// it writes (core/auth.ts currentActor), so nothing it asked for happens.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(() => ctx.close());

const post = (url: string, cookie: string, payload: object) => ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload });

describe('staff powers taken away while a request is under way', () => {
  it('an approval, a price change and a legal hold by an admin demoted meanwhile are refused and change nothing', async () => {
    const master = await asMaster(ctx);
    const admin = await asAdmin(ctx);
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await postAd(ctx, owner, await placeIn(ctx, 'ny'));
    expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
    const price = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-all-pricing', headers: { cookie: admin.cookie } })).json().pricing[0] as {
      id: string;
      priceCents: number;
    };
    const demote = () => post('/api/master/update-user-roles', master.cookie, { userId: admin.id, roles: [] });
    const actions = [
      () => post('/api/admin/approve-pending-ads', admin.cookie, { adIds: [ad.id], decision: 'approve' }),
      () => post('/api/admin/set-price-by-id', admin.cookie, { id: price.id, priceCents: price.priceCents + 100 }),
      () => post('/api/admin/place-legal-hold', admin.cookie, { targetType: 'user', targetId: owner.id, reason: 'Preservation request 2026-040' }),
    ];
    for (const act of actions) {
      const [demoted, res] = await Promise.all([demote(), act()]);
      expect(demoted.statusCode).toBe(200);
      expect(res.statusCode, res.body).toBe(403);
      await ctx.app.inject({
        method: 'POST',
        url: '/api/master/update-user-roles',
        headers: { cookie: master.cookie },
        payload: { userId: admin.id, roles: ['ADMIN_USER'] },
      });
    }
    const db = ctx.app.deps.db;
    expect((await db.selectFrom('ads').select('status').where('id', '=', ad.id).executeTakeFirstOrThrow()).status).toBe('in_review');
    expect((await db.selectFrom('pricing').select('price_cents').where('id', '=', price.id).executeTakeFirstOrThrow()).price_cents).toBe(price.priceCents);
    expect(await db.selectFrom('legal_holds').select('id').execute()).toEqual([]);
    expect((await db.selectFrom('audit_log').select('action').where('actor_id', '=', admin.id).execute()).map((r) => r.action)).toEqual([]);
  });

  // An evidence export is audited and hands out an account's whole record (who reported them
  // included): it is read, and its handing out logged, as the actor is then, so an admin demoted
  // while it runs receives no file and no export is logged in their name.
  it('an evidence export by an admin demoted meanwhile is refused, hands out nothing and logs nothing', async () => {
    const master = await asMaster(ctx);
    const admin = await asAdmin(ctx);
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAd(ctx, owner, master, await placeIn(ctx, 'ny'));
    const demote = () => post('/api/master/update-user-roles', master.cookie, { userId: admin.id, roles: [] });
    const exportIt = () => ctx.app.inject({ method: 'GET', url: `/api/admin/export-evidence/${ad.id}`, headers: { cookie: admin.cookie } });
    const [demoted, res] = await Promise.all([demote(), exportIt()]);
    expect(demoted.statusCode).toBe(200);
    const db = ctx.app.deps.db;
    // The demotion committed first: nothing but an export could be logged after it.
    const order = (await db.selectFrom('audit_log').select('action').orderBy('id').execute()).map((a) => a.action);
    expect(order.indexOf('user.roles')).toBeGreaterThanOrEqual(0);
    expect(order.slice(order.indexOf('user.roles') + 1).every((a) => a === 'evidence.export')).toBe(true);
    const audit = await db.selectFrom('audit_log').select('action').where('actor_id', '=', admin.id).execute();
    expect({ status: res.statusCode, type: res.headers['content-type'], audit: audit.map((a) => a.action) }).toEqual({
      status: 403,
      type: expect.stringContaining('json'),
      audit: [],
    });
  });
});
