import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Value from 'typebox/value';
import { sql } from 'kysely';
import { asAdmin, cookieOf, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { openDatabase } from '../../core/db.ts';
import { migrate } from '../../core/migrate.ts';
import { loadConfig } from '../../core/config.ts';
import { AdCardSchema } from '../../../contract/api/ads.ts';
import { fundedUsd, liveAd, ownerAdminNy, pay, type Place, placeIn, postAd } from '../ads/ads.testkit.ts';
import { PublicReads } from './listings.repository.ts';
import { PublicChanges } from './listings.changes.ts';
import { Doorkeeper } from './listings.answers.ts';
import { heapBytes, TaggedCache } from './listings.cache.ts';
import { packSeqs, SearchMatches, toMatchExpression } from './listings.search.ts';
import { searchWords } from '../../../contract/rules.ts';
import { Rng } from '../../test/fuzz/rng.ts';

// The public answers' caches (listings.cache.ts, listings.answers.ts) and what drops their entries
// (the change log of migration 0011, listings.tags.ts): every way the public view of an ad changes
// must show at once, a change must leave every answer it cannot touch cached (counted through the
// caches' hits and misses), and a preview of a hidden ad must never reach anyone else.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ({ ctx, owner, admin, ny } = await ownerAdminNy());
});
afterEach(async () => {
  await ctx.close();
});

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const detail = async (id: string, cookie?: string) => {
  const res = await get(`/api/ads/${id}`, cookie);
  return { status: res.statusCode, ad: res.statusCode === 200 ? res.json().ad : null, type: res.headers['content-type'] };
};
const ids = async (url: string) => {
  const res = await get(url);
  return res.statusCode === 200 ? (res.json().ads as { id: string }[]).map((a) => a.id) : [];
};
const stats = () => ctx.app.deps.services.listings.caches.get('api')!.stats;
/** Asked for twice: an answer is kept from its second asking on (Doorkeeper). */
const warm = async (url: string) => {
  await get(url);
  return get(url);
};
/** Hits and misses of the API's cache while `fn` runs. */
async function counted(fn: () => Promise<unknown>): Promise<{ hits: number; misses: number }> {
  const before = { ...stats() };
  await fn();
  return { hits: stats().hits - before.hits, misses: stats().misses - before.misses };
}
const setOnline = (id: string, online: boolean) =>
  ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${id}`, headers: { cookie: owner.cookie }, payload: { online } });

describe('ad detail cache', () => {
  it('serves a public ad from the cache until its entry expires, with the same body and type', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const first = await detail(ad.id);
    expect(first.status).toBe(200);
    expect(first.type).toBe('application/json; charset=utf-8');
    expect(await counted(async () => expect(await detail(ad.id)).toEqual(first))).toEqual({ hits: 0, misses: 1 }); // kept from the second asking on
    // a write, but not of anything the public sees: the change log says nothing, the entry stays
    ctx.app.deps.database.sqlite.prepare('UPDATE ads SET updated_at = ? WHERE id = ?').run('2030-01-01T00:00:00.000Z', ad.id);
    expect(await counted(async () => expect(await detail(ad.id)).toEqual(first))).toEqual({ hits: 1, misses: 0 });
    ctx.clock.advance(61_000); // past the entry's lifetime
    expect(await counted(() => detail(ad.id))).toEqual({ hits: 0, misses: 1 });
  });

  it('drops an entry when anything the public sees of the ad changes, even by hand', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    await detail(ad.id);
    ctx.app.deps.database.sqlite.prepare('UPDATE ads SET phone = ? WHERE id = ?').run('+12125550999', ad.id);
    expect((await detail(ad.id)).ad.phone).toBe('+12125550999');
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

  it('stops serving an ad whose time ran out, with no write at all (410: it is gone for good)', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    expect((await detail(ad.id)).status).toBe(200);
    ctx.clock.advance(30 * DAY_MS + 1);
    expect((await detail(ad.id)).status).toBe(410);
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

describe('narrow invalidation', () => {
  it('a change in one city leaves the other cities, the other ads and the searches it cannot match cached', async () => {
    const tx = await placeIn(ctx, 'tx');
    const inNy = await liveAd(ctx, owner, admin, ny, { title: 'Evenings in the big apple' });
    const inTx = await liveAd(ctx, owner, admin, tx, {
      title: 'Evenings in the lone star',
      description: 'Bluebonnet fields, rodeo nights and barbecue dinners, by appointment.',
    });
    const txList = `/api/listings?state=texas&city=${tx.citySlug}&type=female-escorts`;
    const nyList = `/api/listings?state=new-york&city=${ny.citySlug}&type=female-escorts`;
    const others = [txList, `/api/ads/${inTx.id}`, '/api/search?query=bluebonnet', '/api/listings?state=texas'];
    ctx.clock.advance(120_000); // bumps are refused right after publishing
    const wallet = await fundedUsd(ctx, owner, 300);
    for (const url of [...others, nyList]) await warm(url);
    expect(await counted(async () => Promise.all(others.map((u) => get(u))))).toEqual({ hits: 4, misses: 0 });

    for (const change of [
      () => setOnline(inNy.id, false),
      () => setOnline(inNy.id, true),
      () => ctx.app.inject({ method: 'PUT', url: `/api/bump-ad/${inNy.id}`, headers: { cookie: owner.cookie }, payload: { walletId: wallet } }),
    ]) {
      expect((await change()).statusCode).toBe(200);
      expect(await counted(async () => Promise.all(others.map((u) => get(u))))).toEqual({ hits: 4, misses: 0 });
      expect(await counted(() => get(nyList))).toEqual({ hits: 0, misses: 1 });
    }
    // a move into Texas touches Texas
    const moved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/update-ad-location/${inNy.id}`,
      headers: { cookie: owner.cookie },
      payload: { stateId: tx.stateId, cityId: tx.cityId },
    });
    expect(moved.statusCode).toBe(200);
    expect(await ids(txList)).toEqual([inNy.id, inTx.id]);
    expect(await ids(nyList)).toEqual([]);
  });

  it('an ad entering the public set drops the searches its words, type and state can match, and only those', async () => {
    await liveAd(ctx, owner, admin, ny, {
      title: 'Relaxing massage studio',
      description: 'Swedish and deep tissue massage in a calm studio, by appointment only.',
    });
    const searches = [
      '/api/search?query=redhead',
      '/api/search?query=massage',
      '/api/search?query=redhead&type=female_rub',
      '/api/search?query=redhead&state=texas',
    ];
    for (const url of searches) await warm(url);
    const ad = await liveAd(ctx, owner, admin, ny, {
      title: 'Elegant redhead companion',
      description: 'Fluent in French and Italian, dinner dates and travel. Discreet.',
    });
    expect(await counted(() => get(searches[1]))).toEqual({ hits: 1, misses: 0 });
    expect(await counted(() => get(searches[2]))).toEqual({ hits: 1, misses: 0 }); // another type
    expect(await counted(() => get(searches[3]))).toEqual({ hits: 1, misses: 0 }); // another state
    expect(await ids(searches[0])).toEqual([ad.id]);
    // and leaving it drops the searches that held it
    await get(searches[0]);
    await setOnline(ad.id, false);
    expect(await ids(searches[0])).toEqual([]);
  });

  it('the numbers per place follow ads entering and leaving, not bumps', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const counts = ['/api/home', '/api/users-ads-aggregate/us/female_esc', '/api/users-ads-aggregate/us/female_esc?state=new-york'];
    ctx.clock.advance(120_000); // bumps are refused right after publishing
    const wallet = await fundedUsd(ctx, owner, 300);
    for (const url of counts) await warm(url);
    await ctx.app.inject({ method: 'PUT', url: `/api/bump-ad/${ad.id}`, headers: { cookie: owner.cookie }, payload: { walletId: wallet } });
    expect(await counted(async () => Promise.all(counts.map((u) => get(u))))).toEqual({ hits: 3, misses: 0 });
    await setOnline(ad.id, false);
    expect((await get('/api/home')).json().topStates).toEqual([]);
    expect((await get('/api/users-ads-aggregate/us/female_esc?state=new-york')).json().locations).toEqual([]);
  });

  it('drops everything when changes were missed (pruned before they were read) or a place changed', async () => {
    await liveAd(ctx, owner, admin, ny);
    const url = '/api/listings?state=texas';
    await get(url);
    const sqlite = ctx.app.deps.database.sqlite;
    const last = (sqlite.prepare('SELECT max(seq) AS s FROM ads_public_changes').get() as { s: number }).s;
    sqlite.prepare("INSERT INTO ads_public_changes (seq, kind, ad_id) VALUES (?, 'ad', 'elsewhere')").run(last + 5);
    expect(await counted(() => get(url))).toEqual({ hits: 0, misses: 1 });
    expect(await counted(() => get(url))).toEqual({ hits: 1, misses: 0 });
    await ctx.app.deps.db.updateTable('cities').set({ enabled: 0 }).where('slug', '=', 'nowhere-at-all').execute(); // no row: no change
    expect(await counted(() => get(url))).toEqual({ hits: 1, misses: 0 });
    const city = await placeIn(ctx, 'wy');
    await ctx.app.deps.db.updateTable('cities').set({ enabled: 0 }).where('id', '=', city.cityId).execute();
    expect(await counted(() => get(url))).toEqual({ hits: 0, misses: 1 });
  });
});

