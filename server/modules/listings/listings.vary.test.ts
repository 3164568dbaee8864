import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestContext, TestUser } from '../../test/harness.ts';
import { liveAd, ownerAdminNy, postAd, type Place } from '../ads/ads.testkit.ts';

// What the public answers tell a shared cache in front of the server (a CDN or proxy, README):
// every header an answer is chosen by is named in its Vary.

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

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

describe('GET /api/ads/:id answers by who asks', () => {
  // The guest gets 404 for a pending ad, its owner and staff the ad (PRODUCT §7). A shared cache
  // may keep a 200 or a 404 without explicit freshness (RFC 9111 §4.2.2) and, told nothing, would
  // hand the guest's copy to the owner or to staff.
  it('says Vary: cookie to guests and to the signed-in, with accept-encoding when it is compressed', async () => {
    const pending = await postAd(ctx, owner, ny);
    const mine = await get(`/api/ads/${pending.id}`, { cookie: owner.cookie });
    expect([mine.statusCode, mine.json().ad.ownerId, mine.headers.vary]).toEqual([200, owner.id, 'cookie']);
    const guest = await get(`/api/ads/${pending.id}`);
    expect([guest.statusCode, guest.headers.vary]).toEqual([404, 'cookie']);
    const live = await liveAd(ctx, owner, admin, ny, { description: `${'A long and honest description of the evening. '.repeat(60)}` });
    const plain = await get(`/api/ads/${live.id}`);
    expect(plain.rawPayload.length).toBeGreaterThan(2048);
    expect(plain.headers.vary).toBe('cookie, accept-encoding');
    const br = await get(`/api/ads/${live.id}`, { 'accept-encoding': 'br' });
    expect([br.headers['content-encoding'], br.headers.vary]).toEqual(['br', 'cookie, accept-encoding']);
  });
});

describe('Vary on the large answers', () => {
  // A list of 20 cards (~9 kB) goes out brotli-compressed to a browser and as it is to a client
  // without brotli: every answer at that URL must say Vary: accept-encoding (RFC 9110 §12.5.5),
  // or a CDN keeps the uncompressed copy asked for first and hands it to every browser.
  it('says Vary: accept-encoding whichever encoding asked first, kept or not', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const sqlite = ctx.app.deps.database.sqlite;
    const row = sqlite.prepare('SELECT * FROM ads WHERE id = ?').get(ad.id) as Record<string, unknown>;
    const cols = Object.keys(row);
    const insert = sqlite.prepare(`INSERT INTO ads (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
    for (let i = 1; i <= 19; i++) insert.run({ ...row, id: `${ad.id}x${i}`, bump_seq: (row.bump_seq as number) + i });
    const url = `/api/listings?state=new-york&city=${ny.citySlug}&type=female-escorts`;
    const plain1 = await get(url); // not kept (asked for once)
    const plain2 = await get(url); // kept as it is
    const plain3 = await get(url); // from the cache, as it is
    const br = await get(url, { 'accept-encoding': 'br' }); // compressed from the kept copy
    expect(plain1.rawPayload.length).toBeGreaterThan(2048);
    expect(br.headers['content-encoding']).toBe('br');
    expect([plain1, plain2, plain3, br].map((r) => r.headers.vary)).toEqual(Array(4).fill('accept-encoding'));
    // A small answer has one form: no Vary.
    expect((await get('/api/listings?state=new-york&city=nowhere-at-all&type=female-escorts')).headers.vary).toBeUndefined();
  });
});
