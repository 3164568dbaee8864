import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, decide, goodFields, liveAd, placeIn, type Place } from './ads.testkit.ts';

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

const photo = (color: string) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
const photoUrls = (ad: Record<string, unknown>) => JSON.stringify((ad.photos as { url: string }[]).map((p) => p.url));
const edit = async (u: TestUser, id: string, fields: Record<string, string>, photos: Buffer[] = []) =>
  ctx.app.inject({ method: 'PUT', url: `/api/ads/${id}`, headers: { cookie: u.cookie }, payload: adForm(fields, photos) });
const pendingRevisionId = async (adId: string) => {
  const q = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } })).json();
  return (q.pendingAds as { id: string; revisionOf?: string }[]).find((a) => a.revisionOf === adId)!.id;
};
const mailsTo = (u: TestUser) => ctx.mailer.sent.filter((m) => m.to === u.email);

// PRODUCT §5: an approved ad's edit is reviewed while the approved version stays. What the owner is
// told of the decision must be true of what visitors see: an ad may show nowhere meanwhile (staff
// took it down, the owner's account is not approved yet, it is offline or past its term).
describe('what an owner is told after a decision on an edit', () => {
  it('a rejected edit of an ad staff disabled meanwhile does not say the ad "stays online"', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAd(ctx, owner, admin, ny, { title: 'The approved original title' });
    const res = await edit(owner, ad.id, { ...goodFields(ny, { title: 'A revised title for review' }), keepPhotos: photoUrls(ad) }, [await photo('#0a0')]);
    expect(res.statusCode, res.body).toBe(200);
    const rev = await pendingRevisionId(ad.id);
    const off = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-status-approved-ads',
      headers: { cookie: master.cookie },
      payload: { adIds: [ad.id], status: 'disabled' },
    });
    expect(off.json()).toEqual({ updated: 1 });
    expect((await ctx.app.inject({ url: `/api/ads/${ad.id}` })).statusCode).toBe(404);
    expect((await decide(ctx, admin, [rev], 'reject', 'The new photo is not allowed')).json()).toEqual({ updated: 1 });
    const last = mailsTo(owner).at(-1)!;
    expect(last.subject).toBe('Your changes were not approved: A revised title for review');
    expect(last.text).not.toContain('stays online');
    expect(last.text).toContain('Your ad keeps the version it had before. You can edit it again.');
  });

  it('an approved edit of an ad that shows nowhere (a pending owner’s, one taken down) does not say visitors see it; of a live ad it does', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const hidden = await liveAd(ctx, pending, admin, ny, { title: 'The approved original title' });
    expect((await ctx.app.inject({ url: `/api/ads/${hidden.id}` })).statusCode).toBe(404); // hidden: owner pending
    expect(mailsTo(pending).at(-1)!.text).toContain('once your account is approved');
    const res = await edit(pending, hidden.id, { ...goodFields(ny, { title: 'A revised title for review' }), keepPhotos: photoUrls(hidden) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await decide(ctx, admin, [await pendingRevisionId(hidden.id)], 'approve')).json()).toEqual({ updated: 1 });
    expect((await ctx.app.inject({ url: `/api/ads/${hidden.id}` })).statusCode).toBe(404); // still hidden
    const told = mailsTo(pending).at(-1)!;
    expect(told.subject).toBe('Your changes were approved: A revised title for review');
    expect(told.text).not.toContain('what visitors see');
    expect(told.text).toContain('The ad is not showing on XG Marketplace at the moment (My ads says why)');
    expect(told.text).toContain('/admin/dashboard/my-ads');

    // taken down by staff: told the same (no mail at all before)
    const owner = await makeUser(ctx, { status: 'approved' });
    const down = await liveAd(ctx, owner, admin, ny, { title: 'Another approved title' });
    expect((await edit(owner, down.id, { ...goodFields(ny, { title: 'Another revised title' }), keepPhotos: photoUrls(down) })).statusCode).toBe(200);
    const rev = await pendingRevisionId(down.id);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-status-approved-ads',
      headers: { cookie: master.cookie },
      payload: { adIds: [down.id], status: 'disabled' },
    });
    expect((await decide(ctx, admin, [rev], 'approve')).json()).toEqual({ updated: 1 });
    expect(mailsTo(owner).at(-1)!.subject).toBe('Your changes were approved: Another revised title');

    // live: "now what visitors see", with a link to the ad
    const live = await liveAd(ctx, owner, admin, ny, { title: 'A third approved title' });
    expect((await edit(owner, live.id, { ...goodFields(ny, { title: 'A third revised title' }), keepPhotos: photoUrls(live) })).statusCode).toBe(200);
    expect((await decide(ctx, admin, [await pendingRevisionId(live.id)], 'approve')).json()).toEqual({ updated: 1 });
    const shown = mailsTo(owner).at(-1)!;
    expect(shown.subject).toBe('Your changes are live: A third revised title');
    expect(shown.text).toContain('are now what visitors see');
    expect(shown.text).toContain(`/ad/${live.id}`);
  });
});