describe('exact totals and lifetimes', () => {
  it('an ad whose time ran out leaves the list and its total at once, and a page past the end is 404', async () => {
    const first = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(DAY_MS);
    const second = await liveAd(ctx, owner, admin, ny);
    const page = (n: number) => get(`/api/listings?state=new-york&city=${ny.citySlug}&type=female-escorts&pageSize=1&page=${n}`);
    expect((await page(1)).json()).toMatchObject({ total: 2, ads: [{ id: second.id }] });
    expect((await page(2)).json()).toMatchObject({ total: 2, ads: [{ id: first.id }] });
    expect((await page(3)).statusCode).toBe(404);
    // 30 days after the first approval: the counters still count it (expire-ads has not run) ...
    ctx.clock.advance(29 * DAY_MS + 1);
    expect((await page(1)).json()).toMatchObject({ total: 1, ads: [{ id: second.id }] });
    expect((await page(2)).json()).toEqual({ code: 'listings.page_not_found', message: 'There is no such page of results.' });
    expect((await get('/api/home')).json().types[0]).toEqual({ listingType: 'female_esc', count: 1 });
    expect((await get('/api/search?query=companion')).json()).toMatchObject({ total: 1, ads: [{ id: second.id }] });
  });
});

describe("a state's cities, most ads first", () => {
  it('stay in order when ads whose time ran out are taken off (before expire-ads ran): by number, then by name', async () => {
    const big = ny; // New York City
    const small = await placeIn(ctx, 'ny', 1); // Brooklyn: its name comes first
    await liveAd(ctx, owner, admin, big);
    ctx.clock.advance(DAY_MS);
    await liveAd(ctx, owner, admin, big);
    await liveAd(ctx, owner, admin, small);
    const order = async () =>
      ((await get('/api/users-ads-aggregate/us/female_esc?state=new-york')).json().locations as { citySlug: string; count: number }[]).map(
        (l) => `${l.citySlug}:${l.count}`,
      );
    expect(await order()).toEqual([`${big.citySlug}:2`, `${small.citySlug}:1`]);
    ctx.clock.advance(29 * DAY_MS + 1); // the first ad ran out; the counters still count it
    expect(await order()).toEqual([`${small.citySlug}:1`, `${big.citySlug}:1`]);
  });
});

describe("a type's states, most ads first", () => {
  it('stay in order when ads whose time ran out are taken off (before expire-ads ran): by number, then by name', async () => {
    const tx = await placeIn(ctx, 'tx');
    await liveAd(ctx, owner, admin, tx);
    ctx.clock.advance(DAY_MS);
    await liveAd(ctx, owner, admin, tx);
    await liveAd(ctx, owner, admin, ny);
    const order = async () =>
      ((await get('/api/users-ads-aggregate/us/female_esc/states')).json().states as { stateSlug: string; count: number }[]).map(
        (s) => `${s.stateSlug}:${s.count}`,
      );
    expect(await order()).toEqual(['texas:2', 'new-york:1']);
    ctx.clock.advance(29 * DAY_MS + 1); // the first Texas ad ran out; the counters still count it
    expect(await order()).toEqual(['new-york:1', 'texas:1']);
  });
});

