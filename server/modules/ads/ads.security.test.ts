import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import type { Limits } from '../../core/deps.ts';
import { openDatabase } from '../../core/db.ts';
import { imageQueue } from '../../core/images.ts';
import { migrate, readMigrations } from '../../core/migrate.ts';
import { flatPng, jpegDeclaring, multipart, png } from '../uploads/test-images.ts';
import { goodFields, jpegWithGps, placeIn, postAd, postAdRaw, type Place } from './ads.testkit.ts';

// Holes 4, 5 and 6 of the security review: malformed multipart bodies, image bombs and a burst of
// uploads, and the daily post limit that deleting from the cart used to reset.

let ctx: TestContext;
let user: TestUser;
let ny: Place;
let jpeg: Buffer;
beforeEach(async () => {
  ctx = await createTestApp();
  user = await makeUser(ctx);
  ny = await placeIn(ctx, 'ny');
  jpeg ??= await jpegWithGps();
});
afterEach(async () => ctx.close());

async function fresh(limits: Partial<Limits>) {
  await ctx.close();
  ctx = await createTestApp({ limits });
  user = await makeUser(ctx);
  ny = await placeIn(ctx, 'ny');
}

const countAds = async () => (await ctx.app.deps.db.selectFrom('ads').select('id').execute()).length;
const countPostLog = async () => (await ctx.app.deps.db.selectFrom('ad_post_log').select('id').execute()).length;
const adFiles = () => {
  const dir = path.join(ctx.dataDir, 'uploads', 'ads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};
async function expectNothingStored() {
  expect(await countAds()).toBe(0);
  expect(await countPostLog()).toBe(0);
  expect(adFiles()).toEqual([]);
}

/** The post-ad form as raw multipart bytes, so that tests can cut it or break its headers. */
function rawForm(photos: Buffer[]) {
  const parts = [
    ...Object.entries(goodFields(ny)).map(([name, data]) => ({ name, data })),
    ...photos.map((data, i) => ({ name: 'photos', filename: `p${i}.jpg`, contentType: 'image/jpeg', data })),
  ];
  return multipart(parts);
}
const send = (payload: Buffer, contentType: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/post-ad', payload, headers: { 'content-type': contentType, cookie: user.cookie } });

describe('post-ad refuses a malformed multipart body with 400, never 500', () => {
  it('a body cut short (mid-photo, mid-field, before the closing boundary) stores nothing', async () => {
    const { payload, headers } = rawForm([jpeg, jpeg]);
    const fieldsEnd = payload.indexOf('name="photos"');
    for (const cut of [Math.floor(fieldsEnd / 2), fieldsEnd + 200, Math.floor(payload.length * 0.75), payload.length - 10]) {
      const res = await send(payload.subarray(0, cut), headers['content-type']);
      expect(res.statusCode, `cut at ${cut} of ${payload.length}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'request.malformed_upload', message: expect.stringMatching(/malformed or incomplete/) });
    }
    await expectNothingStored();
  });

  it('a Content-Type without a usable boundary stores nothing', async () => {
    const { payload } = rawForm([jpeg]);
    const boundary = `x${'b'.repeat(300)}`;
    for (const type of [
      'multipart/form-data',
      'multipart/form-data; charset=utf-8',
      `multipart/form-data; boundary=${boundary}`,
      'multipart/form-data; boundary=nothere',
    ]) {
      const res = await send(payload, type);
      expect(res.statusCode, type).toBe(400);
      expect(res.json(), type).toMatchObject({ code: 'request.malformed_upload' });
    }
    // An empty boundary reads as a form with no parts at all: the form's own 400 for its first field.
    const empty = await send(payload, 'multipart/form-data; boundary=');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'ad.listing_type_invalid', params: { field: 'listingType' } });
    await expectNothingStored();
    // The well-formed body still posts.
    const ok = rawForm([jpeg]);
    expect((await send(ok.payload, ok.headers['content-type'])).statusCode).toBe(201);
  });
});

describe('image bombs', () => {
  it('refuses a photo whose header declares more than 40 megapixels with 413 naming photos, before any decoding', async () => {
    const small = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    const bombs = [flatPng(8000, 6000), jpegDeclaring(small, 10000, 8000)];
    for (const bomb of bombs) {
      for (const photos of [[bomb], [jpeg, bomb]]) {
        const res = await postAdRaw(ctx, user, goodFields(ny), photos);
        expect(res.statusCode, res.body).toBe(413);
        const position = photos.length; // the bomb is the last photo sent
        expect(res.json()).toMatchObject({
          code: 'upload.file_too_many_pixels',
          params: { field: 'photos', max: 40, name: `photo-${position - 1}.jpg`, position },
        });
        expect(res.json().message).toMatch(/photos, no\. \d\) is too large: \d+×\d+ is [\d.]+ megapixels, and at most 40/);
      }
    }
    await expectNothingStored();
    // Not one picture reached the decoder, not even the good one sent beside a bomb.
    expect(imageQueue(ctx.app.deps).started).toBe(0);
  });

  it('a burst of posts and avatar updates never runs more image jobs at once than imageConcurrency', async () => {
    await fresh({ imageConcurrency: 3 });
    const users = [user, await makeUser(ctx), await makeUser(ctx), await makeUser(ctx)];
    const queue = imageQueue(ctx.app.deps);
    const big = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#468' } })
      .jpeg()
      .toBuffer();
    let sampledMax = 0;
    let done = false;
    const sample = async () => {
      while (!done) {
        sampledMax = Math.max(sampledMax, queue.active);
        await new Promise((r) => setImmediate(r));
      }
    };
    const sampler = sample();
    const avatar = async (u: TestUser) => {
      const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', data: await png(900, 700) }]);
      return ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: u.cookie } });
    };
    const results = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => postAdRaw(ctx, users[i % 4], goodFields(ny), [big, jpeg])),
      ...users.map(avatar),
    ]);
    done = true;
    await sampler;
    expect(results.map((r) => r.statusCode)).toEqual([...Array(8).fill(201), ...Array(4).fill(200)]);
    expect(queue.started).toBe(8 * 2 + 4); // one job per photo, one per avatar
    expect(queue.peak).toBe(3); // the bound was reached, and never passed
    expect(sampledMax).toBeLessThanOrEqual(3);
    expect([queue.active, queue.pending]).toEqual([0, 0]);
  });
});

describe('the daily post limit counts posts, not ads that still exist', () => {
  const deleteFromCart = (id: string) => ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${id}`, headers: { cookie: user.cookie } });

  it('20 posts, some deleted from the cart: the 21st that day is still 429, in parallel too; the next day works', async () => {
    await fresh({ adsPerDay: 20 });
    const ads = [];
    for (let i = 0; i < 20; i++) {
      ads.push(await postAd(ctx, user, ny));
      ctx.clock.advance(60_000);
    }
    for (const ad of ads.slice(0, 5)) expect((await deleteFromCart(ad.id)).statusCode).toBe(200);
    expect(await countAds()).toBe(15);

    const next = await postAdRaw(ctx, user, goodFields(ny), [jpeg]);
    expect(next.statusCode).toBe(429);
    expect(next.json()).toEqual({ message: 'You can post at most 20 ads per day.', code: 'ad.daily_post_limit', params: { max: 20 } });
    const burst = await Promise.all(Array.from({ length: 4 }, () => postAdRaw(ctx, user, goodFields(ny), [jpeg])));
    expect(burst.map((r) => r.statusCode)).toEqual([429, 429, 429, 429]);
    expect(await countAds()).toBe(15);
    expect(adFiles()).toHaveLength(15 * 2);

    // Another user's limit is their own.
    const other = await makeUser(ctx);
    expect((await postAdRaw(ctx, other, goodFields(ny), [jpeg])).statusCode).toBe(201);

    // A day after the first post, one post is free again (the first was a day ago), and only one.
    ctx.clock.set(new Date(Date.parse(ads[0].createdAt as string) + DAY_MS + 1));
    await postAd(ctx, user, ny);
    expect((await postAdRaw(ctx, user, goodFields(ny), [jpeg])).statusCode).toBe(429);
    ctx.clock.advance(DAY_MS);
    await postAd(ctx, user, ny);
  });

  it('a post refused for any reason after the check leaves no log row: only stored ads count', async () => {
    await fresh({ adsPerDay: 2 });
    const bad = await postAdRaw(ctx, user, goodFields(ny), [Buffer.from('not an image')]);
    expect(bad.statusCode).toBe(400);
    expect(await countPostLog()).toBe(0);
    await postAd(ctx, user, ny);
    await postAd(ctx, user, ny);
    expect(await countPostLog()).toBe(2);
  });

  it('the migration counts the ads posted in the last day before it existed', () => {
    const { sqlite } = openDatabase(':memory:');
    const all = readMigrations();
    migrate(
      sqlite,
      all.filter((m) => m.version < 5),
    );
    const now = Date.now();
    const at = (msAgo: number) => new Date(now - msAgo).toISOString();
    sqlite.exec(`INSERT INTO states (id, name, code, slug) VALUES ('ny', 'New York', 'NY', 'new-york');
      INSERT INTO cities (id, state_id, name, slug, latitude, longitude) VALUES ('nyc', 'ny', 'New York', 'new-york', 0, 0);`);
    sqlite
      .prepare(`INSERT INTO users (id, email, password_hash, nickname, created_at, updated_at) VALUES ('u1', 'u1@example.com', 'x', 'u1', ?, ?)`)
      .run(at(0), at(0));
    const ad =
      sqlite.prepare(`INSERT INTO ads (id, owner_id, listing_type, title, description, age, state_id, city_id, phone, photos_json, created_at, updated_at)
      VALUES (?, 'u1', 'female_esc', 't', 'd', '30', 'ny', 'nyc', '+1', '[]', ?, ?)`);
    ad.run('recent', at(3600_000), at(3600_000));
    ad.run('old', at(DAY_MS + 3600_000), at(DAY_MS + 3600_000));
    expect(
      migrate(
        sqlite,
        all.filter((m) => m.version <= 5),
      ),
    ).toEqual(['0005_post_log.sql']);
    expect(sqlite.prepare('SELECT user_id, ad_id FROM ad_post_log').all()).toEqual([{ user_id: 'u1', ad_id: 'recent' }]);
    sqlite.close();
  });
});
