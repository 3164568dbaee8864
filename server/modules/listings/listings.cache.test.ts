import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { fundedUsd, liveAd, pay, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';
import { PublicReads } from './listings.repository.ts';

// The detail cache (AdCache) and the remembered ads_public_version: every way the public view of
// an ad changes must show at once, and a preview of a hidden ad must never reach anyone else.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => {
  await ctx.close();
});

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const detail = async (id: string, cookie?: string) => {
  const res = await get(`/api/ads/${id}`, cookie);
  return { status: res.statusCode, ad: res.statusCode === 200 ? res.json().ad : null, type: res.headers['content-type'] };
};
/** Changes a column no trigger watches, behind the services' back: only a cached body still shows the old value. */
const setPhoneBehindTheBack = (id: string, phone: string) => ctx.app.deps.database.sqlite.prepare('UPDATE ads SET phone = ? WHERE id = ?').run(phone, id);

describe('ad detail cache', () => {
  it('serves a public ad from the cache until its entry expires, with the same body and type', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const first = await detail(ad.id);
    expect(first.status).toBe(200);
    expect(first.type).toBe('application/json; charset=utf-8');
    const phone = first.ad.phone;
    setPhoneBehindTheBack(ad.id, '5550001111'); // a write, but not one that changes the public set
    // the write is seen (the write counter moved), the version is re-read, unchanged: the cached body stays
    expect(await detail(ad.id)).toEqual(first);
    expect((await detail(ad.id)).ad.phone).toBe(phone);
    ctx.clock.advance(61_000); // past the entry's lifetime
    expect((await detail(ad.id)).ad.phone).toBe('5550001111');
  });

  it('drops an entry when the ad is bumped, switched offline, disabled by staff, or its owner suspended', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(120_000); // bumps are refused right after publishing
    const wallet = await fundedUsd(ctx, owner, 300);
    const before = (await detail(ad.id)).ad; // cached now, and the bump comes at the same instant
    expect(
      (await ctx.app.inject({ method: 'PUT', url: `/api/bump-ad/${ad.id}`, headers: { cookie: owner.cookie }, payload: { walletId: wallet } })).statusCode,
    ).toBe(200);
    const bumped = (await detail(ad.id)).ad;
    expect(bumped.bumpedAt > before.bumpedAt).toBe(true);

    await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${ad.id}`, headers: { cookie: owner.cookie }, payload: { online: false } });
    expect((await detail(ad.id)).status).toBe(404);
    expect((await detail(ad.id, owner.cookie)).ad.online).toBe(false); // the owner's own preview
    expect((await detail(ad.id)).status).toBe(404); // ... which was not cached for others
    await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${ad.id}`, headers: { cookie: owner.cookie }, payload: { online: true } });
    expect((await detail(ad.id)).ad.online).toBe(true);

    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-status-approved-ads',
      headers: { cookie: admin.cookie },
      payload: { adIds: [ad.id], status: 'disabled' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await detail(ad.id)).status).toBe(404);
    expect((await detail(ad.id, admin.cookie)).ad.status).toBe('disabled');
    expect((await detail(ad.id)).status).toBe(404);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-status-approved-ads',
      headers: { cookie: admin.cookie },
      payload: { adIds: [ad.id], status: 'approved' },
    });
    expect((await detail(ad.id)).status).toBe(200);

    await ctx.app.deps.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', owner.id).execute();
    expect((await detail(ad.id)).status).toBe(404);
    await ctx.app.deps.db.updateTable('users').set({ status: 'approved' }).where('id', '=', owner.id).execute();
    expect((await detail(ad.id)).status).toBe(200);
    await ctx.app.deps.db.updateTable('cities').set({ enabled: 0 }).where('id', '=', ny.cityId).execute();
    expect((await detail(ad.id)).status).toBe(404);
  });

  it('stops serving an ad whose time ran out, with no write at all', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    expect((await detail(ad.id)).status).toBe(200);
    ctx.clock.advance(30 * DAY_MS + 1);
    expect((await detail(ad.id)).status).toBe(404);
  });

  it('never caches an owner or staff preview of a hidden ad', async () => {
    const unpaid = await postAd(ctx, owner, ny);
    const review = await postAd(ctx, owner, ny);
    await pay(ctx, owner, review.id, await fundedUsd(ctx, owner, 3000));
    const stranger = await makeUser(ctx, { status: 'approved' });
    for (const id of [unpaid.id, review.id]) {
      expect((await detail(id, owner.cookie)).status).toBe(200);
      expect((await detail(id, admin.cookie)).status).toBe(200);
      expect((await detail(id)).status).toBe(404);
      expect((await detail(id, stranger.cookie)).status).toBe(404);
    }
  });

  it('answers unknown ids and bad ids as before', async () => {
    const res = await get('/api/ads/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'listings.ad_not_found', message: 'Ad not found.' });
    const bad = await get(`/api/ads/${'x'.repeat(41)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation.invalid', params: { field: 'id' } });
  });
});

describe('remembered public version', () => {
  const versionRow = () => (ctx.app.deps.database.sqlite.prepare('SELECT v FROM ads_public_version').get() as { v: number }).v;

  it('follows every write on the connection, including one made in a transaction that rolls back', async () => {
    const reads = new PublicReads(ctx.app.deps.database.sqlite);
    const sqlite = ctx.app.deps.database.sqlite;
    const v0 = reads.version();
    expect(v0).toBe(versionRow());
    sqlite.prepare('UPDATE ads_public_version SET v = v + 5').run();
    expect(reads.version()).toBe(v0 + 5);
    const rolledBack = sqlite.transaction(() => {
      sqlite.prepare('UPDATE ads_public_version SET v = v + 1').run();
      // inside the transaction: a number no cache entry can match (the rows read may still roll back)
      expect(reads.version()).toBeLessThan(0);
      expect(reads.version()).not.toBe(reads.version());
      throw new Error('roll back');
    });
    expect(() => rolledBack()).toThrow('roll back');
    expect(reads.version()).toBe(v0 + 5);
    expect(reads.version()).toBe(versionRow());
  });
});