describe('a renewal of an ad whose time ran out', () => {
  it('counts it again at once, before expire-ads ran (the numbers per place, the home page, a type by state)', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const wallet = await fundedUsd(ctx, owner, 10_000);
    const numbers = async () => ({
      home: (await get('/api/home')).json().types[0].count,
      cities: (await get('/api/users-ads-aggregate/us/female_esc?state=new-york')).json().locations.length,
      states: (await get('/api/users-ads-aggregate/us/female_esc/states')).json().states.length,
    });
    expect(await numbers()).toEqual({ home: 1, cities: 1, states: 1 });
    ctx.clock.advance(30 * DAY_MS + 1); // ran out; the counters still count it (expire-ads has not run)
    expect(await numbers()).toEqual({ home: 0, cities: 0, states: 0 }); // and these are kept
    const login = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: owner.email, password: owner.password } }); // a month on: signed out
    const renewed = await ctx.app.inject({ method: 'PUT', url: `/api/renew-ad/${ad.id}`, headers: { cookie: cookieOf(login) }, payload: { walletId: wallet } });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(await numbers()).toEqual({ home: 1, cities: 1, states: 1 });
    expect((await get(`/api/listings?state=new-york`)).json()).toMatchObject({ total: 1, ads: [{ id: ad.id }] });
  });
});

describe('compressed answers', () => {
  it('keeps and sends a large answer brotli-compressed to a browser that accepts it, plain to others', async () => {
    for (let i = 0; i < 8; i++) await liveAd(ctx, owner, admin, ny, { title: `Evening companion number ${i}` });
    const url = `/api/listings?state=new-york&city=${ny.citySlug}`;
    const plain = await get(url);
    const br = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(plain.json().ads).toHaveLength(8);
    // at quality 1: smaller than quality 0 (the cache holds more) for about the same time
    const at = (quality: number) =>
      brotliCompressSync(plain.rawPayload, {
        params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_LGWIN]: 18, [constants.BROTLI_PARAM_SIZE_HINT]: plain.rawPayload.length },
      }).length;
    expect(br.rawPayload.length).toBe(at(1));
    expect(at(1)).toBeLessThan(at(0));
    // kept in a block of its own, not as a view into zlib's 64 kB output block
    const kept = ctx.app.deps.services.listings.caches.get('api')!.get(url, ctx.clock.now().getTime())!.value as { br: Buffer };
    expect(kept.br.buffer.byteLength).toBe(kept.br.byteLength);
    // a small answer (an ad) goes as it is
    const ad = await ctx.app.inject({ method: 'GET', url: `/api/ads/${plain.json().ads[0].id}`, headers: { 'accept-encoding': 'br' } });
    expect(ad.headers['content-encoding']).toBeUndefined();
  });

  it('never sends brotli to a client whose Accept-Encoding refuses it (q=0), kept or not', async () => {
    for (let i = 0; i < 8; i++) await liveAd(ctx, owner, admin, ny, { title: `Elegant companion number ${i} downtown` });
    const url = `/api/listings?state=new-york&city=${ny.citySlug}`;
    const plain = (await get(url)).body;
    // a first asking (sent, not kept), the second (kept), and one from the cache
    for (const accept of ['gzip, br;q=0', 'br;q=0, gzip', 'BR;Q=0.000, *', '*;q=0', 'identity', '', 'gzip, deflate, br;q=0, zstd']) {
      for (let i = 0; i < 3; i++) {
        const res = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding'], accept).toBeUndefined();
        expect(res.body, accept).toBe(plain);
      }
    }
    // a weight above 0, or `*`, takes it
    for (const accept of ['gzip;q=1, br;q=0.5', '*', 'gzip, *;q=0.1', 'Br']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding'], accept).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(plain);
    }
  });

  it('compresses a large answer for a browser, keeps only that from its second asking on, and gives others the plain body', async () => {
    for (let i = 0; i < 8; i++) await liveAd(ctx, owner, admin, ny, { title: `Morning companion number ${i}` });
    const url = `/api/listings?state=new-york&city=${ny.citySlug}`;
    const api = ctx.app.deps.services.listings.caches.get('api')!;
    const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const before = { ...api.stats };
    // asked for once: sent compressed, not kept
    const once = await ctx.app.inject({ method: 'GET', url, headers: browser });
    expect(once.headers['content-encoding']).toBe('br');
    expect(once.headers.vary).toMatch(/accept-encoding/);
    expect(api.has(url)).toBe(false);
    const first = await ctx.app.inject({ method: 'GET', url, headers: browser });
    expect(api.stats.misses - before.misses).toBe(2);
    expect(brotliDecompressSync(first.rawPayload).equals(brotliDecompressSync(once.rawPayload))).toBe(true);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/accept-encoding/);
    const kept = api.get(url, ctx.clock.now().getTime())!.value as { raw: unknown; br: Buffer; bytes: number };
    expect(kept.raw).toBeNull();
    expect(kept.br.equals(first.rawPayload)).toBe(true);
    expect(kept.bytes).toBe(first.rawPayload.length);
    const plain = await get(url);
    expect(api.stats.hits - before.hits).toBeGreaterThanOrEqual(2); // the lookup above and this request
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(brotliDecompressSync(first.rawPayload).toString());
    expect(plain.json().ads).toHaveLength(8);
  });

  it('while the event loop is saturated, sends an answer it does not keep as it is, and still compresses what it keeps', async () => {
    const load = { busy: true, close() {} };
    const { ctx: busy, owner: o, admin: a, ny: place } = await ownerAdminNy({ load });
    try {
      for (let i = 0; i < 8; i++) await liveAd(busy, o, a, place, { title: `Weekend companion number ${i}` });
      const url = `/api/listings?state=new-york&city=${place.citySlug}`;
      const api = busy.app.deps.services.listings.caches.get('api')!;
      const ask = () => busy.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      const once = await ask(); // asked for once: not kept, so not compressed either
      expect(once.headers['content-encoding']).toBeUndefined();
      expect(once.rawPayload.length).toBeGreaterThan(2048);
      expect(once.json().ads).toHaveLength(8);
      expect(api.has(url)).toBe(false);
      const kept = await ask(); // the second asking is kept: compressed, busy or not
      expect(kept.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(kept.rawPayload).toString()).toBe(once.body);
      expect((api.get(url, busy.clock.now().getTime())!.value as { br: Buffer }).br.equals(kept.rawPayload)).toBe(true);
      load.busy = false; // the loop has time again: a first asking is compressed
      const other = await busy.app.inject({ method: 'GET', url: `${url}&pageSize=19`, headers: { 'accept-encoding': 'br' } });
      expect(other.headers['content-encoding']).toBe('br');
    } finally {
      await busy.close();
    }
  });

  it('keeps a large answer asked for without brotli as bytes of its own outside the JavaScript heap, sent again unchanged', async () => {
    for (let i = 0; i < 8; i++) await liveAd(ctx, owner, admin, ny, { title: `Late night companion number ${i}` });
    const url = `/api/listings?state=new-york&city=${ny.citySlug}`;
    const first = await warm(url);
    expect(first.rawPayload.length).toBeGreaterThan(2048);
    const api = ctx.app.deps.services.listings.caches.get('api')!;
    const kept = api.get(url, ctx.clock.now().getTime())!.value as { raw: unknown; br: Buffer | null; bytes: number };
    expect(kept.br).toBeNull(); // compressed only once asked for again
    expect(Buffer.isBuffer(kept.raw)).toBe(true);
    const raw = kept.raw as Buffer;
    expect(raw.buffer.byteLength).toBe(raw.byteLength); // not a view into Node's shared 8 kB pool
    expect(kept.bytes).toBe(raw.byteLength);
    expect(api.weight).toBeGreaterThanOrEqual(raw.byteLength);
    const again = await get(url); // plain: no accept-encoding
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.body).toBe(first.body);
    // then a browser asks: compressed once, kept so, sent compressed
    const browser = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(browser.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(browser.rawPayload).toString()).toBe(first.body);
    const now = api.get(url, ctx.clock.now().getTime())!.value as { raw: unknown; br: Buffer | null; bytes: number };
    expect(now.raw).toBeNull();
    expect(now.br!.equals(browser.rawPayload)).toBe(true);
    expect(now.bytes).toBe(browser.rawPayload.length);
    expect(now.br!.buffer.byteLength).toBe(now.br!.byteLength);
    // an ad (small) stays a string
    const ad = await warm(`/api/ads/${first.json().ads[0].id}`);
    expect(typeof (api.get(`ad:${first.json().ads[0].id}`, ctx.clock.now().getTime())!.value as { raw: unknown }).raw).toBe('string');
    expect(ad.statusCode).toBe(200);
  });
});

