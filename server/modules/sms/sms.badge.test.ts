import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';

// "Phone verified" on ads: an ad's JSON says phoneVerified when its phone is its owner's verified
// phone, in every view (public ad page, listings, search, the owner's and staff's lists), and the
// public answers, which are cached until the public set changes, follow a verification at once.
// No Textbelt key is set: codes go to the outbox, where the test reads them as a user would read the text.

let ctx: TestContext;
let admin: TestUser;
let owner: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
  owner = await makeUser(ctx, { status: 'approved' });
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => ctx.close());

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

/** Verifies `phone` for the user the way they would: ask for a code, read it from the outbox text, confirm. */
async function verify(u: TestUser, phone: string): Promise<void> {
  const ask = await ctx.app.inject({ method: 'POST', url: '/api/phone-verification', payload: { phone }, headers: { cookie: u.cookie } });
  expect(ask.statusCode).toBe(202);
  const dir = path.join(ctx.dataDir, 'outbox');
  const latest = fs.readdirSync(dir).sort().at(-1)!;
  const code = /\b(\d{6})\b/.exec(fs.readFileSync(path.join(dir, latest), 'utf8'))![1];
  fs.rmSync(path.join(dir, latest));
  const ok = await ctx.app.inject({ method: 'POST', url: '/api/phone-verification/confirm', payload: { code }, headers: { cookie: u.cookie } });
  expect(ok.json()).toEqual({ phone, phoneVerified: true });
}

async function badges(adId: string) {
  const listing = (await get(`/api/listings?state=${ny.stateSlug}&city=${ny.citySlug}`)).json();
  const search = (await get('/api/search?query=punctual')).json();
  const mine = (await get('/api/all-ads-by-user', owner.cookie)).json();
  const staff = (await get('/api/admin/get-approved-ads', admin.cookie)).json();
  const find = (ads: { id: string; phoneVerified: boolean }[]) => ads.find((a) => a.id === adId)?.phoneVerified;
  return {
    page: (await get(`/api/ads/${adId}`)).json().ad.phoneVerified,
    listing: find(listing.ads),
    search: find(search.ads),
    mine: find(mine.approvedAds),
    staff: find(staff.approvedAds),
  };
}
const all = (v: boolean) => ({ page: v, listing: v, search: v, mine: v, staff: v });

describe('the phone verified badge', () => {
  it('shows on the ads whose phone is the owner’s verified phone, and follows changes at once', async () => {
    const ad = await liveAd(ctx, owner, admin, ny); // phone (212) 555-0142
    const other = await liveAd(ctx, owner, admin, ny, { phone: '+1 646 555 0100' });
    expect(await badges(ad.id)).toEqual(all(false)); // and now cached

    await verify(owner, '+12125550142');
    expect(await badges(ad.id)).toEqual(all(true));
    expect(await badges(other.id)).toEqual(all(false));

    // another number verified: the first ad loses its badge, the second gets it
    await verify(owner, '+16465550100');
    expect(await badges(ad.id)).toEqual(all(false));
    expect(await badges(other.id)).toEqual(all(true));
  });

  it('is the owner’s: someone else verifying the number changes nothing', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const bob = await makeUser(ctx, { status: 'approved' });
    await verify(bob, '+12125550142');
    expect(await badges(ad.id)).toEqual(all(false));
  });

  it('is in the owner’s view of an ad not yet public', async () => {
    await verify(owner, '+12125550142');
    const ad = await postAd(ctx, owner, ny);
    expect(ad.phoneVerified).toBe(true);
    const mine = (await get('/api/all-ads-by-user', owner.cookie)).json();
    expect(mine.pendingAds.map((a: { id: string; phoneVerified: boolean }) => [a.id, a.phoneVerified])).toEqual([[ad.id, true]]);
    expect((await get(`/api/ads/${ad.id}`, owner.cookie)).json().ad.phoneVerified).toBe(true);
  });
});
