import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { decide, fundedUsd, liveAd, pay, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';
import { postAs } from './moderation.testkit.ts';

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

const transparency = async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/transparency' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('public, max-age=300');
  return { body: res.json() as { generatedAt: string; months: Record<string, unknown>[] }, text: res.body };
};

/** An ad in review (posted and paid), fresh session cookies and all. */
async function inReview(owner: TestUser) {
  const ad = await postAd(ctx, owner, place);
  expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
  return ad.id;
}
const report = (adId: string, message = 'This advert should be checked.') =>
  ctx.app.inject({ method: 'POST', url: `/api/report-ad/${adId}`, payload: { message } });
const publicReport = (kind: 'trafficking' | 'law_enforcement' | 'contact') =>
  ctx.app.inject({ method: 'POST', url: '/api/reports', payload: { kind, message: 'A report sent through the public form.', contact: 'officer@example.gov' } });

describe('GET /api/transparency', () => {
  it('counts, per month, what staff reviewed, rejected by category, disabled after a report, the reports received and suspensions', async () => {
    // The counts the report must show, worked out from what the test does (not by the code under test).
    const blank = () => ({
      approved: 0,
      rejected: 0,
      categories: {} as Record<string, number>,
      disabled: 0,
      disabledAfterReport: 0,
      ad: 0,
      trafficking: 0,
      law: 0,
      suspended: 0,
    });
    const expected = { december: blank(), january: blank() };
    ctx.clock.set('2025-12-10T10:00:00.000Z');
    admin = await asAdmin(ctx);
    master = await asMaster(ctx);
    const owner = await makeUser(ctx, { status: 'approved' });
    const other = await makeUser(ctx, { status: 'approved' });
    const dec = expected.december;
    // December: 2 approved, 2 rejected (spam, and one with no category: 'other'), a trafficking tip,
    // an ad report, one ad disabled after its report, one disabled without, one suspension.
    const live1 = await liveAd(ctx, owner, admin, place);
    const live2 = await liveAd(ctx, other, admin, place);
    dec.approved += 2;
    expect((await decide(ctx, admin, [await inReview(owner)], 'reject', 'Looks like spam.')).json()).toEqual({ updated: 1 });
    const r2 = await postAs(ctx, admin, '/api/admin/approve-pending-ads', {
      adIds: [await inReview(other)],
      decision: 'reject',
      reason: 'Spam text.',
      category: 'spam',
    });
    expect(r2.body).toEqual({ updated: 1 });
    dec.rejected += 2;
    dec.categories = { other: 1, spam: 1 };
    expect((await report(live1.id)).statusCode).toBe(201);
    dec.ad += 1;
    expect((await publicReport('trafficking')).statusCode).toBe(201);
    dec.trafficking += 1;
    expect((await publicReport('contact')).statusCode).toBe(201); // a contact message is not a report
    ctx.clock.advance(60_000);
    for (const id of [live1.id, live2.id]) {
      expect((await postAs(ctx, admin, '/api/admin/set-status-approved-ads', { adIds: [id], status: 'disabled' })).body).toEqual({ updated: 1 });
    }
    dec.disabled += 2;
    dec.disabledAfterReport += 1; // live1 was reported before it was disabled
    // Disabled again after being enabled: still one ad disabled that month.
    await postAs(ctx, admin, '/api/admin/set-status-approved-ads', { adIds: [live2.id], status: 'enabled' });
    await postAs(ctx, admin, '/api/admin/set-status-approved-ads', { adIds: [live2.id], status: 'disabled' });
    expect((await postAs(ctx, master, '/api/master/update-user-status', { userId: other.id, status: 'suspended' })).status).toBe(200);
    dec.suspended += 1;

    // January: 1 approved, 1 rejected as underage, a law-enforcement request, a report after the
    // disabling (does not make it "after a report"), a reinstatement (not a suspension).
    ctx.clock.set('2026-01-20T09:00:00.000Z');
    admin = await asAdmin(ctx);
    master = await asMaster(ctx);
    const jan = expected.january;
    const owner2 = await makeUser(ctx, { status: 'approved' });
    const live3 = await liveAd(ctx, owner2, admin, place);
    jan.approved += 1;
    const r3 = await postAs(ctx, admin, '/api/admin/approve-pending-ads', {
      adIds: [await inReview(owner2)],
      decision: 'reject',
      reason: 'The person looks under 21.',
      category: 'underage_suspected',
    });
    expect(r3.body).toEqual({ updated: 1 });
    jan.rejected += 1;
    jan.categories = { underage_suspected: 1 };
    expect((await postAs(ctx, admin, '/api/admin/set-status-approved-ads', { adIds: [live3.id], status: 'disabled' })).body).toEqual({ updated: 1 });
    jan.disabled += 1;
    ctx.clock.advance(60_000);
    expect((await report(live3.id)).statusCode).toBe(201);
    jan.ad += 1;
    expect((await publicReport('law_enforcement')).statusCode).toBe(201);
    jan.law += 1;
    await postAs(ctx, master, '/api/master/update-user-status', { userId: other.id, status: 'approved' });

    const { body, text } = await transparency();
    expect(body.generatedAt).toBe('2026-01-20T09:01:00.000Z');
    expect(body.months).toHaveLength(12);
    expect(body.months.map((m) => m.month).slice(0, 3)).toEqual(['2026-01', '2025-12', '2025-11']);
    const row = (e: typeof dec) => ({
      adsReviewed: e.approved + e.rejected,
      adsApproved: e.approved,
      adsRejected: e.rejected,
      rejectedByCategory: {
        underage_suspected: 0,
        trafficking_suspected: 0,
        prohibited_content: 0,
        spam: 0,
        misleading: 0,
        other: 0,
        uncategorized: 0,
        ...e.categories,
      },
      adsDisabled: e.disabled,
      adsDisabledAfterReport: e.disabledAfterReport,
      reportsByKind: { ad: e.ad, trafficking: e.trafficking },
      lawEnforcementRequests: e.law,
      accountsSuspended: e.suspended,
    });
    expect(body.months[0]).toEqual({ month: '2026-01', ...row(jan) });
    expect(body.months[1]).toEqual({ month: '2025-12', ...row(dec) });
    expect(body.months[2]).toEqual({ month: '2025-11', ...row(blank()) });
    // No personal data: no e-mail address, no id of a user or an ad.
    for (const secret of [owner.email, owner.id, other.id, live1.id, 'officer@example.gov']) expect(text).not.toContain(secret);

    // Cached, and computed again as soon as a record moves.
    expect((await transparency()).body).toEqual(body);
    expect((await publicReport('trafficking')).statusCode).toBe(201);
    expect(((await transparency()).body.months[0].reportsByKind as { trafficking: number }).trafficking).toBe(1);
  });

  it('is public and empty on a new site', async () => {
    const { body } = await transparency();
    expect(body.months.every((m) => m.adsReviewed === 0 && m.lawEnforcementRequests === 0)).toBe(true);
    expect(body.months[0].month).toBe('2026-01');
  });
});