describe('cards', () => {
  it('are the contract’s AdCard, built by SQLite from the same row as the ad itself', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, { title: 'A card to compare here' });
    const card = (await get(`/api/listings?state=new-york&city=${ny.citySlug}`)).json().ads[0];
    expect(Value.Check(AdCardSchema, card)).toBe(true);
    const full = (await detail(ad.id)).ad;
    const p = full.photos[0];
    expect(card).toEqual({
      id: full.id,
      listingType: full.listingType,
      title: full.title,
      age: full.age,
      state: { name: full.state.name, slug: full.state.slug },
      city: { name: full.city.name, slug: full.city.slug },
      phoneVerified: full.phoneVerified,
      photo: { url: p.url, width: p.width, height: p.height, thumbUrl: p.thumbUrl, thumbWidth: p.thumbWidth, thumbHeight: p.thumbHeight },
      bumpedAt: full.bumpedAt,
    });
    expect((await get('/api/search?query=compare')).json().ads).toEqual([card]);
  });
});

describe("the public reads' statements", () => {
  it('bind every value behind a CAST, so SQLite keeps their plans instead of preparing them again on every run', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    // Every public read: lists of each scope (a page past the first too), search, an ad, the numbers per place, the sitemap.
    // One ad a page: a full page counts its list's total (count:…).
    const list = `/api/listings?pageSize=1&state=${ny.stateSlug}&city=${ny.citySlug}`;
    for (const url of [
      `${list}&type=female-escorts`,
      list,
      `${list}&type=female-escorts&page=2`,
      `/api/listings?pageSize=1&state=${ny.stateSlug}&type=female-escorts`,
      `/api/listings?pageSize=1&state=${ny.stateSlug}`,
      '/api/listings?pageSize=1&type=female-escorts',
      '/api/listings?pageSize=1',
      '/api/search?query=elegant',
      `/api/ads/${ad.id}`,
      '/api/ads/nope',
      '/api/users-ads-aggregate/us/female-escorts',
      `/api/users-ads-aggregate/us/female-escorts?state=${ny.stateSlug}`,
      '/api/users-ads-aggregate/us/female-escorts/states',
      '/api/home',
      '/sitemap.xml',
      `/sitemaps/ads-${ny.stateSlug}-1.xml`,
    ]) {
      expect((await get(url)).statusCode, url).toBeLessThan(500);
    }
    expect((await setOnline(ad.id, false)).statusCode).toBe(200);
    expect((await get(list)).statusCode).toBe(200); // reads the change log
    const reads = ctx.app.deps.services.listings.reads;
    const prepared = new Map(reads.prepared().map((p) => [p.key, p.source]));
    for (const key of [
      'cards:ct',
      'cards:c',
      'cards:st',
      'cards:s',
      'cards:t',
      'cards:',
      'count:ct',
      'count:st',
      'count:t',
      'detail',
      'search',
      'cards-by-seqs',
      'changes',
      'state-counts-of-type',
      'type-counts',
      'state-counts',
      'aggregate',
      'aggregate-state',
      'state-ads-slice',
    ]) {
      expect([...prepared.keys()]).toContain(key);
    }
    // A bare `?` in LIMIT, OFFSET or an equality the planner reads makes SQLite 3.54 prepare the
    // statement again on every run (listings.repository.ts); only the search's own values stay bare.
    for (const [key, source] of prepared) {
      expect(source.replace(/CAST\(\? AS (?:TEXT|INTEGER)\)|MATCH \?|json_each\(\?\)/g, ''), key).not.toContain('?');
    }
    // The plans the tables and indexes were made for (migrations 0011 and 0015).
    const db = ctx.app.deps.database.sqlite;
    const plan = (key: string) => {
      const source = prepared.get(key)!;
      const args = Array.from(source.matchAll(/\?/g), () => null);
      return (db.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...args) as { detail: string }[]).map((r) => r.detail).join('; ');
    };
    // None reads a whole table row by row (a CAST of the wrong type would make an index unusable).
    for (const key of prepared.keys()) expect(plan(key), key).not.toMatch(/\bSCAN (ads|ads_cards|ads_public_changes|ads_gone|cities|states|users)\b(?! USING)/);
    expect(plan('cards:ct')).toMatch(/SEARCH ads_cards USING PRIMARY KEY \(city_id=\? AND listing_type=\?\)/);
    expect(plan('cards:c')).toMatch(/SEARCH ads_cards USING INDEX ads_cards_city \(city_id=\?\)/);
    expect(plan('cards:st')).toMatch(/SEARCH ads_cards USING INDEX ads_cards_state_type \(state_id=\? AND listing_type=\?\)/);
    expect(plan('cards:s')).toMatch(/SEARCH ads_cards USING INDEX ads_cards_state \(state_id=\?\)/);
    expect(plan('cards:t')).toMatch(/SEARCH ads_cards USING INDEX ads_cards_type \(listing_type=\?\)/);
    expect(plan('detail')).toMatch(/SEARCH a USING INDEX sqlite_autoindex_ads_1 \(id=\?\)/);
    expect(plan('changes')).toMatch(/SEARCH ads_public_changes USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    // The counters: a type's states, a type's total, a state's total of a type, the totals by type
    // and by state, each from an index that holds the counts (no row lookup per city).
    for (const key of ['state-counts-of-type', 'count:t', 'count:st', 'type-counts', 'state-counts']) {
      expect(plan(key), key).toMatch(/USING COVERING INDEX ads_public_counts_(type|state)\b/);
    }
  });
});

