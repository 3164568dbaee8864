import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { ledgerDiscrepancies } from '../wallets/ledger.service.ts';
import { connector, until } from '../realtime/realtime.testkit.ts';
import { decide, fund, fundedUsd, liveAd, pay, placeIn, postAd, walletsOf, type Place } from './ads.testkit.ts';

let ctx: TestContext;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  other = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => {
  expect(await ledgerDiscrepancies(ctx.app.deps.db)).toEqual([]);
  await ctx.close();
});

const ledger = () => ctx.app.deps.db.selectFrom('ledger_entries').selectAll().orderBy('id').execute();
const balance = async (u: TestUser, type = 'USD') => (await walletsOf(ctx, u)).find((w) => w.walletType === type)?.amountCents;
const adStatus = async (id: string) => (await ctx.app.deps.db.selectFrom('ads').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const put = (u: TestUser, url: string, payload: object) => ctx.app.inject({ method: 'PUT', url, headers: { cookie: u.cookie }, payload });

describe('paying for an ad', () => {
  it('charges the ad price once and moves the ad to review', async () => {
    const ad = await postAd(ctx, owner, ny);
    const walletId = await fundedUsd(ctx, owner, 2000);
    const res = await pay(ctx, owner, ad.id, walletId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ad).toMatchObject({ id: ad.id, status: 'in_review', priceCents: 1500, paidWalletId: walletId });
    expect(res.json().wallet).toEqual({ id: walletId, walletType: 'USD', amountCents: 500, currency: 'USD' });
    const again = await pay(ctx, owner, ad.id, walletId);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'This ad is already paid.', code: 'ad.already_paid' });
    expect(await balance(owner)).toBe(500);
    expect((await ledger()).filter((e) => e.kind === 'ad_payment')).toEqual([
      expect.objectContaining({ wallet_id: walletId, amount_cents: -1500, reference: ad.id, idempotency_key: `ad-payment:${ad.id}` }),
    ]);
    const cart = await ctx.app.inject({ method: 'GET', url: '/api/cart-ads-by-user', headers: { cookie: owner.cookie } });
    expect(cart.json().pendingAds).toEqual([]);
    const mine = (await ctx.app.inject({ method: 'GET', url: '/api/all-ads-by-user', headers: { cookie: owner.cookie } })).json();
    expect(mine.pendingAds.map((a: { id: string; status: string }) => [a.id, a.status])).toEqual([[ad.id, 'in_review']]);
    expect(mine.approvedAds).toEqual([]);
  });

  it('ten concurrent payments of one cart ad charge once', async () => {
    const ad = await postAd(ctx, owner, ny);
    const walletId = await fundedUsd(ctx, owner, 100_000);
    const results = await Promise.all(Array.from({ length: 10 }, () => pay(ctx, owner, ad.id, walletId)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(await balance(owner)).toBe(100_000 - 1500);
    expect((await ledger()).filter((e) => e.kind === 'ad_payment')).toHaveLength(1);
  });

  it('not enough money is 402 and charges nothing', async () => {
    const ad = await postAd(ctx, owner, ny);
    const walletId = await fundedUsd(ctx, owner, 1499);
    const res = await pay(ctx, owner, ad.id, walletId);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: 'Not enough money in this wallet.', code: 'wallet.insufficient_funds' });
    expect(await balance(owner)).toBe(1499);
    expect(await adStatus(ad.id)).toBe('unpaid');
    expect((await ledger()).filter((e) => e.kind === 'ad_payment')).toEqual([]);
    await fund(ctx, walletId, 1);
    expect((await pay(ctx, owner, ad.id, walletId)).statusCode).toBe(200);
    expect(await balance(owner)).toBe(0);
  });

  it('pays from the promo wallet', async () => {
    const ad = await postAd(ctx, owner, ny, { listingType: 'female_rub' });
    const promo = (await ctx.app.inject({ method: 'POST', url: '/api/create-promo-wallet', headers: { cookie: owner.cookie }, payload: {} })).json().wallet;
    await fund(ctx, promo.id, 2000);
    const res = await pay(ctx, owner, ad.id, promo.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().wallet).toMatchObject({ walletType: 'XG-PROMO-WALLET', amountCents: 500 });
  });

  it('refuses another user’s wallet and unknown ads with 404, and bad bodies with 400', async () => {
    const ad = await postAd(ctx, owner, ny);
    const theirs = await fundedUsd(ctx, other, 5000);
    expect((await pay(ctx, owner, ad.id, theirs)).statusCode).toBe(404);
    expect((await pay(ctx, owner, 'no-such-ad', theirs)).statusCode).toBe(404);
    const bad = await put(owner, `/api/ad-payment-in-cart/${ad.id}`, {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation.required', params: { field: 'walletId' } });
    expect(await balance(other)).toBe(5000);
    expect(await adStatus(ad.id)).toBe('unpaid');
  });
});

describe('a price changed between the page and the payment', () => {
  /** Staff set a listing type's price (and term), as the pricing screen does. */
  async function setPrice(kind: 'ad' | 'bump', priceCents: number, durationDays?: number) {
    const list = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-all-pricing', headers: { cookie: admin.cookie } })).json().pricing as {
      id: string;
      kind: string;
      listingType: string;
    }[];
    const row = list.find((p) => p.kind === kind && p.listingType === 'female_esc')!;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-price-by-id',
      headers: { cookie: admin.cookie },
      payload: { id: row.id, priceCents, ...(durationDays ? { durationDays } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('paying, renewing and bumping at the price shown: refused with the new price when it moved, nothing charged; charged when it holds', async () => {
    const walletId = await fundedUsd(ctx, owner, 20_000);
    const cart = await postAd(ctx, owner, ny);
    await setPrice('ad', 9000, 1);
    // The page still says $15.00 for 30 days.
    const stale = await put(owner, `/api/ad-payment-in-cart/${cart.id}`, { walletId, priceCents: 1500, durationDays: 30 });
    expect([stale.statusCode, stale.json().code, stale.json().params]).toEqual([409, 'pricing.price_changed', { priceCents: 9000, durationDays: 1 }]);
    const staleTerm = await put(owner, `/api/ad-payment-in-cart/${cart.id}`, { walletId, priceCents: 9000, durationDays: 30 });
    expect(staleTerm.json().code).toBe('pricing.price_changed');
    expect([await balance(owner), await adStatus(cart.id)]).toEqual([20_000, 'unpaid']);
    const ok = await put(owner, `/api/ad-payment-in-cart/${cart.id}`, { walletId, priceCents: 9000, durationDays: 1 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await balance(owner)).toBe(11_000);

    await setPrice('ad', 1500, 30);
    const live = await liveAd(ctx, owner, admin, ny);
    const before = (await balance(owner))!;
    await setPrice('ad', 2500, 30);
    const renew = await put(owner, `/api/renew-ad/${live.id}`, { walletId, priceCents: 1500, durationDays: 30 });
    expect([renew.statusCode, renew.json().code, renew.json().params]).toEqual([409, 'pricing.price_changed', { priceCents: 2500, durationDays: 30 }]);
    expect(await balance(owner)).toBe(before);
    expect((await put(owner, `/api/renew-ad/${live.id}`, { walletId, priceCents: 2500, durationDays: 30 })).statusCode).toBe(200);
    expect(await balance(owner)).toBe(before - 2500);

    await setPrice('bump', 700);
    ctx.clock.advance(61_000); // past the minute after its approval (its first bump)
    const bump = await put(owner, `/api/bump-ad/${live.id}`, { walletId, priceCents: 500 });
    expect([bump.statusCode, bump.json().code, bump.json().params]).toEqual([409, 'pricing.price_changed', { priceCents: 700 }]);
    expect(await balance(owner)).toBe(before - 2500);
    expect((await put(owner, `/api/bump-ad/${live.id}`, { walletId, priceCents: 700 })).statusCode).toBe(200);
    expect(await balance(owner)).toBe(before - 3200);
    // A bump has no term to name.
    expect((await put(owner, `/api/bump-ad/${live.id}`, { walletId, priceCents: 700, durationDays: 30 })).statusCode).toBe(400);
  });
});

describe('another user’s ad', () => {
  it('cannot be paid, toggled, bumped, moved or deleted', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const unpaid = await postAd(ctx, owner, ny);
    const wallet = await fundedUsd(ctx, other, 10_000);
    const la = await placeIn(ctx, 'ca');
    const attempts = [
      put(other, `/api/ad-payment-in-cart/${unpaid.id}`, { walletId: wallet }),
      put(other, `/api/update-ad-online-status/${ad.id}`, { online: false }),
      put(other, `/api/bump-ad/${ad.id}`, { walletId: wallet }),
      put(other, `/api/update-ad-location/${ad.id}`, { stateId: la.stateId, cityId: la.cityId }),
      ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${unpaid.id}`, headers: { cookie: other.cookie } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Ad not found.', code: 'ad.not_found' });
    }
    const rows = await ctx.app.deps.db.selectFrom('ads').selectAll().where('owner_id', '=', owner.id).orderBy('created_at').execute();
    expect(rows.map((r) => [r.status, r.online, r.city_id])).toEqual([
      ['approved', 1, ny.cityId],
      ['unpaid', 1, ny.cityId],
    ]);
    expect(await balance(other)).toBe(10_000);
  });

  it('the guest is asked to sign in', async () => {
    const res = await ctx.app.inject({ method: 'PUT', url: '/api/bump-ad/x', payload: { walletId: 'y' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('review', () => {
  it('approve publishes the ad now, for the paid duration, audited', async () => {
    const ad = await postAd(ctx, owner, ny);
    await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500));
    const list = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } });
    expect(list.json()).toMatchObject({ total: 1, pendingAds: [{ id: ad.id, status: 'in_review', owner: { id: owner.id, email: owner.email } }] });
    ctx.clock.advance(3600_000);
    const res = await decide(ctx, admin, [ad.id, ad.id, 'missing'], 'approve');
    expect(res.json()).toEqual({ updated: 1 });
    const now = ctx.clock.now();
    const approved = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-approved-ads', headers: { cookie: admin.cookie } })).json();
    expect(approved.approvedAds[0]).toMatchObject({
      id: ad.id,
      status: 'approved',
      publishedAt: now.toISOString(),
      bumpedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 30 * DAY_MS).toISOString(),
    });
    const audit = await ctx.app.deps.db.selectFrom('audit_log').selectAll().execute();
    expect(audit).toEqual([expect.objectContaining({ action: 'ad.approve', target_id: ad.id, actor_id: admin.id })]);
    expect((await decide(ctx, admin, [ad.id], 'approve')).json()).toEqual({ updated: 0 });
  });

  it('the approval e-mail names the moment the term ends in UTC, and tells an owner whose account is not approved that the ad shows once it is', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    ctx.clock.set('2026-01-16T03:00:00.000Z'); // 22:00 on January 15 in New York
    const shown = await liveAd(ctx, owner, admin, ny, { title: 'An owner already approved' });
    const hidden = await liveAd(ctx, pending, admin, ny, { title: 'An owner still pending' });
    expect((await ctx.app.inject({ method: 'GET', url: `/api/ads/${hidden.id}` })).statusCode).toBe(404);
    const mailTo = (u: TestUser) => ctx.mailer.sent.find((m) => m.to === u.email && /approved/.test(m.subject))!;
    expect(mailTo(owner).text).toContain('“An owner already approved” was approved and is now on XG Marketplace until Feb 15, 2026, 3:00 AM UTC.');
    expect(mailTo(owner).text).toContain(`/ad/${shown.id}`);
    expect(mailTo(pending).text).toContain(
      '“An owner still pending” was approved. It shows on XG Marketplace once your account is approved, and its paid term starts then.',
    );
    expect(mailTo(pending).text).toContain('/admin/dashboard/my-ads');
  });

  it('reject refunds exactly the price to the paying wallet, once, with a reason the owner sees', async () => {
    const promo = (await ctx.app.inject({ method: 'POST', url: '/api/create-promo-wallet', headers: { cookie: owner.cookie }, payload: {} })).json().wallet;
    await fund(ctx, promo.id, 1700);
    await fundedUsd(ctx, owner, 999);
    const ad = await postAd(ctx, owner, ny);
    await pay(ctx, owner, ad.id, promo.id);
    // the price changes after payment: the refund is what was paid
    const price = (await ctx.app.inject({ method: 'GET', url: '/api/get-ad-pricing' })).json().pricing[0];
    await ctx.app.inject({ method: 'POST', url: '/api/admin/set-price-by-id', headers: { cookie: admin.cookie }, payload: { id: price.id, priceCents: 9900 } });
    const noReason = await decide(ctx, admin, [ad.id], 'reject');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toEqual({
      message: 'A rejection needs a reason of 3–500 characters.',
      code: 'ad.rejection_reason_length',
      params: { field: 'reason', min: 3, max: 500 },
    });
    const results = await Promise.all([
      decide(ctx, admin, [ad.id], 'reject', 'Photos do not match'),
      decide(ctx, admin, [ad.id], 'reject', 'Photos do not match'),
    ]);
    expect(results.map((r) => r.json().updated).sort()).toEqual([0, 1]);
    expect(await balance(owner, 'XG-PROMO-WALLET')).toBe(1700);
    expect(await balance(owner)).toBe(999);
    expect((await ledger()).filter((e) => e.kind === 'ad_refund')).toEqual([
      expect.objectContaining({ wallet_id: promo.id, amount_cents: 1500, idempotency_key: `ad-refund:${ad.id}` }),
    ]);
    const mine = (await ctx.app.inject({ method: 'GET', url: '/api/all-ads-by-user', headers: { cookie: owner.cookie } })).json();
    expect(mine.pendingAds[0]).toMatchObject({ id: ad.id, status: 'rejected', rejectionReason: 'Photos do not match' });
    const audit = await ctx.app.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'ad.reject').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].after_json!)).toMatchObject({ refundedCents: 1500, walletId: promo.id });
  });

  it('disables and re-enables approved ads, audited', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    let staff = admin;
    const set = (status: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-approved-ads', headers: { cookie: staff.cookie }, payload: { adIds: [ad.id], status } });
    expect((await set('disabled')).json()).toEqual({ updated: 1 });
    expect(await adStatus(ad.id)).toBe('disabled');
    expect((await set('disabled')).json()).toEqual({ updated: 0 });
    expect((await set('approved')).json()).toEqual({ updated: 1 });
    expect(await adStatus(ad.id)).toBe('approved');
    await set('disabled');
    ctx.clock.advance(31 * DAY_MS);
    staff = await asAdmin(ctx); // sessions last 30 days
    const res = await set('enabled');
    expect(res.json(), res.body).toEqual({ updated: 1 });
    expect(await adStatus(ad.id)).toBe('expired');
    const actions = (await ctx.app.deps.db.selectFrom('audit_log').select('action').orderBy('id').execute()).map((a) => a.action);
    expect(actions).toEqual(['ad.approve', 'ad.disable', 'ad.enable', 'ad.disable', 'ad.enable']);
    const bad = await set('deleted');
    expect(bad.statusCode).toBe(400);
  });

  it('tells the owner over the socket when staff disable or re-enable their ad (an open "my ads" shows it at once)', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const sockets = connector(() => base);
    try {
      const conn = await sockets.connect({ cookie: owner.cookie });
      await until(() => ctx.app.deps.hub.connectionCount === 1);
      const set = (status: string) =>
        ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-approved-ads', headers: { cookie: admin.cookie }, payload: { adIds: [ad.id], status } });
      expect((await set('disabled')).json()).toEqual({ updated: 1 });
      expect(await conn.next()).toEqual({ event: 'adStatusUpdate', data: { adId: ad.id, status: 'disabled' } });
      expect((await set('approved')).json()).toEqual({ updated: 1 });
      expect(await conn.next()).toEqual({ event: 'adStatusUpdate', data: { adId: ad.id, status: 'approved' } });
    } finally {
      sockets.closeAll();
    }
  });

  it('nobody reviews, disables or enables their own ad: the whole batch is refused, another admin decides', async () => {
    const mine = await postAd(ctx, admin, ny); // staff may also advertise
    await pay(ctx, admin, mine.id, await fundedUsd(ctx, admin, 1500));
    const theirs = await postAd(ctx, owner, ny);
    await pay(ctx, owner, theirs.id, await fundedUsd(ctx, owner, 1500));
    for (const decision of ['approve', 'reject'] as const) {
      const res = await decide(ctx, admin, [theirs.id, mine.id], decision, 'Reason long enough');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        message: 'You cannot review your own ad, or one of an account linked to yours (the same phone or photo): another admin must.',
        code: 'ad.review_own_ad',
        params: { adIds: expect.stringContaining(mine.id) }, // the batch's ads it was refused for
      });
    }
    // Nothing changed, not even the other ad of the batch; no refund, no audit row.
    expect(await adStatus(mine.id)).toBe('in_review');
    expect(await adStatus(theirs.id)).toBe('in_review');
    expect(await balance(admin)).toBe(0);
    expect(await ctx.app.deps.db.selectFrom('audit_log').selectAll().execute()).toEqual([]);

    const second = await asAdmin(ctx);
    expect((await decide(ctx, second, [mine.id], 'approve')).json()).toEqual({ updated: 1 });
    const set = (staff: TestUser, status: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-approved-ads', headers: { cookie: staff.cookie }, payload: { adIds: [mine.id], status } });
    expect((await set(second, 'disabled')).json()).toEqual({ updated: 1 });
    const own = await set(admin, 'enabled');
    expect(own.statusCode).toBe(409);
    expect(own.json().code).toBe('ad.review_own_ad');
    expect(await adStatus(mine.id)).toBe('disabled');
  });

  it('is for staff only', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: owner.cookie } });
    expect(res.statusCode).toBe(403);
  });
});

describe('my ads', () => {
  it('bumps for the bump price, not twice within a minute, and 402 without money', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const walletId = (await walletsOf(ctx, owner)).find((w) => w.walletType === 'USD')!.id;
    const tooSoon = await put(owner, `/api/bump-ad/${ad.id}`, { walletId });
    expect(tooSoon.statusCode).toBe(409); // approval counts as the first bump
    expect(tooSoon.json().code).toBe('ad.bump_too_soon');
    ctx.clock.advance(61_000);
    const broke = await put(owner, `/api/bump-ad/${ad.id}`, { walletId });
    expect(broke.statusCode).toBe(402);
    expect(broke.json().code).toBe('wallet.insufficient_funds');
    await fund(ctx, walletId, 1000);
    ctx.clock.advance(3600_000);
    const ok = await put(owner, `/api/bump-ad/${ad.id}`, { walletId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().ad.bumpedAt).toBe(ctx.clock.now().toISOString());
    expect(ok.json().wallet.amountCents).toBe(700);
    const twice = await put(owner, `/api/bump-ad/${ad.id}`, { walletId });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('ad.bump_too_soon');
    ctx.clock.advance(61_000);
    expect((await put(owner, `/api/bump-ad/${ad.id}`, { walletId })).json().wallet.amountCents).toBe(400);
    const unpaid = await postAd(ctx, owner, ny);
    const notRunning = await put(owner, `/api/bump-ad/${unpaid.id}`, { walletId });
    expect(notRunning.statusCode).toBe(409);
    expect(notRunning.json()).toEqual({ message: 'Only an ad that shows (approved, running and online) can be bumped.', code: 'ad.bump_not_running' });
    expect((await ledger()).filter((e) => e.kind === 'bump_payment').map((e) => e.amount_cents)).toEqual([-300, -300]);
  });

  it('toggles online and moves an ad to another enabled city', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const off = await put(owner, `/api/update-ad-online-status/${ad.id}`, { online: false });
    expect(off.json().ad).toMatchObject({ online: false, status: 'approved' });
    const la = await placeIn(ctx, 'ca');
    const moved = await put(owner, `/api/update-ad-location/${ad.id}`, { stateId: la.stateId, cityId: la.cityId });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().ad).toMatchObject({ state: { id: 'ca' }, city: { id: la.cityId }, status: 'approved' });
    const mismatch = await put(owner, `/api/update-ad-location/${ad.id}`, { stateId: 'ny', cityId: la.cityId });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ message: 'This city is not in the chosen state.', code: 'ad.city_not_in_state', params: { field: 'cityId' } });
    const badBody = await put(owner, `/api/update-ad-online-status/${ad.id}`, { online: 'maybe' });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json()).toMatchObject({ code: 'validation.invalid', params: { field: 'online' } });
    const mine = (await ctx.app.inject({ method: 'GET', url: '/api/all-ads-by-user', headers: { cookie: owner.cookie } })).json();
    expect(mine.approvedAds[0]).toMatchObject({ id: ad.id, online: false, city: { id: la.cityId } });
  });

  it('does not move an ad staff disabled; moves one whose term ran out (to renew it where it can show), still hidden', async () => {
    const la = await placeIn(ctx, 'ca');
    const move = (id: string) => put(owner, `/api/update-ad-location/${id}`, { stateId: la.stateId, cityId: la.cityId });
    const down = await liveAd(ctx, owner, admin, ny, { title: 'An ad staff took down' });
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/admin/set-status-approved-ads',
          headers: { cookie: admin.cookie },
          payload: { adIds: [down.id], status: 'disabled' },
        })
      ).json(),
    ).toEqual({ updated: 1 });
    const refused = await move(down.id);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'ad.move_not_allowed']);
    const over = await liveAd(ctx, owner, admin, ny, { title: 'An ad whose term runs out' });
    const ends = new Date(ctx.clock.now().getTime() + 60_000).toISOString(); // its term ends in a minute
    await ctx.app.deps.db.updateTable('ads').set({ expires_at: ends }).where('id', '=', over.id).execute();
    ctx.clock.set(ends); // exactly when it ends, as bump and the public pages count it
    expect((await move(over.id)).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/ads/${over.id}` })).statusCode).toBe(410); // still over
    const after = await ctx.app.deps.db.selectFrom('ads').select(['id', 'city_id']).where('id', 'in', [down.id, over.id]).execute();
    expect(Object.fromEntries(after.map((a) => [a.id, a.city_id]))).toEqual({ [down.id]: ny.cityId, [over.id]: la.cityId });
  });

  it('does not bump an ad nobody sees (offline), nor take payment or a renewal for an ad in a city disabled since', async () => {
    const walletId = await fundedUsd(ctx, owner, 10_000);
    const live = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(61_000);
    expect((await put(owner, `/api/update-ad-online-status/${live.id}`, { online: false })).statusCode).toBe(200);
    const offline = await put(owner, `/api/bump-ad/${live.id}`, { walletId });
    expect([offline.statusCode, offline.json().code]).toEqual([409, 'ad.bump_not_running']);
    expect((await put(owner, `/api/update-ad-online-status/${live.id}`, { online: true })).statusCode).toBe(200);
    expect((await put(owner, `/api/bump-ad/${live.id}`, { walletId })).statusCode).toBe(200);

    const cart = await postAd(ctx, owner, ny);
    await ctx.app.deps.db.updateTable('cities').set({ enabled: 0 }).where('id', '=', ny.cityId).execute();
    const before = await balance(owner);
    const paid = await pay(ctx, owner, cart.id, walletId);
    expect([paid.statusCode, paid.json().code]).toEqual([400, 'ad.city_disabled']);
    const renewed = await put(owner, `/api/renew-ad/${live.id}`, { walletId });
    expect([renewed.statusCode, renewed.json().code]).toEqual([400, 'ad.city_disabled']);
    expect([await balance(owner), await adStatus(cart.id)]).toEqual([before, 'unpaid']);
  });
});
