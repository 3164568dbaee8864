import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, fundedUsd, goodFields, liveAd, pay, placeIn, postAd, walletsOf, type Place } from './ads.testkit.ts';
import { getAs, postAs } from '../moderation/moderation.testkit.ts';

// A staff decision names the version of each ad the staff member saw (`seen`: its updatedAt in their
// list). One acting on a screen read before the owner's change, or before another staff member's
// newer decision, leaves the ad as it is now ({updated: 0}), and the list shows it again.

let ctx: TestContext;
let admin: TestUser;
let master: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
  master = await asMaster(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

const db = () => ctx.app.deps.db;
type Shown = { id: string; updatedAt: string; title: string; status: string };
const auditsOf = async (adId: string) =>
  (await db().selectFrom('audit_log').select('action').where('target_id', '=', adId).orderBy('id').execute()).map((r) => r.action);

describe('staff decisions made on a stale screen', () => {
  // The reason ("phone number in the title") is about the version the reviewer read: rejecting the
  // owner's fix with it would send the fixed ad back to the cart, mail a false reason and audit a
  // rejection of text nobody read.
  it('a rejection naming the version the reviewer saw is not applied to the text the owner put in since', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await postAd(ctx, owner, ny, { title: 'Call 212 555 0142 now' });
    const walletId = await fundedUsd(ctx, owner, 1500);
    expect((await pay(ctx, owner, ad.id, walletId)).statusCode).toBe(200);
    const paidBalance = (await walletsOf(ctx, owner)).find((w) => w.id === walletId)!.amountCents;
    const queue = async () => ((await getAs(ctx, admin, '/api/admin/get-pending-ads')).body.pendingAds as Shown[]).find((a) => a.id === ad.id)!;

    // The reviewer opens the queue and reads the ad.
    const shown = await queue();
    expect(shown.title).toBe('Call 212 555 0142 now');

    // The owner fixes the title meanwhile.
    ctx.clock.advance(60_000);
    const form = adForm(goodFields(ny, { title: 'Elegant companion in Manhattan' }), []);
    form.append('keepPhotos', JSON.stringify((ad.photos as { url: string }[]).map((p) => p.url)));
    const edit = await ctx.app.inject({ method: 'PUT', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie }, payload: form });
    expect(edit.statusCode, edit.body).toBe(200);

    // The reviewer rejects what they read, naming that version.
    ctx.clock.advance(60_000);
    const reject = (seen: Shown) =>
      postAs(ctx, admin, '/api/admin/approve-pending-ads', {
        adIds: [ad.id],
        decision: 'reject',
        reason: 'Phone number in the title',
        seen: [{ id: seen.id, updatedAt: seen.updatedAt }],
      });
    const stale = await reject(shown);
    const row = await db().selectFrom('ads').select(['status', 'title']).where('id', '=', ad.id).executeTakeFirstOrThrow();
    expect({ answer: [stale.status, stale.body], status: row.status, title: row.title }).toEqual({
      answer: [200, { updated: 0 }],
      status: 'in_review',
      title: 'Elegant companion in Manhattan',
    });
    expect((await walletsOf(ctx, owner)).find((w) => w.id === walletId)!.amountCents).toBe(paidBalance); // not refunded
    expect(await auditsOf(ad.id)).not.toContain('ad.reject');

    // The queue shows the fix; a decision naming that version is applied.
    const again = await queue();
    expect(again.title).toBe('Elegant companion in Manhattan');
    expect(
      (
        await postAs(ctx, admin, '/api/admin/approve-pending-ads', {
          adIds: [ad.id],
          decision: 'approve',
          seen: [{ id: again.id, updatedAt: again.updatedAt }],
        })
      ).body,
    ).toEqual({
      updated: 1,
    });
  });

  // Admin A sees X taken down by admin B as spam. Meanwhile B enables it on the owner's appeal and
  // a master takes it down again after a trafficking tip. A, still reading B's spam takedown,
  // presses Enable: the master's takedown, which A never saw, must not be undone.
  it("enabling from a stale disabled list does not undo another staff member's newer takedown", async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const adminB = await asAdmin(ctx);
    const ad = await liveAd(ctx, owner, adminB, ny, { title: 'Downtown companion, new here' });
    const setStatus = (who: TestUser, status: 'approved' | 'disabled', seen?: Shown) =>
      postAs(ctx, who, '/api/admin/set-status-approved-ads', {
        adIds: [ad.id],
        status,
        ...(seen ? { seen: [{ id: seen.id, updatedAt: seen.updatedAt }] } : {}),
      });
    const disabledList = async (who: TestUser) =>
      ((await getAs(ctx, who, '/api/admin/get-approved-ads?status=disabled')).body.approvedAds as Shown[]).find((a) => a.id === ad.id);
    ctx.clock.advance(60_000);
    expect((await setStatus(adminB, 'disabled')).body).toEqual({ updated: 1 }); // spam

    // A opens the disabled list: X, as B's spam takedown left it.
    const shown = (await disabledList(admin))!;
    expect(shown.status).toBe('disabled');

    ctx.clock.advance(60_000);
    expect((await setStatus(adminB, 'approved')).body).toEqual({ updated: 1 }); // the owner's appeal
    ctx.clock.advance(60_000);
    expect((await setStatus(master, 'disabled')).body).toEqual({ updated: 1 }); // a trafficking tip

    // A enables what A saw, naming that version.
    ctx.clock.advance(60_000);
    const res = await setStatus(admin, 'approved', shown);
    const row = await db().selectFrom('ads').select(['status']).where('id', '=', ad.id).executeTakeFirstOrThrow();
    const publicAnswer = (await ctx.app.inject({ method: 'GET', url: `/api/ads/${ad.id}` })).statusCode;
    expect({ answer: [res.status, res.body], status: row.status, publicAnswer }).toEqual({
      answer: [200, { updated: 0 }],
      status: 'disabled',
      publicAnswer: 404,
    });
    expect(await auditsOf(ad.id)).toEqual(['ad.approve', 'ad.disable', 'ad.enable', 'ad.disable']);

    // Reloaded, the list shows the master's takedown as a newer version; enabling that one is applied.
    const now = (await disabledList(admin))!;
    expect(now.updatedAt).not.toBe(shown.updatedAt);
    expect((await setStatus(admin, 'approved', now)).body).toEqual({ updated: 1 });
    expect((await ctx.app.inject({ method: 'GET', url: `/api/ads/${ad.id}` })).statusCode).toBe(200);
  });

  // A takedown is the cautious direction: from a stale list it still applies (the owner bumping or
  // renewing the ad meanwhile must not make staff press again), and the audit names who took it down.
  it('a takedown naming an older version of a live ad (enabled again since) is applied', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const adminB = await asAdmin(ctx);
    const ad = await liveAd(ctx, owner, adminB, ny);
    const live = async () =>
      ((await getAs(ctx, admin, '/api/admin/get-approved-ads?status=approved')).body.approvedAds as Shown[]).find((a) => a.id === ad.id)!;
    const shown = await live();
    ctx.clock.advance(60_000);
    expect((await postAs(ctx, adminB, '/api/admin/set-status-approved-ads', { adIds: [ad.id], status: 'disabled' })).body).toEqual({ updated: 1 });
    ctx.clock.advance(60_000);
    expect((await postAs(ctx, master, '/api/admin/set-status-approved-ads', { adIds: [ad.id], status: 'enabled' })).body).toEqual({ updated: 1 });
    ctx.clock.advance(60_000);
    const seen = (s: Shown) => [{ id: s.id, updatedAt: s.updatedAt }];
    expect((await postAs(ctx, admin, '/api/admin/set-status-approved-ads', { adIds: [ad.id], status: 'disabled', seen: seen(shown) })).body).toEqual({
      updated: 1,
    });
    expect((await db().selectFrom('ads').select('status').where('id', '=', ad.id).executeTakeFirstOrThrow()).status).toBe('disabled');
  });
});