describe('the change log', () => {
  it('is read only after a write, and nothing read inside a transaction of the same connection is cached', async () => {
    // An in-memory database: reads share the writer's connection (no read-only handle).
    const { sqlite } = openDatabase(':memory:');
    migrate(sqlite);
    const reads = new PublicReads(sqlite);
    const changes = new PublicChanges(reads, sqlite);
    let batches = 0;
    changes.subscribe(() => batches++);
    expect(changes.sync()).toBe(true);
    sqlite.prepare("INSERT INTO ads_public_changes (kind) VALUES ('place')").run();
    expect(changes.sync()).toBe(true);
    expect(batches).toBe(1);
    expect(changes.sync()).toBe(true); // no write since: not read again
    expect(batches).toBe(1);
    sqlite.transaction(() => {
      sqlite.prepare("INSERT INTO ads_public_changes (kind) VALUES ('place')").run();
      expect(changes.sync()).toBe(false);
    })();
    expect(changes.sync()).toBe(true);
    expect(batches).toBe(2);
    sqlite.close();
  });

  it('logs what a change touched, on both sides of a move', async () => {
    const tx = await placeIn(ctx, 'tx');
    const ad = await liveAd(ctx, owner, admin, ny);
    const sqlite = ctx.app.deps.database.sqlite;
    const last = (sqlite.prepare('SELECT max(seq) AS s FROM ads_public_changes').get() as { s: number }).s;
    await sql`UPDATE ads SET city_id = ${tx.cityId}, state_id = ${tx.stateId} WHERE id = ${ad.id}`.execute(ctx.app.deps.db);
    expect(
      sqlite.prepare('SELECT kind, ad_id, old_city, old_state, new_city, new_state, old_seq = new_seq AS same FROM ads_public_changes WHERE seq > ?').all(last),
    ).toEqual([{ kind: 'ad', ad_id: ad.id, old_city: ny.cityId, old_state: 'ny', new_city: tx.cityId, new_state: 'tx', same: 1 }]);
  });
});

describe('the tagged cache', () => {
  it('keeps at most its entries and bytes, least recently used out first, and drops by tag', () => {
    const cache = new TaggedCache<string>(10, 100);
    const put = (key: string, size: number, tags: string[] = []) => cache.set(key, { value: 'x'.repeat(size), until: 1000, tags });
    put('a', 40, ['ad:1']);
    put('b', 40, ['ls:c1:*']);
    expect(cache.get('a', 0)?.value).toHaveLength(40); // a is now the most recently used
    put('c', 40, ['ad:1']);
    expect([cache.get('a', 0) && 'a', cache.get('b', 0) && 'b', cache.get('c', 0) && 'c']).toEqual(['a', undefined, 'c']);
    expect(cache.weight).toBe(80);
    cache.drop('ad:1');
    expect(cache.size).toBe(0);
    expect(cache.weight).toBe(0);
    put('d', 10);
    expect(cache.get('d', 999)).toBeDefined();
    expect(cache.get('d', 1000)).toBeUndefined(); // its time is up
    expect(cache.stats).toMatchObject({ dropped: 2 });
  });

  it('weighs a parsed value by what it holds, so a budget bounds the aggregates it keeps', () => {
    const cities = (n: number, state: string) =>
      Array.from({ length: n }, (_, i) => ({ id: `${state}-${i}`, name: `City ${i} of ${state}`, slug: `city-${i}`, stateName: state, count: i }));
    const value = { cities: cities(1000, 'ca') };
    const weight = heapBytes(value);
    // Never less than its JSON: every character is a byte at least, and each object and field has a header on top.
    expect(weight).toBeGreaterThan(JSON.stringify(value).length);
    // Each city: 32 + 5 fields × 8 + the four strings' headers and characters.
    const city = value.cities[7];
    expect(heapBytes(city)).toBe(32 + 5 * 8 + [city.id, city.name, city.slug, city.stateName].reduce((n, s) => n + 16 + s.length, 0));
    const cache = new TaggedCache<unknown>(500, 4 * weight + 1);
    for (const state of ['ca', 'ny', 'tx', 'fl', 'pa', 'oh']) cache.set(`agg:${state}`, { value: { cities: cities(1000, state) }, until: 1000, tags: [] });
    expect(cache.size).toBeLessThanOrEqual(4); // counted as 1 kB each, all six stayed
    expect(cache.weight).toBeLessThanOrEqual(4 * weight + 1);
  });

  it('gives a used entry a second chance: a hit marks it, the oldest unmarked entry goes, and a pass over all ends', () => {
    const cache = new TaggedCache<string>(3);
    const put = (key: string) => cache.set(key, { value: key, until: 1000, tags: [`t:${key}`] });
    const kept = () => ['a', 'b', 'c', 'd', 'e'].filter((k) => cache.get(k, 0));
    put('a');
    put('b');
    put('c');
    cache.get('a', 0); // a used: passed over once
    put('d'); // b, the oldest unused, goes
    expect(kept()).toEqual(['a', 'c', 'd']); // (every kept entry is now marked used)
    put('e'); // all used: one pass unmarks them all, then the oldest goes; three remain
    expect(cache.size).toBe(3);
    expect(cache.weight).toBe(3);
    cache.drop('t:e');
    cache.drop('t:a');
    cache.drop('t:c');
    cache.drop('t:d');
    expect(cache.size).toBe(0);
  });
});

