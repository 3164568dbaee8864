import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { expireAds } from './ads.expiry.ts';
import { adForm, decide, fundedUsd, goodFields, liveAd, pay, placeIn, postAd, type Place } from './ads.testkit.ts';

// A provider's own lists (my ads, my cart) and the dashboard's overview of them: paged like every
// other list, counted on the server (a user posting 20 ads a day has thousands), and never showing
// another user's ads.

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
afterEach(() => ctx.close());

const get = (u: TestUser, url: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: u.cookie } });
const ids = (ads: { id: string }[]) => ads.map((a) => a.id);
const MINUTE = 60_000;

/** Posts an ad a minute after the last one (newest first is then a known order). */
async function post(u: TestUser, title = 'Elegant companion downtown') {
  ctx.clock.advance(MINUTE);
  return (await postAd(ctx, u, ny, { title })).id;
}

async function live(u: TestUser) {
  ctx.clock.advance(MINUTE);
  return (await liveAd(ctx, u, admin, ny)).id;
}

/** A live ad with its title, approved a minute after the last step; returns its id, photos and approval time. */
async function liveTitled(u: TestUser, title: string) {
  ctx.clock.advance(MINUTE);
  const ad = (await liveAd(ctx, u, admin, ny, { title })) as unknown as { id: string; photos: { url: string }[] };
  return { id: ad.id, photos: ad.photos, at: ctx.clock.now().toISOString() };
}

