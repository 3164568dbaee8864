import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, fund, fundedUsd, goodFields, jpegWithGps, liveAd, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';
import { getAs, postAs } from './moderation.testkit.ts';

let ctx: TestContext;
let admin: TestUser;
let master: TestUser;
let place: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
  master = await asMaster(ctx);
  place = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

const login = (u: TestUser, password: string, ip: string, ua: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password }, remoteAddress: ip, headers: { 'user-agent': ua } });

describe('GET /api/admin/get-user/:id', () => {
  it('answers "who is this, what else do they have, what did they pay, where did they sign in from"', async () => {
    const owner = await makeUser(ctx, { status: 'approved', nickname: 'night_owl' });
    expect((await login(owner, owner.password, '203.0.113.7', 'Firefox/140')).statusCode).toBe(200);
    ctx.clock.advance(1000);
    expect((await login(owner, 'a wrong password', '198.51.100.4', 'curl/8')).statusCode).toBe(401);
    ctx.clock.advance(1000);
    const live = await liveAd(ctx, owner, admin, place, { phone: '(212) 555-0150' });
    ctx.clock.advance(1000);
    const cart = await postAd(ctx, owner, place, { title: 'Second advert in the cart today' });
    const report = await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${live.id}`, payload: { message: 'Suspicious advert, please check.' } });
    expect(report.statusCode).toBe(201);
    await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'ad', targetId: live.id, reason: 'Preservation request' });
    // Another account with the same phone, and one that signed in from the same address.
    const twin = await makeUser(ctx, { status: 'approved', nickname: 'twin_phone' });
    await postAd(ctx, twin, place, { phone: '212-555-0150' });
    const neighbour = await makeUser(ctx, { status: 'approved', nickname: 'same_wifi' });
    expect((await login(neighbour, neighbour.password, '203.0.113.7', 'Safari/18')).statusCode).toBe(200);
    // Every account here registered (a sign-in) from the harness's own 10.x address: those go, so
    // the addresses this test chose are the only ones.
    await ctx.app.deps.db.deleteFrom('sign_ins').where('ip', 'like', '10.%').execute();
    // A suspended sign-in is recorded as refused.
    await postAs(ctx, master, '/api/master/update-user-status', { userId: owner.id, status: 'suspended' });
    expect((await login(owner, owner.password, '192.0.2.9', 'Chrome/140')).statusCode).toBe(403);

    for (const who of [admin, master]) {
      const { status, body } = await getAs(ctx, who, `/api/admin/get-user/${owner.id}`);
      expect(status).toBe(200);
      expect(body.user).toEqual({
        id: owner.id,
        email: owner.email,
        nickname: 'night_owl',
        status: 'suspended',
        deleted: false,
        roles: ['PROVIDER_USER'],
        phone: null,
        phoneVerified: false,
        avatarUrl: null,
        createdAt: '2026-01-15T12:00:00.000Z',
        deletedAt: null,
        held: true,
      });
      expect(body.ads.map((a: { id: string; status: string; held: boolean }) => [a.id, a.status, a.held])).toEqual([
        [cart.id, 'unpaid', false],
        [live.id, 'approved', true],
      ]);
      expect(body.reports).toEqual([
        { id: report.json().id, kind: 'ad', adId: live.id, message: 'Suspicious advert, please check.', status: 'open', createdAt: '2026-01-15T12:00:03.000Z' },
      ]);
      expect(body.wallets).toEqual([{ id: expect.any(String), walletType: 'USD', balanceCents: 0 }]);
      expect(body.ledger.map((l: { kind: string; amountCents: number }) => [l.kind, l.amountCents])).toEqual([
        ['ad_payment', -1500],
        ['adjustment', 1500],
      ]);
      expect(body.signIns).toEqual([
        { at: '2026-01-15T12:00:03.000Z', ip: '192.0.2.9', userAgent: 'Chrome/140', success: false, failure: 'suspended' },
        { at: '2026-01-15T12:00:01.000Z', ip: '198.51.100.4', userAgent: 'curl/8', success: false, failure: 'wrong_password' },
        { at: '2026-01-15T12:00:00.000Z', ip: '203.0.113.7', userAgent: 'Firefox/140', success: true, failure: null },
      ]);
      expect(body.holds.map((h: { targetType: string; targetId: string; active: boolean }) => [h.targetType, h.targetId, h.active])).toEqual([
        ['ad', live.id, true],
      ]);
      expect(body.related.map((r: { nickname: string; reasons: string[] }) => [r.nickname, r.reasons]).sort()).toEqual([
        ['same_wifi', ['ip']],
        ['twin_phone', ['phone']],
      ]);
      expect(body.audit.map((a: { action: string; targetId: string }) => [a.action, a.targetId])).toEqual([
        ['user.status', owner.id],
        ['legal_hold.place', live.id],
        ['ad.approve', live.id],
      ]);
      expect(body.invoices).toEqual([]);
      expect(body.screening).toEqual([]);
    }
  });

  it('shows refused ad texts and invoices; 404 for an unknown user; staff only', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const screened = await ctx.app.inject({
      method: 'POST',
      url: '/api/post-ad',
      headers: { cookie: owner.cookie },
      payload: adForm(goodFields(place, { title: 'Young schoolgirl companion here' }), [await jpegWithGps()]),
    });
    expect(screened.statusCode).toBe(400);
    const invoice = await postAs(ctx, owner, '/api/create-btc-payment-invoice', { amount: '25.00' });
    expect(invoice.status).toBe(200);
    const { body } = await getAs(ctx, admin, `/api/admin/get-user/${owner.id}`);
    expect(body.screening.map((s: { term: string; userEmail: string }) => s.userEmail)).toEqual([owner.email]);
    expect(body.invoices.map((i: { invoiceId: string; amountCents: number }) => [i.invoiceId, i.amountCents])).toEqual([[invoice.body.invoiceId, 2500]]);
    expect((await getAs(ctx, admin, '/api/admin/get-user/nosuchuser')).body).toMatchObject({ code: 'moderation.user_not_found' });
    expect((await getAs(ctx, owner, `/api/admin/get-user/${owner.id}`)).status).toBe(403);
  });

  it("lists staff actions on the user's invoices (audited under BTCPay's invoice id), not on other users' invoices", async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const other = await makeUser(ctx, { status: 'approved' });
    const mine = await postAs(ctx, owner, '/api/create-btc-payment-invoice', { amount: 25 });
    const theirs = await postAs(ctx, other, '/api/create-btc-payment-invoice', { amount: 25 });
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    for (const id of [mine.body.invoiceId, theirs.body.invoiceId]) {
      expect((await postAs(ctx, admin, `/api/sandbox/invoices/${id}/simulate`, { action: 'pay' })).status).toBe(200);
    }
    const { body } = await getAs(ctx, admin, `/api/admin/get-user/${owner.id}`);
    expect(body.audit.map((a: { action: string; targetType: string; targetId: string }) => [a.action, a.targetType, a.targetId])).toEqual([
      ['invoice.simulate', 'invoice', mine.body.invoiceId],
    ]);
  });

  // Registering signs the new account in (PRODUCT §7), so it is its first sign-in: an account that
  // registered and never signed in again still shows where it came from, and one registered from
  // the same address (a banned provider starting afresh) is related to it.
  it('records the registration as a sign-in and relates accounts registered from one address', async () => {
    const register = (email: string, nickname: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { email, password: 'correct horse battery', nickname },
        remoteAddress: '203.0.113.99',
        headers: { 'user-agent': 'Firefox/140' },
      });
    const first = await register('banned.one@example.com', 'banned_one');
    const second = await register('fresh.start@example.com', 'fresh_start');
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const d = (await getAs(ctx, admin, `/api/admin/get-user/${second.json().id}`)).body;
    expect({
      signIns: d.signIns.map((s: { ip: string; userAgent: string; success: boolean }) => [s.ip, s.userAgent, s.success]),
      signInsTotal: d.signInsTotal,
      related: d.related.map((r: { nickname: string; reasons: string[] }) => [r.nickname, r.reasons]),
    }).toEqual({ signIns: [['203.0.113.99', 'Firefox/140', true]], signInsTotal: 1, related: [['banned_one', ['ip']]] });
  });

  // The lists stop at the newest 200; each comes with its total, so the screen can say it shows
  // part (the ledger rows shown add up to less than the balance) rather than pass it for the whole.
  it('says how many rows each list holds when it shows only the last 200', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    // Two ledger rows (funded, paid), then 206 of $1: the newest 200 add up to $200.
    const live = await liveAd(ctx, owner, admin, place);
    await postAd(ctx, owner, place, { title: 'Second advert in the cart today' });
    const report = await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${live.id}`, payload: { message: 'Suspicious advert, please check.' } });
    expect(report.statusCode).toBe(201);
    const usd = await fundedUsd(ctx, owner, 0);
    for (let i = 0; i < 206; i++) await fund(ctx, usd, 100);
    const d = (await getAs(ctx, admin, `/api/admin/get-user/${owner.id}`)).body;
    expect({
      rowsShown: d.ledger.length,
      shownSum: d.ledger.reduce((s: number, l: { amountCents: number }) => s + l.amountCents, 0),
      totals: [d.ledgerTotal, d.adsTotal, d.reportsTotal, d.invoicesTotal, d.signInsTotal],
    }).toEqual({ rowsShown: 200, shownSum: 20000, totals: [208, 2, 1, 0, 1] }); // one sign-in: the registration
  });
});