describe('eviction over long runs (a model of each policy predicts every step)', () => {
  // A seeded generator: the runs are the same on every machine.
  const rng = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;

  it('the tagged cache evicts exactly as a second-chance clock over insertion order would, through tens of thousands of evictions, drops and re-sets', () => {
    const rand = rng(7);
    const cache = new TaggedCache<string>(64);
    // The model: keys in the order they were kept, each with its "used" mark.
    let model: { key: string; used: boolean; tag: string }[] = [];
    const evict = () => {
      for (;;) {
        const first = model.shift()!;
        if (!first.used) return;
        first.used = false;
        model.push(first);
      }
    };
    for (let step = 0; step < 60_000; step++) {
      const key = `k${Math.floor(rand() * 200)}`;
      const tag = `t${Math.floor(rand() * 20)}`;
      const r = rand();
      if (r < 0.5) {
        const hit = cache.get(key, 0) !== undefined;
        const m = model.find((e) => e.key === key);
        expect(hit, `step ${step}: get ${key}`).toBe(m !== undefined);
        if (m) m.used = true;
      } else if (r < 0.97) {
        cache.set(key, { value: key, until: 1, tags: [tag] });
        model = model.filter((e) => e.key !== key);
        model.push({ key, used: false, tag });
        while (model.length > 64) evict();
      } else {
        cache.drop(tag);
        model = model.filter((e) => e.tag !== tag);
      }
      if (step % 97 === 0 || step > 59_900) {
        const kept = model.map((e) => e.key).sort();
        const inCache = Array.from({ length: 200 }, (_, i) => `k${i}`)
          .filter((k) => cache.has(k))
          .sort();
        expect(inCache, `step ${step}`).toEqual(kept);
      }
    }
    expect(cache.size).toBe(model.length);
  });

  it("the searches' lists go least recently used first, through thousands of evictions, hits and changes", async () => {
    const rand = rng(11);
    const matches = new SearchMatches(ctx.app.deps.services.listings.reads, { entries: 50, bytes: 10_000_000 });
    let model: string[] = []; // least recently used first
    for (let step = 0; step < 20_000; step++) {
      const key = `m${Math.floor(rand() * 150)}`;
      if (rand() < 0.4) {
        const hit = matches.get(key) !== undefined;
        expect(hit, `step ${step}: get ${key}`).toBe(model.includes(key));
        if (hit) model = [...model.filter((k) => k !== key), key];
      } else {
        const out = matches.set(key, packSeqs([3, 2, 1]), [key], {});
        model = [...model.filter((k) => k !== key), key];
        const expected = model.slice(0, Math.max(0, model.length - 50));
        model = model.slice(expected.length);
        expect(out, `step ${step}: set ${key}`).toEqual(expected);
      }
      if (step % 101 === 0) {
        expect(
          Array.from({ length: 150 }, (_, i) => `m${i}`)
            .filter((k) => matches.has(k))
            .sort(),
          `step ${step}`,
        ).toEqual([...model].sort());
      }
    }
  });
});

describe("the caches' memory (CACHE_MB)", () => {
  const budgets = (c: TestContext) => {
    const listings = c.app.deps.services.listings;
    return {
      api: listings.caches.get('api')!.budget,
      values: listings.caches.get('values')!.budget,
      searches: listings.matches.budget,
      cards: listings.cards.cache.budget,
      pages: c.app.deps.services.site.pages.budget,
    };
  };

  it('is shared out from the setting: the default keeps the measured sizes, a smaller setting shrinks every cache', async () => {
    const MiB = 1024 * 1024;
    expect(ctx.app.deps.config.cacheMb).toBe(60);
    expect(budgets(ctx)).toEqual({
      api: { bytes: 24 * MiB, entries: 50_000 },
      values: { bytes: 4 * MiB, entries: 500 },
      searches: { bytes: 12 * MiB, entries: 30_000 },
      cards: { bytes: 3 * MiB, entries: 8_000 },
      pages: { bytes: 16 * MiB, entries: 10_000 },
    });
    const small = await createTestApp({ env: { CACHE_MB: '9' } });
    try {
      // 9 of 60 MB: each cache gets that share of its bytes and of its entries.
      const of = (n: number) => Math.round((n * 9) / 60);
      expect(budgets(small)).toEqual({
        api: { bytes: of(24 * MiB), entries: of(50_000) },
        values: { bytes: of(4 * MiB), entries: of(500) },
        searches: { bytes: of(12 * MiB), entries: of(30_000) },
        cards: { bytes: of(3 * MiB), entries: of(8_000) },
        pages: { bytes: of(16 * MiB), entries: of(10_000) },
      });
    } finally {
      await small.close();
    }
  });

  it('refuses a setting that is not a whole number of megabytes from 4', () => {
    for (const bad of ['0', '3', '1.5', 'lots', '-45'])
      expect(() => loadConfig({ CACHE_MB: bad, DATA_DIR: ctx.app.deps.config.dataDir })).toThrow(/CACHE_MB must be a whole number from 4 to 65536/);
    expect(loadConfig({ CACHE_MB: '128', DATA_DIR: ctx.app.deps.config.dataDir }).cacheMb).toBe(128);
  });
});