/** Edits a live ad (a revision waiting for review) a minute after the last step; returns the revision's id. */
async function editLive(u: TestUser, ad: { id: string; photos: { url: string }[] }, title: string) {
  ctx.clock.advance(MINUTE);
  const res = await ctx.app.inject({
    method: 'PUT',
    url: `/api/ads/${ad.id}`,
    headers: { cookie: u.cookie },
    payload: adForm({ ...goodFields(ny, { title }), keepPhotos: JSON.stringify(ad.photos.map((p) => p.url)) }, []),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().ad.revision).toMatchObject({ status: 'pending' });
  return res.json().ad.revision.id as string;
}

/** Staff decide an edit (by its revision's id) a minute after the last step; returns when. */
async function decideEdit(revisionId: string, decision: 'approve' | 'reject', reason?: string) {
  ctx.clock.advance(MINUTE);
  expect((await decide(ctx, admin, [revisionId], decision, reason)).json()).toEqual({ updated: 1 });
  return ctx.clock.now().toISOString();
}

describe('my ads, paged', () => {
  it('pages each list newest first with its total, both lists together when none is named, and only the user’s own ads', async () => {
    const approved = [await live(owner), await live(owner)];
    const pending = [await post(owner), await post(owner), await post(owner)];
    const theirs = await post(other);
    const totals = { approvedAds: 2, pendingAds: 3 };

    const p1 = (await get(owner, '/api/all-ads-by-user?list=pending&pageSize=2')).json();
    expect({ ...p1, pendingAds: ids(p1.pendingAds) }).toEqual({
      approvedAds: [],
      pendingAds: [pending[2], pending[1]],
      total: 3,
      page: 1,
      pageSize: 2,
      totals,
    });
    const p2 = (await get(owner, '/api/all-ads-by-user?list=pending&pageSize=2&page=2')).json();
    expect([ids(p2.pendingAds), p2.total, p2.page]).toEqual([[pending[0]], 3, 2]);
    const past = (await get(owner, '/api/all-ads-by-user?list=pending&pageSize=2&page=3')).json();
    expect([past.pendingAds, past.total]).toEqual([[], 3]);

    const ok = (await get(owner, '/api/all-ads-by-user?list=approved')).json();
    expect([ids(ok.approvedAds), ok.pendingAds, ok.total, ok.pageSize]).toEqual([[approved[1], approved[0]], [], 2, 20]);

    // No list named: both, paged together, newest first, each ad in its own list.
    const both = (await get(owner, '/api/all-ads-by-user?pageSize=3')).json();
    expect([ids(both.approvedAds), ids(both.pendingAds), both.total, both.totals]).toEqual([[], [pending[2], pending[1], pending[0]], 5, totals]);
    const rest = (await get(owner, '/api/all-ads-by-user?pageSize=3&page=2')).json();
    expect([ids(rest.approvedAds), ids(rest.pendingAds), rest.total]).toEqual([[approved[1], approved[0]], [], 5]);
    // The answer's ads keep what my ads shows beside each one.
    expect(rest.approvedAds[0]).toMatchObject({ status: 'approved', revision: null, views7: 0, views30: 0 });

    const mine = (await get(other, '/api/all-ads-by-user')).json();
    expect([ids(mine.approvedAds), ids(mine.pendingAds), mine.total, mine.totals]).toEqual([[], [theirs], 1, { approvedAds: 0, pendingAds: 1 }]);
  });

  it('answers one ad of the user’s by id, wherever it is in the lists (the e-mails link to it), and never another user’s', async () => {
    const old = await live(owner);
    for (let i = 0; i < 3; i++) await post(owner);
    const theirs = await post(other);

    const one = (await get(owner, `/api/all-ads-by-user?adId=${old}&pageSize=1`)).json();
    expect([ids(one.approvedAds), one.pendingAds, one.total, one.totals]).toEqual([[old], [], 1, { approvedAds: 1, pendingAds: 3 }]);
    const notMine = (await get(owner, `/api/all-ads-by-user?adId=${theirs}`)).json();
    expect([notMine.approvedAds, notMine.pendingAds, notMine.total]).toEqual([[], [], 0]);
  });

  it('pages the cart, unpaid ads only, newest first', async () => {
    const cart = [await post(owner), await post(owner), await post(owner)];
    await live(owner);
    await post(other);

    const p1 = (await get(owner, '/api/cart-ads-by-user?pageSize=2')).json();
    expect({ ...p1, pendingAds: ids(p1.pendingAds) }).toEqual({ pendingAds: [cart[2], cart[1]], total: 3, page: 1, pageSize: 2 });
    const p2 = (await get(owner, '/api/cart-ads-by-user?pageSize=2&page=2')).json();
    expect([ids(p2.pendingAds), p2.total]).toEqual([[cart[0]], 3]);
    const all = (await get(owner, '/api/cart-ads-by-user')).json();
    expect([ids(all.pendingAds), all.pageSize]).toEqual([[cart[2], cart[1], cart[0]], 20]);
  });

  it('refuses bad paging with 400 naming the field', async () => {
    for (const route of ['all-ads-by-user', 'cart-ads-by-user']) {
      for (const [query, field] of [
        ['page=0', 'page'],
        ['page=1.5', 'page'],
        ['pageSize=0', 'pageSize'],
        ['pageSize=101', 'pageSize'],
        ['pageSize=ten', 'pageSize'],
        ['page=10001', 'page'],
      ]) {
        const res = await get(owner, `/api/${route}?${query}`);
        expect([route, query, res.statusCode], res.body).toEqual([route, query, 400]);
        expect(res.json().message).toContain(field);
      }
    }
    expect((await get(owner, '/api/all-ads-by-user?list=everything')).statusCode).toBe(400);
  });
});

describe('my ads overview (the dashboard)', () => {
  it('counts every ad by status as my ads shows it, and lists the latest decisions on them, newest first', async () => {
    const db = ctx.app.deps.db;
    const [ranOut, rejected, disabled, running] = [
      await post(owner, 'Ran out of time'),
      await post(owner, 'The rejected one'),
      await post(owner, 'Taken down by staff'),
      await post(owner, 'Running nicely'),
    ];
    const unpaid = [await post(owner), await post(owner)];
    await live(other); // another user's decisions never show
    const walletId = await fundedUsd(ctx, owner, 10_000);
    const payAndDecide = async (id: string, decision: 'approve' | 'reject', reason?: string) => {
      ctx.clock.advance(MINUTE);
      expect((await pay(ctx, owner, id, walletId)).statusCode).toBe(200);
      expect((await decide(ctx, admin, [id], decision, reason)).json()).toEqual({ updated: 1 });
      return ctx.clock.now().toISOString();
    };

    await payAndDecide(ranOut, 'approve');
    ctx.clock.advance(MINUTE);
    // Its time ran out a second ago; the hourly expiry job has not run yet.
    const ranOutAt = new Date(ctx.clock.now().getTime() - 1000).toISOString();
    await db.updateTable('ads').set({ expires_at: ranOutAt }).where('id', '=', ranOut).execute();
    const rejectedAt = await payAndDecide(rejected, 'reject', 'The photos show someone else.');
    await payAndDecide(disabled, 'approve');
    ctx.clock.advance(MINUTE);
    const disabledAt = ctx.clock.now().toISOString();
    const off = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-status-approved-ads',
      headers: { cookie: admin.cookie },
      payload: { adIds: [disabled], status: 'disabled' },
    });
    expect(off.json()).toEqual({ updated: 1 });
    const approvedAt = await payAndDecide(running, 'approve');
    const inReview = await post(owner);
    ctx.clock.advance(MINUTE);
    expect((await pay(ctx, owner, inReview, walletId)).statusCode).toBe(200);
    expect(unpaid).toHaveLength(2);

    const expected = {
      counts: { unpaid: 2, in_review: 1, approved: 1, rejected: 1, disabled: 1, expired: 1 },
      online: 1,
      recent: [
        { adId: running, title: 'Running nicely', event: 'approved', at: approvedAt, reason: null },
        { adId: disabled, title: 'Taken down by staff', event: 'disabled', at: disabledAt, reason: null },
        { adId: rejected, title: 'The rejected one', event: 'rejected', at: rejectedAt, reason: 'The photos show someone else.' },
        { adId: ranOut, title: 'Ran out of time', event: 'expired', at: ranOutAt, reason: null },
      ],
    };
    const res = await get(owner, '/api/my-ads-overview');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual(expected);
    // Once the expiry job has run, the same.
    await expireAds(ctx.app.deps);
    expect((await get(owner, '/api/my-ads-overview')).json()).toEqual(expected);

    // Set offline, an approved ad is no longer counted online.
    ctx.clock.advance(MINUTE);
    const offline = await ctx.app.inject({
      method: 'PUT',
      url: `/api/update-ad-online-status/${running}`,
      headers: { cookie: owner.cookie },
      payload: { online: false },
    });
    expect(offline.statusCode).toBe(200);
    expect((await get(owner, '/api/my-ads-overview')).json()).toMatchObject({ online: 0, counts: { approved: 1 } });

    // The other user sees only their own.
    expect((await get(other, '/api/my-ads-overview')).json()).toMatchObject({
      counts: { unpaid: 0, in_review: 0, approved: 1, rejected: 0, disabled: 0, expired: 0 },
      online: 1,
      recent: [{ event: 'approved' }],
    });
  });

  it('lists at most five decisions, and counts past any page size', async () => {
    for (let i = 0; i < 7; i++) await live(owner);
    for (let i = 0; i < 3; i++) await post(owner);
    const res = (await get(owner, '/api/my-ads-overview')).json();
    expect(res.counts).toEqual({ unpaid: 3, in_review: 0, approved: 7, rejected: 0, disabled: 0, expired: 0 });
    expect(res.online).toBe(7);
    expect(res.recent).toHaveLength(5);
    const times = res.recent.map((r: { at: string }) => r.at);
    expect(times).toEqual(times.toSorted().toReversed());
  });

  it('lists staff decisions on edits of live ads among the decisions on ads, newest first; not edits still waiting or replaced, nor another user’s', async () => {
    const first = await liveTitled(owner, 'First live ad');
    const second = await liveTitled(owner, 'Second live ad');
    const editApprovedAt = await decideEdit(await editLive(owner, first, 'First ad, a better title'), 'approve');
    // A rejection of a new ad comes between the two edit decisions.
    const walletId = await fundedUsd(ctx, owner, 1500);
    const turnedDown = await post(owner, 'Turned down at review');
    expect((await pay(ctx, owner, turnedDown, walletId)).statusCode).toBe(200);
    ctx.clock.advance(MINUTE);
    expect((await decide(ctx, admin, [turnedDown], 'reject', 'The photos show someone else.')).json()).toEqual({ updated: 1 });
    const rejectedAt = ctx.clock.now().toISOString();
    const editRejectedAt = await decideEdit(await editLive(owner, second, 'Second ad, a rejected title'), 'reject', 'The new photo shows a face.');
    // Not decisions: an edit replaced by a later one (superseded), and the one still waiting.
    await editLive(owner, first, 'First ad, replaced before review');
    await editLive(owner, first, 'First ad, still waiting for review');
    expect(
      (await ctx.app.deps.db.selectFrom('ad_revisions').select('status').where('ad_id', '=', first.id).orderBy('created_at').execute()).map((r) => r.status),
    ).toEqual(['approved', 'superseded', 'pending']);
    // Another user's edits, approved and rejected, after all of the owner's.
    const theirs = await liveTitled(other, 'Their own live ad');
    const theirApprovedAt = await decideEdit(await editLive(other, theirs, 'Their ad, a better title'), 'approve');
    const theirRejectedAt = await decideEdit(await editLive(other, theirs, 'Their ad, a rejected title'), 'reject', 'Not their phone.');

    expect((await get(owner, '/api/my-ads-overview')).json().recent).toEqual([
      // The rejected edit: the live ad keeps its title.
      { adId: second.id, title: 'Second live ad', event: 'edit_rejected', at: editRejectedAt, reason: 'The new photo shows a face.' },
      { adId: turnedDown, title: 'Turned down at review', event: 'rejected', at: rejectedAt, reason: 'The photos show someone else.' },
      // The approved edit: the ad's title is the edit's.
      { adId: first.id, title: 'First ad, a better title', event: 'edit_approved', at: editApprovedAt, reason: null },
      { adId: second.id, title: 'Second live ad', event: 'approved', at: second.at, reason: null },
      { adId: first.id, title: 'First ad, a better title', event: 'approved', at: first.at, reason: null },
    ]);
    expect((await get(other, '/api/my-ads-overview')).json().recent).toEqual([
      { adId: theirs.id, title: 'Their ad, a better title', event: 'edit_rejected', at: theirRejectedAt, reason: 'Not their phone.' },
      { adId: theirs.id, title: 'Their ad, a better title', event: 'edit_approved', at: theirApprovedAt, reason: null },
      { adId: theirs.id, title: 'Their ad, a better title', event: 'approved', at: theirs.at, reason: null },
    ]);
  });

  it('dates an ad staff took down by when they did, not by an edit of it approved afterwards', async () => {
    const ad = await liveTitled(owner, 'Taken down later');
    const revision = await editLive(owner, ad, 'Taken down, edited before');
    // Staff take the ad down while its edit waits, then approve the edit (the owner gets no "changes live" mail).
    ctx.clock.advance(MINUTE);
    const off = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-status-approved-ads',
      headers: { cookie: admin.cookie },
      payload: { adIds: [ad.id], status: 'disabled' },
    });
    expect(off.json()).toEqual({ updated: 1 });
    const disabledAt = ctx.clock.now().toISOString();
    const editApprovedAt = await decideEdit(revision, 'approve');
    expect(editApprovedAt > disabledAt).toBe(true);
    expect((await get(owner, '/api/my-ads-overview')).json().recent).toEqual([
      { adId: ad.id, title: 'Taken down, edited before', event: 'edit_approved', at: editApprovedAt, reason: null },
      { adId: ad.id, title: 'Taken down, edited before', event: 'disabled', at: disabledAt, reason: null },
    ]);
  });

  it('keeps at most five decisions across ads and edits, and forgets the edits of a deleted ad', async () => {
    const ads = [await liveTitled(owner, 'Live ad number one'), await liveTitled(owner, 'Live ad number two'), await liveTitled(owner, 'Live ad number three')];
    const rejectedAt = await decideEdit(await editLive(owner, ads[0], 'Number one, rejected edit'), 'reject', 'Not allowed.');
    const approvedAt = [
      await decideEdit(await editLive(owner, ads[0], 'Number one, approved edit'), 'approve'),
      await decideEdit(await editLive(owner, ads[1], 'Number two, approved edit'), 'approve'),
      await decideEdit(await editLive(owner, ads[2], 'Number three, approved edit'), 'approve'),
    ];
    const recent = (await get(owner, '/api/my-ads-overview')).json().recent as { adId: string; event: string; at: string }[];
    expect(recent.map((r) => [r.adId, r.event, r.at])).toEqual([
      [ads[2].id, 'edit_approved', approvedAt[2]],
      [ads[1].id, 'edit_approved', approvedAt[1]],
      [ads[0].id, 'edit_approved', approvedAt[0]],
      [ads[0].id, 'edit_rejected', rejectedAt],
      [ads[2].id, 'approved', ads[2].at],
    ]);

    // Deleted, an ad takes its edits' decisions with it: the older approvals show again.
    ctx.clock.advance(MINUTE);
    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ads[0].id}`, headers: { cookie: owner.cookie } });
    expect(del.statusCode, del.body).toBe(200);
    expect(await ctx.app.deps.db.selectFrom('ad_revisions').select('status').where('ad_id', '=', ads[0].id).execute()).toHaveLength(2);
    const after = (await get(owner, '/api/my-ads-overview')).json().recent as { adId: string; event: string; at: string }[];
    expect(after.map((r) => [r.adId, r.event, r.at])).toEqual([
      [ads[2].id, 'edit_approved', approvedAt[2]],
      [ads[1].id, 'edit_approved', approvedAt[1]],
      [ads[2].id, 'approved', ads[2].at],
      [ads[1].id, 'approved', ads[1].at],
    ]);
  });

  it('is empty for a user without ads, and 401 without a session', async () => {
    expect((await get(owner, '/api/my-ads-overview')).json()).toEqual({
      counts: { unpaid: 0, in_review: 0, approved: 0, rejected: 0, disabled: 0, expired: 0 },
      online: 0,
      recent: [],
    });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/my-ads-overview' })).statusCode).toBe(401);
  });
});
