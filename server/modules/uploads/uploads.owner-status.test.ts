import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, placeIn, type Place } from '../ads/ads.testkit.ts';

// PRODUCT §2: "pending (new; may sign in, fund wallets and post ads, but no ad of theirs is
// published until the user is approved)"; §5: an ad is public only when "its owner approved". Its
// photos follow: withheld from the public (404, never cached) while the account is not approved,
// still shown to the owner (their own ad's preview) and staff; they answer once it is approved.

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

const fetch = async (url: string, who?: TestUser) => (await ctx.app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} })).statusCode;
const setStatus = async (u: TestUser, status: string) => {
  const r = await ctx.app.inject({
    method: 'POST',
    url: '/api/master/update-user-status',
    headers: { cookie: master.cookie },
    payload: { userId: u.id, status },
  });
  expect(r.statusCode, r.body).toBe(200);
};
const photoOf = async (adId: string, who: TestUser) =>
  (await ctx.app.inject({ method: 'GET', url: `/api/ads/${adId}`, headers: { cookie: who.cookie } })).json().ad.photos[0].url as string;

describe('a photo of an account that is not approved', () => {
  it('of an ad staff approved while the account is pending: the owner and staff see it, the public once the account is approved', async () => {
    const newcomer = await makeUser(ctx);
    const ad = await liveAd(ctx, newcomer, admin, ny);
    const photo = await photoOf(ad.id, newcomer);
    expect({ guest: await fetch(photo), owner: await fetch(photo, newcomer), staff: await fetch(photo, admin) }).toEqual({
      guest: 404,
      owner: 200,
      staff: 200,
    });
    await setStatus(newcomer, 'approved');
    expect(await fetch(photo)).toBe(200);
  });

  it('of a live ad whose account a master puts back to pending: withheld from the public until approved again', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAd(ctx, owner, admin, ny);
    const photo = await photoOf(ad.id, owner);
    expect(await fetch(photo)).toBe(200);
    await setStatus(owner, 'pending');
    expect({ guest: await fetch(photo), owner: await fetch(photo, owner) }).toEqual({ guest: 404, owner: 200 });
    await setStatus(owner, 'approved');
    expect(await fetch(photo)).toBe(200);
  });

  it('pending, then suspended, then approved: answers the public only at the end', async () => {
    const newcomer = await makeUser(ctx);
    const ad = await liveAd(ctx, newcomer, admin, ny);
    const photo = await photoOf(ad.id, newcomer);
    await setStatus(newcomer, 'suspended');
    expect(await fetch(photo)).toBe(404);
    await setStatus(newcomer, 'approved');
    expect(await fetch(photo)).toBe(200);
  });
});
