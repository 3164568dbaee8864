import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { decide, fundedUsd, pay, placeIn, postAd } from '../ads/ads.testkit.ts';
import { readZip } from '../moderation/moderation.testkit.ts';

// The audit trail staff read: an account's history on the user page and in the evidence export
// (PRODUCT §1 "every staff action is audited"), and one row per real decision on a report.

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

type Entry = { actorId: string | null; action: string; targetType: string; targetId: string | null; before: unknown; after: unknown };
const post = (who: TestUser, url: string, payload: object) => ctx.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });
const log = async (q = ''): Promise<Entry[]> => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/admin/get-audit-log?pageSize=100${q}`, headers: { cookie: admin.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().auditLog as Entry[];
};
const userAudit = async (id: string): Promise<Entry[]> => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/admin/get-user/${id}`, headers: { cookie: admin.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().audit as Entry[];
};

/** An approved, paid ad of a new approved account. */
async function liveAdOf(owner: TestUser) {
  const ny = await placeIn(ctx, 'ny');
  const ad = await postAd(ctx, owner, ny);
  expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 5000))).statusCode).toBe(200);
  expect((await decide(ctx, admin, [ad.id], 'approve')).json()).toEqual({ updated: 1 });
  return ad;
}

async function reportAd(adId: string): Promise<string> {
  const report = await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${adId}`, payload: { message: 'This advert looks wrong to me.' } });
  expect(report.statusCode, report.body).toBe(201);
  return report.json().id as string;
}

describe('staff actions on an ad its owner deleted stay in the account’s history', () => {
  // A repeat offender's takedowns are what a reviewer or a court needs; the ad's stored versions
  // still name its owner after the ad (unheld) is gone.
  it("get-user lists staff's takedown of an ad its owner deleted afterwards, and how its report was handled", async () => {
    const other = await asAdmin(ctx);
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAdOf(owner);
    const reportId = await reportAd(ad.id);
    expect((await post(admin, '/api/admin/set-report-status', { id: reportId, status: 'closed', note: 'Taken down, see the ad' })).statusCode).toBe(200);
    expect((await post(other, '/api/admin/set-status-approved-ads', { adIds: [ad.id], status: 'disabled' })).json()).toEqual({ updated: 1 });
    expect((await userAudit(owner.id)).map((e) => e.action)).toContain('ad.disable');
    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie } });
    expect(del.statusCode, del.body).toBe(200);
    expect(await ctx.app.deps.db.selectFrom('held_ads').select('id').where('id', '=', ad.id).executeTakeFirst()).toBeUndefined(); // gone, not kept

    const after = await userAudit(owner.id);
    expect(after.map((e) => [e.action, e.targetId])).toEqual(
      expect.arrayContaining([
        ['ad.disable', ad.id],
        ['ad.approve', ad.id],
        ['report.status', reportId],
      ]),
    );
  });

  it("the evidence export's audit.json keeps them too; another account's page does not get them", async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const stranger = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAdOf(owner);
    expect((await post(admin, '/api/admin/set-status-approved-ads', { adIds: [ad.id], status: 'disabled' })).json()).toEqual({ updated: 1 });
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);

    const res = await ctx.app.inject({ method: 'GET', url: `/api/admin/export-evidence/${owner.id}`, headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    const audit = JSON.parse(readZip(res.rawPayload).get('audit.json')!.toString('utf8')) as { action: string; target_id: string }[];
    expect(audit.map((a) => [a.action, a.target_id])).toEqual([
      ['ad.approve', ad.id],
      ['ad.disable', ad.id],
    ]);
    expect((await userAudit(stranger.id)).filter((e) => e.targetType === 'ad')).toEqual([]);
  });
});

describe('reports about an ad its owner deleted stay in the account’s history', () => {
  // Reports are what a reviewer weighs a repeat offender by: deleting the reported ad (not held,
  // so its row is gone) must not wipe them from the user page, its count, or the evidence export.
  it('get-user lists them and counts them; the evidence export holds them; another account gets none', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const stranger = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAdOf(owner);
    await liveAdOf(stranger);
    const reportId = await reportAd(ad.id);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    expect(await ctx.app.deps.db.selectFrom('held_ads').select('id').where('id', '=', ad.id).executeTakeFirst()).toBeUndefined();

    const page = async (id: string) => (await ctx.app.inject({ method: 'GET', url: `/api/admin/get-user/${id}`, headers: { cookie: admin.cookie } })).json();
    const mine = await page(owner.id);
    expect(mine.reports.map((r: { id: string; adId: string }) => [r.id, r.adId])).toEqual([[reportId, ad.id]]);
    expect(mine.reportsTotal).toBe(1);
    const theirs = await page(stranger.id);
    expect([theirs.reports, theirs.reportsTotal]).toEqual([[], 0]);

    const res = await ctx.app.inject({ method: 'GET', url: `/api/admin/export-evidence/${owner.id}`, headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    const reports = JSON.parse(readZip(res.rawPayload).get('reports.json')!.toString('utf8')) as { id: string }[];
    expect(reports.map((r) => r.id)).toEqual([reportId]);
  });
});

describe('set-report-status: one row per real decision', () => {
  // A close with a note retried (a double click, a client's retry after a timeout) changes nothing:
  // no second "closed" row that reads as a second decision.
  it('the same close-with-note repeated writes one row', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAdOf(owner);
    const body = { id: await reportAd(ad.id), status: 'closed', note: 'Checked the photos, nothing wrong' };
    expect((await post(admin, '/api/admin/set-report-status', body)).statusCode).toBe(200);
    expect((await post(admin, '/api/admin/set-report-status', body)).statusCode).toBe(200);
    expect((await log('&targetType=report')).map((r) => [r.before, r.after])).toEqual([[{ status: 'open' }, { status: 'closed', note: body.note }]]);
  });

  // A different note on a closed report is how staff add to it: recorded; the same note after a
  // reopen and a plain close is a new decision's note: recorded too.
  it('another note on a closed report, or the same note on a new close, is recorded', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAdOf(owner);
    const id = await reportAd(ad.id);
    expect((await post(admin, '/api/admin/set-report-status', { id, status: 'closed', note: 'Checked the photos' })).statusCode).toBe(200);
    expect((await post(admin, '/api/admin/set-report-status', { id, status: 'closed', note: 'Owner called, all fine' })).statusCode).toBe(200);
    expect((await post(admin, '/api/admin/set-report-status', { id, status: 'open' })).statusCode).toBe(200);
    expect((await post(admin, '/api/admin/set-report-status', { id, status: 'closed' })).statusCode).toBe(200);
    expect((await post(admin, '/api/admin/set-report-status', { id, status: 'closed', note: 'Owner called, all fine' })).statusCode).toBe(200);
    expect((await log('&targetType=report')).reverse().map((r) => r.after)).toEqual([
      { status: 'closed', note: 'Checked the photos' },
      { status: 'closed', note: 'Owner called, all fine' },
      { status: 'open' },
      { status: 'closed' },
      { status: 'closed', note: 'Owner called, all fine' },
    ]);
  });
});