describe("searches' match lists (SearchMatches)", () => {
  it('keeps the numbers exactly, 4 bytes each, and 8 past 2^31 - 1', () => {
    const small = packSeqs([900, 35, 7]);
    expect(small).toBeInstanceOf(Int32Array);
    expect(Array.from(small)).toEqual([900, 35, 7]);
    const large = packSeqs([2 ** 31, 2 ** 31 - 1, 3]);
    expect(large).toBeInstanceOf(Float64Array);
    expect(Array.from(large)).toEqual([2 ** 31, 2 ** 31 - 1, 3]);
    expect(Array.from(packSeqs([]))).toEqual([]);
  });

  it('holds at most its budget of lists and bytes, the least recently used going first', () => {
    const reads = ctx.app.deps.services.listings.reads;
    const byCount = new SearchMatches(reads, { entries: 3, bytes: 1_000_000 });
    const list = (n: number) => packSeqs(Array.from({ length: n }, (_, i) => n - i));
    for (const m of ['a', 'b', 'c']) expect(byCount.set(m, list(5), [m], {})).toEqual([]);
    expect(byCount.get('a')).toBeDefined(); // now the most recently used
    expect(byCount.set('d', list(5), ['d'], {})).toEqual(['b']);
    expect(byCount.get('b')).toBeUndefined();
    expect(byCount.size).toBe(3);
    expect(byCount.stats).toEqual({ hits: 1, misses: 1, refused: 0 });
    // kept again under the same key: replaced, not counted twice
    expect(byCount.set('a', list(9), ['a'], {})).toEqual([]);
    expect(Array.from(byCount.get('a')!)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);

    const byBytes = new SearchMatches(reads, { entries: 1000, bytes: 3000 });
    expect(byBytes.set('x', list(200), ['x'], {})).toEqual([]); // 800 bytes of numbers and its bookkeeping
    expect(byBytes.set('y', list(200), ['y'], {})).toEqual([]);
    const weight = byBytes.weight;
    expect(weight).toBeGreaterThan(2 * 800);
    expect(weight).toBeLessThanOrEqual(3000);
    // a list of 500 (2,000 bytes) pushes both out
    expect(byBytes.set('z', list(500), ['z'], {})).toEqual(['x', 'y']);
    expect(byBytes.size).toBe(1);
    // a list larger than the whole budget is not kept: the caller must not keep answers built on it
    expect(byBytes.set('huge', list(1000), ['huge'], {})).toEqual(['huge']);
    expect(byBytes.get('huge')).toBeUndefined();
    expect(byBytes.get('z')).toBeDefined();
  });

  it('a full list (the newest 200 matches) is kept when an older matching ad enters; a list that is not full, or one it would enter, is dropped', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, {
      title: 'Elegant redhead companion',
      description: 'Fluent in French and Italian, dinner dates and travel. Discreet.',
    });
    const row = ctx.app.deps.database.sqlite.prepare('SELECT state_id, city_id, listing_type, expires_at FROM ads WHERE id = ?').get(ad.id) as Record<
      string,
      string
    >;
    const matches = new SearchMatches(ctx.app.deps.services.listings.reads, { entries: 100, bytes: 1_000_000 });
    const from = (top: number, n: number, step = 1) => packSeqs(Array.from({ length: n }, (_, i) => top - i * step));
    matches.set('newer', from(5000, 200), ['redhead'], {}); // full, every match newer than the ad
    matches.set('reaching', from(1398, 200, 2), ['redhead'], {}); // full, its last (1000) older than the ad
    matches.set('short', packSeqs([9000, 8000, 7000]), ['redhead'], {}); // all the matches there are
    matches.set('other-words', from(1398, 200, 2), ['zebra'], {});
    const entering = {
      seq: 1,
      kind: 'ad' as const,
      ad_id: ad.id,
      old_seq: null,
      old_city: null,
      old_state: null,
      old_type: null,
      new_seq: 1001,
      new_city: row.city_id,
      new_state: row.state_id,
      new_type: row.listing_type as 'female_esc',
      new_expires: row.expires_at,
    };
    expect(matches.onChanges([entering]).sort()).toEqual(['reaching', 'short']);
    expect(matches.get('newer')).toBeDefined();
    expect(matches.get('other-words')).toBeDefined();
    // an ad the full list holds leaving it drops it, whatever its age
    const leaving = { ...entering, seq: 2, old_seq: 4900, old_city: row.city_id, old_state: row.state_id, old_type: entering.new_type, new_seq: null };
    expect(matches.onChanges([leaving])).toEqual(['newer']);
  });

  it('over a full list (more matches than the 200 a search counts), random flips and bumps never leave a page stale: a model predicts each', async () => {
    // 230 public ads whose titles all hold "harbor", written at once; they then go offline and
    // back, through the owner's route or in one statement (an ad back online keeps its place in the
    // bump order, often below the list's last one), and are bumped (to the top). After each change a model, the newest 200
    // online ads, predicts the search's total and a few of its pages; each page is asked twice.
    const N = 230;
    const now = ctx.clock.now().toISOString();
    const expires = new Date(ctx.clock.now().getTime() + 30 * DAY_MS).toISOString();
    const insert = ctx.app.deps.database.sqlite.prepare(
      `INSERT INTO ads (id, owner_id, listing_type, title, description, age, state_id, city_id, phone, photos_json, status, online,
         bump_seq, bumped_at, published_at, expires_at, created_at, updated_at, visible)
       VALUES (?, ?, 'female_esc', ?, 'Friendly and discreet, by appointment only.', '30', ?, ?, '+12125550100', '[]', 'approved', 1, ?, ?, ?, ?, ?, ?, 1)`,
    );
    const model = Array.from({ length: N }, (_, i) => ({ id: `harbor${i}`, seq: i + 1, online: true }));
    for (const a of model) insert.run(a.id, owner.id, `Harbor lights number ${a.seq}`, ny.stateId, ny.cityId, a.seq, now, now, expires, now, now);
    let top = N;
    const rng = new Rng(7);
    const rand = (n: number) => rng.int(n);
    const check = async (step: string) => {
      const shown = model
        .filter((a) => a.online)
        .sort((x, y) => y.seq - x.seq)
        .slice(0, 200);
      for (const page of [1, 1 + rand(10), 10]) {
        const want = shown.slice((page - 1) * 20, page * 20).map((a) => a.id);
        for (const round of [1, 2]) {
          const res = await get(`/api/search?query=harbor&page=${page}`);
          const got = res.statusCode === 200 ? { total: res.json().total, ids: res.json().ads.map((a: { id: string }) => a.id) } : res.statusCode;
          const expected = want.length || page === 1 ? { total: shown.length, ids: want } : 404;
          expect(got, `${step}: page ${page}, read ${round}`).toEqual(expected);
        }
      }
    };
    await check('start');
    const byOrder = () => [...model].sort((x, y) => y.seq - x.seq);
    for (let step = 0; step < 100; step++) {
      // half the time an ad near the list's end (ranks 186–215 of all), where the cut-off decides
      const a = rand(2) === 0 ? model[rand(N)] : byOrder()[185 + rand(30)];
      if (rand(4) === 0) {
        // a bump: to the top of the order
        await sql`UPDATE ads SET bump_seq = ${++top} WHERE id = ${a.id}`.execute(ctx.app.deps.db);
        a.seq = top;
        await check(`${a.id} bumped`);
      } else if (rand(2) === 0) {
        expect((await setOnline(a.id, !a.online)).statusCode).toBe(200);
        a.online = !a.online;
        await check(`${a.id} ${a.online ? 'online' : 'offline'} (seq ${a.seq})`);
      } else {
        // as a maintenance script would: one statement (the service writes online, then visible)
        await sql`UPDATE ads SET online = ${a.online ? 0 : 1}, visible = ${a.online ? 0 : 1} WHERE id = ${a.id}`.execute(ctx.app.deps.db);
        a.online = !a.online;
        await check(`${a.id} ${a.online ? 'online' : 'offline'} in one statement (seq ${a.seq})`);
      }
    }
  });

  it('a list pushed out takes the answers built on it along: a change it can no longer see must not leave them stale', async () => {
    const small = await createTestApp({ env: { CACHE_MB: '4' } });
    try {
      const smallOwner = await makeUser(small, { status: 'approved' });
      const smallAdmin = await asAdmin(small);
      const place = await placeIn(small, 'ny');
      await liveAd(small, smallOwner, smallAdmin, place, {
        title: 'Elegant redhead companion',
        description: 'Fluent in French and Italian, dinner dates and travel. Discreet.',
      });
      const matches = small.app.deps.services.listings.matches;
      const api = small.app.deps.services.listings.caches.get('api')!.stats;
      const search = (q: string) => small.app.inject({ method: 'GET', url: `/api/search?query=${q}` });
      expect((await search('redhead')).json().total).toBe(1);
      await search('redhead'); // kept from the second asking on
      const hits = api.hits;
      await search('redhead');
      expect(api.hits).toBe(hits + 1);
      // Its search's count fades as other searches are asked for (halved every 5 × the lists held,
      // 100 askings at least): two hundred askings of one nobody keeps. A list asked for less
      // often than a new one is pushed out by it; one asked for as often is not (admission).
      for (let i = 0; i < 200; i++) matches.get('nobody');
      // as many other searches as the lists' budget holds: the first list is the least recently used
      for (let i = 0; i < matches.budget.entries; i++) await search(`word${i}`);
      expect(matches.size).toBe(matches.budget.entries);
      expect(matches.has(toMatchExpression(searchWords('redhead'), {})!)).toBe(false);
      // its answer went with it: asked again, it is read again (a miss)
      const misses = api.misses;
      expect((await search('redhead')).json().total).toBe(1);
      expect(api.misses).toBe(misses + 1);
      // and a change that could alter it drops it again
      const second = await liveAd(small, smallOwner, smallAdmin, place, {
        title: 'Redhead in town',
        description: 'Evenings only, in the city centre, by appointment made a day ahead.',
      });
      expect((await search('redhead')).json().ads.map((a: { id: string }) => a.id)).toContain(second.id);
    } finally {
      await small.close();
    }
  });
});

