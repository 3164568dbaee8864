import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, decide, fundedUsd, goodFields, liveAd, pay, placeIn, postAd, postAdRaw, type Place } from './ads.testkit.ts';
import { blockPhoto, getAs } from '../moderation/moderation.testkit.ts';

// "Staff never review their own ad: another admin or a master must" (ads.policy.ts) holds also for
// an account the product links to the reviewer (the staff user page's "related accounts"): a
// shared phone or photo. Otherwise a second provider account bypasses it. A shared network alone
// does not count: staff share an office's address with people who have nothing to do with them.

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
afterEach(async () => ctx.close());

/** An ad of `owner`, paid and waiting in review. */
const inReview = async (owner: TestUser, over: Record<string, string> = {}) => {
  const ad = await postAd(ctx, owner, ny, over);
  expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
  return ad.id;
};
const statusOf = async (id: string) => (await ctx.app.deps.db.selectFrom('ads').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const refused = (res: Awaited<ReturnType<typeof decide>>) => ({ status: res.statusCode, code: res.json().code });
const setStatus = (staff: TestUser, adIds: string[], status: 'approved' | 'disabled') =>
  ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-approved-ads', headers: { cookie: staff.cookie }, payload: { adIds, status } });

describe('reviewing an ad of an account linked to the reviewer', () => {
  it('refuses an admin approving the ad of a second account with the phone of their own ad; the whole batch, and another admin may', async () => {
    await liveAd(ctx, admin, master, ny, { phone: '(212) 555-0177' }); // the admin's own listing
    const second = await makeUser(ctx, { status: 'approved' });
    const linked = await inReview(second, { phone: '(212) 555-0177', title: 'Another elegant companion' });
    const unrelated = await inReview(await makeUser(ctx, { status: 'approved' }), { phone: '(212) 555-0199' });
    const { body: page } = await getAs(ctx, master, `/api/admin/get-user/${second.id}`);
    expect((page.related as { id: string }[]).map((r) => r.id)).toContain(admin.id); // the product knows
    expect(refused(await decide(ctx, admin, [unrelated, linked], 'approve'))).toEqual({ status: 409, code: 'ad.review_own_ad' });
    expect([await statusOf(unrelated), await statusOf(linked)]).toEqual(['in_review', 'in_review']);
    expect((await decide(ctx, await asAdmin(ctx), [unrelated, linked], 'approve')).json()).toEqual({ updated: 2 });
  });

  it('refuses it for the same photo (a duplicate flag), whatever the phone', async () => {
    const photo = await blockPhoto(3);
    const own = await postAdRaw(ctx, admin, goodFields(ny, { phone: '(212) 555-0101' }), [photo]);
    expect(own.statusCode).toBe(201);
    const second = await makeUser(ctx, { status: 'approved' });
    const posted = await postAdRaw(ctx, second, goodFields(ny, { phone: '(212) 555-0102' }), [photo]);
    expect(posted.statusCode).toBe(201);
    const id = posted.json().ad.id as string;
    expect((await pay(ctx, second, id, await fundedUsd(ctx, second, 1500))).statusCode).toBe(200);
    expect(refused(await decide(ctx, admin, [id], 'approve'))).toEqual({ status: 409, code: 'ad.review_own_ad' });
  });

  it("refuses it for the reviewer's verified phone on the other account's ad, the reviewer having no ad", async () => {
    await ctx.app.deps.db
      .updateTable('users')
      .set({ phone: '+12125550177', phone_verified_at: ctx.clock.now().toISOString() })
      .where('id', '=', admin.id)
      .execute();
    const id = await inReview(await makeUser(ctx, { status: 'approved' }), { phone: '(212) 555-0177' });
    expect(refused(await decide(ctx, admin, [id], 'approve'))).toEqual({ status: 409, code: 'ad.review_own_ad' });
  });

  // A busy reviewer refused a batch of many must learn which ads to leave out: the 409 names them.
  it('names every ad of a refused batch it refuses for (the ids sent, an edit’s own), and changes nothing', async () => {
    await ctx.app.deps.db
      .updateTable('users')
      .set({ phone: '+12125550177', phone_verified_at: ctx.clock.now().toISOString() })
      .where('id', '=', admin.id)
      .execute();
    const second = await makeUser(ctx, { status: 'approved' });
    const live = await liveAd(ctx, second, master, ny, { phone: '(212) 555-0177' });
    const form = adForm(goodFields(ny, { phone: '(212) 555-0177', title: 'Another elegant companion, new words' }), []);
    form.append('keepPhotos', JSON.stringify([(live.photos as { url: string }[])[0].url]));
    expect((await ctx.app.inject({ method: 'PUT', url: `/api/ads/${live.id}`, headers: { cookie: second.cookie }, payload: form })).statusCode).toBe(200);
    const queue = (await getAs(ctx, master, '/api/admin/get-pending-ads')).body.pendingAds as { id: string; revisionOf?: string }[];
    const edit = queue.find((a) => a.revisionOf === live.id)!.id;
    const before = await inReview(await makeUser(ctx, { status: 'approved' }), { phone: '(212) 555-0198' });
    const linked = await inReview(second, { phone: '(212) 555-0177', title: 'A second elegant companion' });
    const own = await inReview(admin, { phone: '(212) 555-0166' });
    const after = await inReview(await makeUser(ctx, { status: 'approved' }), { phone: '(212) 555-0199' });
    const res = await decide(ctx, admin, [before, linked, edit, own, after], 'approve');
    expect({ status: res.statusCode, code: res.json().code, params: res.json().params }).toEqual({
      status: 409,
      code: 'ad.review_own_ad',
      params: { adIds: [linked, edit, own].join(',') },
    });
    expect([await statusOf(before), await statusOf(linked), await statusOf(own), await statusOf(after)]).toEqual([
      'in_review',
      'in_review',
      'in_review',
      'in_review',
    ]);
    expect((await getAs(ctx, master, '/api/admin/get-pending-ads')).body.pendingAds.some((a: { id: string }) => a.id === edit)).toBe(true);
    // Re-enabling too: the one linked ad of the batch is named.
    const other = await liveAd(ctx, await makeUser(ctx, { status: 'approved' }), master, ny, { phone: '(212) 555-0155' });
    expect((await setStatus(master, [live.id, other.id], 'disabled')).json()).toEqual({ updated: 2 });
    expect((await setStatus(admin, [other.id, live.id], 'approved')).json().params).toEqual({ adIds: live.id });
  });

  it('refuses re-enabling a linked account’s ad, and lets the reviewer take it down', async () => {
    await liveAd(ctx, admin, master, ny, { phone: '(212) 555-0177' });
    const second = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAd(ctx, second, master, ny, { phone: '(212) 555-0177' });
    expect((await setStatus(admin, [ad.id], 'disabled')).json()).toEqual({ updated: 1 });
    expect(refused(await setStatus(admin, [ad.id], 'approved'))).toEqual({ status: 409, code: 'ad.review_own_ad' });
    expect((await setStatus(master, [ad.id], 'approved')).json()).toEqual({ updated: 1 });
  });

  // A link its owner makes alone (cart ads, never paid, with the phones staff show on their own
  // public ads) must not shield a live ad from take-down or its next ad from rejection: a link only
  // stops what helps the owner (approving, enabling).
  it('lets staff disable and reject the ads of a provider who copied their public phones into cart ads', async () => {
    await liveAd(ctx, admin, master, ny, { phone: '(212) 555-0111' });
    await liveAd(ctx, master, admin, ny, { phone: '(212) 555-0122' });
    const provider = await makeUser(ctx, { status: 'approved' });
    const live = await liveAd(ctx, provider, master, ny, { phone: '(212) 555-0133' });
    await postAd(ctx, provider, ny, { phone: '(212) 555-0111', title: 'Shield one listing' });
    await postAd(ctx, provider, ny, { phone: '(212) 555-0122', title: 'Shield two listing' });
    expect({ admin: (await setStatus(admin, [live.id], 'disabled')).statusCode, master: (await setStatus(master, [live.id], 'disabled')).statusCode }).toEqual({
      admin: 200,
      master: 200,
    });
    expect(await statusOf(live.id)).toBe('disabled');
    const pending = await inReview(provider, { phone: '(212) 555-0144' });
    expect((await decide(ctx, admin, [pending], 'reject', 'Not what the photos show.')).json()).toEqual({ updated: 1 });
    expect(refused(await setStatus(admin, [live.id], 'approved'))).toEqual({ status: 409, code: 'ad.review_own_ad' });
  });

  it('lets an admin approve the ad of an account that shares only a network with them', async () => {
    await liveAd(ctx, admin, master, ny, { phone: '(212) 555-0177' });
    const colleague = await makeUser(ctx, { status: 'approved' });
    for (const u of [admin, colleague]) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '198.51.100.7', payload: { email: u.email, password: u.password } });
      expect(res.statusCode).toBe(200);
    }
    const { body: page } = await getAs(ctx, master, `/api/admin/get-user/${colleague.id}`);
    expect(page.related).toEqual([expect.objectContaining({ id: admin.id, reasons: ['ip'] })]);
    const id = await inReview(colleague, { phone: '(212) 555-0188' });
    expect((await decide(ctx, admin, [id], 'approve')).json()).toEqual({ updated: 1 });
  });
});

describe('a rejection reason', () => {
  it('is stored, audited and mailed without control or bidi characters', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const id = await inReview(owner);
    const res = await decide(ctx, admin, [id], 'reject', 'Photos \u202Eedisni\u202C\u0008\u0007\u001b[2K\r\n not yours.');
    expect(res.json()).toEqual({ updated: 1 });
    const clean = 'Photos edisni[2K not yours.';
    const ad = await ctx.app.deps.db.selectFrom('ads').select('rejection_reason').where('id', '=', id).executeTakeFirstOrThrow();
    const audit = await ctx.app.deps.db.selectFrom('audit_log').select('after_json').where('action', '=', 'ad.reject').executeTakeFirstOrThrow();
    expect([ad.rejection_reason, (JSON.parse(audit.after_json!) as { reason: string }).reason]).toEqual([clean, clean]);
    const mail = ctx.mailer.sent.find((m) => m.to === owner.email)!;
    expect(mail.text).toContain(clean);
    for (const c of ['\u202E', '\u202C', '\u0008', '\u0007', '\u001b']) expect(mail.text).not.toContain(c);
  });
});
