import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, placeIn, type Place } from '../ads/ads.testkit.ts';
import { getAs, postAs } from './moderation.testkit.ts';

// Issue #14 §3: a report is acted on from where it is read: the ad beside it (photo, title,
// status, owner), urgent kinds first, close with a note (audited).

let ctx: TestContext;
let admin: TestUser;
let place: Place;
beforeEach(async () => {
  ctx = await createTestApp({ env: { STAFF_EMAIL: 'staff@example.com' } });
  admin = await asAdmin(ctx);
  place = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

const publicReport = (kind: 'trafficking' | 'law_enforcement' | 'contact', message: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/reports', payload: { kind, message, contact: 'sender@example.com' } });

describe('the reports list for acting on a report', () => {
  it('lists open urgent reports first, each ad report with its ad and owner; the e-mail says URGENT', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAd(ctx, owner, admin, place, { title: 'Reported harbour companion' });
    const adReport = await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${ad.id}`, payload: { message: 'Advert looks wrong to me.' } });
    ctx.clock.advance(1000);
    await publicReport('trafficking', 'A trafficking tip for staff.');
    ctx.clock.advance(1000);
    await publicReport('contact', 'A question about payments.');
    ctx.clock.advance(1000);
    await publicReport('law_enforcement', 'Preservation request from county police.');
    // What staff were sent (the ad owner's own mail, "Your ad is approved", is not about reports).
    expect(ctx.mailer.sent.filter((m) => m.subject.startsWith('[XG]')).map((m) => m.subject.replace(/ \w+$/, ''))).toEqual([
      '[XG] Ad report',
      '[XG] URGENT Trafficking report',
      '[XG] Contact message',
      '[XG] URGENT Law-enforcement request',
    ]);

    const list = (await getAs(ctx, admin, '/api/admin/get-reports')).body;
    expect(list.reports.map((r: { kind: string; urgent: boolean }) => [r.kind, r.urgent])).toEqual([
      ['law_enforcement', true],
      ['trafficking', true],
      ['contact', false],
      ['ad', false],
    ]);
    const stored = await ctx.app.deps.db.selectFrom('ads').select('photos_json').where('id', '=', ad.id).executeTakeFirstOrThrow();
    const photo = `/uploads/${(JSON.parse(stored.photos_json) as { thumbPath: string }[])[0].thumbPath}`;
    expect(list.reports[3]).toEqual({
      id: adReport.json().id,
      kind: 'ad',
      adId: ad.id,
      message: 'Advert looks wrong to me.',
      contact: null,
      status: 'open',
      ipHash: expect.any(String),
      createdAt: '2026-01-15T12:00:00.000Z',
      urgent: false,
      ad: {
        id: ad.id,
        title: 'Reported harbour companion',
        status: 'approved',
        thumbUrl: photo,
        ownerId: owner.id,
        ownerEmail: owner.email,
        ownerNickname: expect.any(String),
        held: false,
      },
    });
    expect(list.reports[0].ad).toBeNull();

    // Acting from the report: disable the ad, place a hold; the list shows both at once.
    expect((await postAs(ctx, admin, '/api/admin/set-status-approved-ads', { adIds: [ad.id], status: 'disabled' })).body).toEqual({ updated: 1 });
    expect((await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'ad', targetId: ad.id, reason: 'Reported: keep evidence' })).status).toBe(
      201,
    );
    const after = (await getAs(ctx, admin, '/api/admin/get-reports?kind=ad')).body;
    expect(after.reports[0].ad).toMatchObject({ status: 'disabled', held: true });

    // A closed urgent report goes back among the others.
    const urgentId = list.reports[0].id;
    await postAs(ctx, admin, '/api/admin/set-report-status', { id: urgentId, status: 'closed' });
    const reordered = (await getAs(ctx, admin, '/api/admin/get-reports')).body;
    expect(reordered.reports.map((r: { kind: string }) => r.kind)).toEqual(['trafficking', 'law_enforcement', 'contact', 'ad']);
  });

  it('closes a report with a note, audited; refuses a note too short', async () => {
    const { id } = (await publicReport('trafficking', 'Tip to close with a note.')).json();
    const bad = await postAs(ctx, admin, '/api/admin/set-report-status', { id, status: 'closed', note: 'x' });
    expect(bad.body).toMatchObject({ code: 'moderation.note_length', params: { field: 'note', min: 3, max: 1000 } });
    const closed = await postAs(ctx, admin, '/api/admin/set-report-status', { id, status: 'closed', note: '  Forwarded to   NCMEC, case 88812. ' });
    expect(closed.body.report).toMatchObject({ id, status: 'closed', urgent: true, ad: null });
    const audit = await ctx.app.deps.db
      .selectFrom('audit_log')
      .select(['actor_id', 'action', 'before_json', 'after_json'])
      .where('target_id', '=', id)
      .execute();
    expect(audit).toEqual([
      {
        actor_id: admin.id,
        action: 'report.status',
        before_json: '{"status":"open"}',
        after_json: '{"status":"closed","note":"Forwarded to NCMEC, case 88812."}',
      },
    ]);
  });
});

describe('reports about a staff member’s own ads', () => {
  it('are not read on their own user page either: no message, no closing note of another admin', async () => {
    const other = await asAdmin(ctx);
    const ad = await liveAd(ctx, admin, other, place, { title: 'An advert of an admin' });
    const tip = 'I saw this person at the motel, call me back about it';
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${ad.id}`, payload: { message: tip, contact: 'witness@example.com' } })).statusCode,
    ).toBe(201);
    const listed = (await getAs(ctx, other, '/api/admin/get-reports')).body.reports;
    const note = 'Spoke with the witness on the phone.';
    expect((await postAs(ctx, other, '/api/admin/set-report-status', { id: listed[0].id, status: 'closed', note })).status).toBe(200);

    const own = await getAs(ctx, admin, `/api/admin/get-user/${admin.id}`);
    expect(own.status).toBe(200);
    expect(own.body.reports).toEqual([expect.objectContaining({ adId: ad.id, status: 'closed', message: '' })]);
    expect(JSON.stringify(own.body)).not.toContain(tip);
    expect(JSON.stringify(own.body)).not.toContain(note);
    // Another admin reads it all.
    const theirs = (await getAs(ctx, other, `/api/admin/get-user/${admin.id}`)).body;
    expect(theirs.reports[0].message).toBe(tip);
    expect(JSON.stringify(theirs.audit)).toContain(note);
  });
});