describe('the doorkeeper (an answer is kept from its second asking on)', () => {
  it('says "seen" for a key asked before, rarely for one never asked, and forgets everything after its capacity', () => {
    const door = new Doorkeeper(50_000);
    const keys = Array.from({ length: 50_000 }, (_, i) => `/api/listings?state=s${i % 51}&city=c${i}&page=${1 + (i % 3)}`);
    // the model: a key never asked is new (false) but for the filter's false positives, under 1 % at capacity
    let falseSeen = 0;
    for (const k of keys) if (door.seen(k)) falseSeen++;
    expect(falseSeen).toBeLessThan(keys.length / 100);
    // every key asked since the last reset is seen, whatever came after it
    expect(keys.every((k) => door.seen(k))).toBe(true);
  });

  it('starts empty again once more keys than its capacity went in, keeping the key that overflowed it', () => {
    const door = new Doorkeeper(10);
    const keys = Array.from({ length: 10 }, (_, i) => `/api/ads/a${i}`);
    expect(keys.map((k) => door.seen(k))).toEqual(Array(10).fill(false));
    expect(keys.map((k) => door.seen(k))).toEqual(Array(10).fill(true)); // asked again: nothing goes in
    expect(door.seen('/api/ads/one-more')).toBe(false); // the eleventh: a reset, then noted
    expect(door.seen('/api/ads/one-more')).toBe(true);
    expect(keys.map((k) => door.seen(k))).toEqual(Array(10).fill(false));
  });

  it('an answer asked for twice stays kept while a crawl of one-off pages larger than the cache passes through', async () => {
    const small = await createTestApp({ cacheMb: 0.1 }); // ~88 answers
    try {
      const o = await makeUser(small, { status: 'approved' });
      const ad = await liveAd(small, o, await asAdmin(small), await placeIn(small, 'ny'));
      const api = small.app.deps.services.listings.caches.get('api')!;
      const url = `/api/ads/${ad.id}`;
      const ask = (u: string) => small.app.inject({ method: 'GET', url: u });
      await ask(url);
      expect(api.has(`ad:${ad.id}`)).toBe(false); // asked once: not kept
      await ask(url);
      expect(api.has(`ad:${ad.id}`)).toBe(true);
      const entries = api.budget.entries;
      // a crawl of twice as many one-off pages as the cache holds: kept, each would push one out
      const states = ['new-york', 'texas', 'california', 'florida', 'ohio'];
      for (let i = 0; i < 2 * entries; i++) expect((await ask(`/api/listings?state=${states[i % 5]}&pageSize=${1 + Math.floor(i / 5)}`)).statusCode).toBe(200);
      expect(api.size).toBe(1); // the one-off pages were not kept
      const hits = api.stats.hits;
      await ask(url);
      expect(api.stats.hits).toBe(hits + 1);
    } finally {
      await small.close();
    }
  });
});
