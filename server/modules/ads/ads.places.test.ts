import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { renewalReminders } from './ads.reminders.ts';
import { decide, fundedUsd, goodFields, liveAd, pay, placeIn, postAd, adForm, type Place } from './ads.testkit.ts';

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
let ny2: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
  ny2 = await placeIn(ctx, 'ny', 1);
});
afterEach(async () => ctx.close());

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const setPlace = (payload: object) => ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-state-cities', headers: { cookie: admin.cookie }, payload });

// A city or state staff disable takes no new ads, and its ads show nowhere: what the ad lifecycle
// does with an ad there, besides posting, paying, moving and renewing (refused: ads.test.ts,
// ads.payment.test.ts).
describe('ads in a place disabled meanwhile', () => {
  // Approving would start its paid term where it shows nowhere: it stays in review until moved.
  it('does not approve (start the paid term of) an ad whose city was disabled while it was in review', async () => {
    const ad = await postAd(ctx, owner, ny);
    const wallet = await fundedUsd(ctx, owner, 1500);
    expect((await pay(ctx, owner, ad.id, wallet)).statusCode).toBe(200);
    expect((await setPlace({ stateId: 'ny', cityIds: [ny.cityId], enabled: false })).statusCode).toBe(200);
    const res = await decide(ctx, admin, [ad.id], 'approve');
    const mine = (await get(`/api/ads/${ad.id}`, owner.cookie)).json().ad;
    expect({ updated: res.json().updated, status: mine.status }).toEqual({ updated: 0, status: 'in_review' });
    // its owner moves it to an open city: approved then
    const moved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/update-ad-location/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: { stateId: 'ny', cityId: ny2.cityId },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await decide(ctx, admin, [ad.id], 'approve')).json().updated).toBe(1);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(200);
  });

  // Approving the edit would move the live ad off the site: the edit stays pending.
  it('approving an edit that moves a live ad into a since-disabled city does not hide the live ad', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const fields = goodFields(ny2, { title: 'Elegant companion uptown now' });
    const fd = adForm({ ...fields, keepPhotos: JSON.stringify((ad.photos as { url: string }[]).map((p) => p.url)) }, []);
    const edit = await ctx.app.inject({ method: 'PUT', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie }, payload: fd });
    expect(edit.statusCode, edit.body).toBe(200);
    const revId = edit.json().ad.revision?.id;
    expect(revId).toBeTruthy();
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(200); // live before
    expect((await setPlace({ stateId: 'ny', cityIds: [ny2.cityId], enabled: false })).statusCode).toBe(200);
    expect((await decide(ctx, admin, [revId], 'approve')).json().updated).toBe(0);
    expect((await get(`/api/ads/${ad.id}`)).json().ad.title).toBe(ad.title); // still live, unchanged
    // the city enabled again: the edit is approved and the ad moves
    expect((await setPlace({ stateId: 'ny', cityIds: [ny2.cityId], enabled: true })).statusCode).toBe(200);
    expect((await decide(ctx, admin, [revId], 'approve')).json().updated).toBe(1);
    expect((await get(`/api/ads/${ad.id}`)).json().ad.title).toBe('Elegant companion uptown now');
  });

  // Renewing it there is refused (ad.city_disabled): no "renew it" e-mail, as for a suspended owner's ad.
  it('sends no "renew it" reminder for an ad whose city is disabled (its renewal is refused)', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    expect((await setPlace({ stateId: 'ny', cityIds: [ny.cityId], enabled: false })).statusCode).toBe(200);
    const row = await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow();
    ctx.clock.set(new Date(Date.parse(row.expires_at!) - 2 * 86_400_000));
    const wallet = await fundedUsd(ctx, owner, 1500);
    const renew = await ctx.app.inject({ method: 'PUT', url: `/api/renew-ad/${ad.id}`, headers: { cookie: owner.cookie }, payload: { walletId: wallet } });
    expect(renew.json().code).toBe('ad.city_disabled');
    const report = await renewalReminders(ctx.app.deps);
    expect(report.message).toBe('0 reminder(s) sent');
    // enabled again: reminded then
    expect((await setPlace({ stateId: 'ny', cityIds: [ny.cityId], enabled: true })).statusCode).toBe(200);
    expect((await renewalReminders(ctx.app.deps)).message).toBe('1 reminder(s) sent');
  });
});
