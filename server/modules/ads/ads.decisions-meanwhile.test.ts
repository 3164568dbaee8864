import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { decide, fundedUsd, liveAd, pay, placeIn, postAd, type Place } from './ads.testkit.ts';

let ctx: TestContext;
let admin: TestUser;
let master: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp({ env: { SESSION_DAYS: '365' } });
  admin = await asAdmin(ctx);
  master = await asMaster(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const mailsTo = (u: TestUser) => ctx.mailer.sent.filter((m) => m.to === u.email);

// Decisions on an ad that changed meanwhile: set offline by its owner while in review, disabled by
// staff while its owner was pending.

describe('decisions on an ad that changed meanwhile', () => {
  // The approval e-mail is true of what visitors see: an ad its owner set offline while it waited
  // in review publishes nothing, so the owner is told it is approved but offline (it said "is now on
  // XG Marketplace", linking a page visitors get 404 from).
  it('approving an ad its owner set offline while it waited in review tells the owner it is offline', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await postAd(ctx, owner, ny, { title: 'Waiting in review, then offline' });
    const walletId = await fundedUsd(ctx, owner, 1500);
    expect((await pay(ctx, owner, ad.id, walletId)).statusCode).toBe(200);
    const off = await ctx.app.inject({
      method: 'PUT',
      url: `/api/update-ad-online-status/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: { online: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await decide(ctx, admin, [ad.id], 'approve')).json()).toEqual({ updated: 1 });
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(404); // not public: offline
    const told = mailsTo(owner).at(-1)!;
    expect(told.text).not.toContain('is now on XG Marketplace');
    expect(told.text).toContain('you set it offline');
    expect(told.text).toContain('/admin/dashboard/my-ads');
  });

  // An ad approved while its owner was pending holds its paid term until the owner is approved
  // (PRODUCT §2). Disabled by staff meanwhile, its term starts at the owner's approval all the same
  // (its days then run as any disabled ad's): re-enabled at once, it runs its 30 paid days. The
  // hold was dropped without starting it, and re-enabled it came back expired, never having shown.
  it("a pending owner's approved ad that is disabled when the owner is approved keeps its held paid term", async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const ad = await liveAd(ctx, pending, admin, ny, { title: 'Approved while owner pending' });
    ctx.clock.advance(20 * DAY_MS); // hidden: the owner is pending
    const setStatus = (status: 'approved' | 'disabled') =>
      ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-approved-ads', headers: { cookie: admin.cookie }, payload: { adIds: [ad.id], status } });
    expect((await setStatus('disabled')).json()).toEqual({ updated: 1 });
    ctx.clock.advance(11 * DAY_MS); // still pending and disabled; the nominal 30 days from approval are over
    const approveOwner = await ctx.app.inject({
      method: 'POST',
      url: '/api/master/update-user-status',
      headers: { cookie: master.cookie },
      payload: { userId: pending.id, status: 'approved' },
    });
    expect(approveOwner.statusCode, approveOwner.body).toBe(200);
    expect((await setStatus('approved')).json()).toEqual({ updated: 1 }); // cleared at once
    const row = await ctx.app.deps.db.selectFrom('ads').select(['status', 'expires_at']).where('id', '=', ad.id).executeTakeFirstOrThrow();
    const daysLeft = Math.round((Date.parse(row.expires_at!) - ctx.clock.now().getTime()) / DAY_MS);
    const shown = (await get(`/api/ads/${ad.id}`)).statusCode;
    expect({ status: row.status, publicAnswer: shown, daysLeft }).toEqual({ status: 'approved', publicAnswer: 200, daysLeft: 30 });
  });
});
