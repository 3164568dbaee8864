import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, goodFields, jpegWithGps, placeIn, pngPhoto, postAd, postAdRaw, type Place } from './ads.testkit.ts';

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

const countAds = async () => (await ctx.app.deps.db.selectFrom('ads').selectAll().execute()).length;

describe('post-ad', () => {
  it('creates an unpaid ad in the cart, with photos re-encoded to WebP in two sizes', async () => {
    const res = await postAdRaw(ctx, user, goodFields(ny), [jpeg, await pngPhoto()]);
    expect(res.statusCode, res.body).toBe(201);
    const ad = res.json().ad;
    expect(ad).toMatchObject({
      listingType: 'female_esc',
      title: 'Elegant companion downtown',
      age: '27',
      phone: '+12125550142',
      status: 'unpaid',
      online: true,
      state: { id: 'ny', slug: 'new-york' },
      city: { id: ny.cityId, slug: ny.citySlug },
      ownerId: user.id,
      rejectionReason: null,
      bumpedAt: null,
      publishedAt: null,
      expiresAt: null,
    });
    expect(ad.photos).toHaveLength(2);
    expect(ad.photos[0]).toEqual({
      url: expect.stringMatching(/^\/uploads\/ads\/[\w-]+\.webp$/),
      width: 64,
      height: 48,
      thumbUrl: expect.stringMatching(/^\/uploads\/ads\/[\w-]+\.webp$/),
      thumbWidth: 64,
      thumbHeight: 48,
    });
    const cart = await ctx.app.inject({ method: 'GET', url: '/api/cart-ads-by-user', headers: { cookie: user.cookie } });
    expect(cart.json().pendingAds.map((a: { id: string }) => a.id)).toEqual([ad.id]);
    // the photo is served to its owner (the public only once staff approve it: uploads.unreviewed.test.ts)
    const photo = await ctx.app.inject({ method: 'GET', url: ad.photos[0].url, headers: { cookie: user.cookie } });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/webp');
  });

  it('removes every trace of EXIF and GPS from the stored photos', async () => {
    const inputMeta = await sharp(jpeg).metadata();
    expect(inputMeta.exif?.includes('SECRET-CAMERA-OWNER')).toBe(true);
    expect(inputMeta.exif!.includes(Buffer.from([0x88, 0x25])) || inputMeta.exif!.includes(Buffer.from([0x25, 0x88]))).toBe(true); // GPS IFD pointer
    const big = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#345' } })
      .jpeg()
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 44/1 0/1' } })
      .toBuffer();
    const ad = (await postAdRaw(ctx, user, goodFields(ny), [jpeg, big])).json().ad;
    for (const p of ad.photos) {
      for (const url of [p.url, p.thumbUrl]) {
        const file = fs.readFileSync(path.join(ctx.dataDir, url));
        const meta = await sharp(file).metadata();
        expect(meta.format).toBe('webp');
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.icc).toBeUndefined();
        expect(file.includes('SECRET-CAMERA-OWNER')).toBe(false);
        expect(file.includes('EXIF') || file.includes('Exif')).toBe(false);
      }
    }
    expect(ad.photos[1]).toMatchObject({ width: 1280, height: 960 });
    const thumb = await sharp(fs.readFileSync(path.join(ctx.dataDir, ad.photos[1].thumbUrl))).metadata();
    expect([thumb.width, thumb.height]).toEqual([400, 300]);
  });

  it('refuses bad fields with a code naming the field, and stores nothing', async () => {
    const cases: [Record<string, string>, string, Record<string, string | number>][] = [
      [{ listingType: 'dogs' }, 'ad.listing_type_invalid', { field: 'listingType' }],
      [{ title: 'short' }, 'ad.title_length', { field: 'title', min: 10, max: 100 }],
      [{ description: 'too short' }, 'ad.description_length', { field: 'description', min: 50, max: 5000 }],
      [{ age: '20' }, 'ad.age_invalid', { field: 'age' }],
      [{ age: '46' }, 'ad.age_invalid', { field: 'age' }],
      [{ phone: '12345' }, 'ad.phone_invalid', { field: 'phone' }],
      [{ cityId: '' }, 'ad.city_required', { field: 'cityId' }],
      [{ stateId: 'ca' }, 'ad.city_not_in_state', { field: 'cityId' }],
    ];
    for (const [over, code, params] of cases) {
      const res = await postAdRaw(ctx, user, goodFields(ny, over), [jpeg]);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json(), JSON.stringify(over)).toMatchObject({ code, params });
    }
    // The English message is the catalogue's template, filled from the params.
    const title = await postAdRaw(ctx, user, goodFields(ny, { title: 'short' }), [jpeg]);
    expect(title.json().message).toBe('Title must be 10–100 characters.');
    const noPhoto = await postAdRaw(ctx, user, goodFields(ny), []);
    expect(noPhoto.statusCode).toBe(400);
    expect(noPhoto.json()).toEqual({ message: 'Add 1 to 10 photos.', code: 'ad.photos_count', params: { field: 'photos', min: 1, max: 10 } });
    const notImage = await ctx.app.inject({
      method: 'POST',
      url: '/api/post-ad',
      headers: { cookie: user.cookie },
      payload: adForm(goodFields(ny), [Buffer.from('%PDF-1.4 not an image at all')]),
    });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json()).toMatchObject({ code: 'upload.file_not_an_image', params: { field: 'photos', name: 'photo-0.jpg', position: 1 } });
    const eleven = await postAdRaw(ctx, user, goodFields(ny), Array(11).fill(jpeg));
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json()).toEqual({ message: 'Add 1 to 10 photos.', code: 'ad.photos_count', params: { field: 'photos', min: 1, max: 10 } });
    const json = await ctx.app.inject({ method: 'POST', url: '/api/post-ad', headers: { cookie: user.cookie }, payload: goodFields(ny) });
    expect(json.statusCode).toBe(400);
    expect(await countAds()).toBe(0);
    expect(
      fs
        .readdirSync(path.join(ctx.dataDir, 'uploads'))
        .filter((d) => d === 'ads')
        .flatMap((d) => fs.readdirSync(path.join(ctx.dataDir, 'uploads', d))),
    ).toEqual([]);
  });

  it('refuses a title or description made only of invisible or blank characters', async () => {
    // Each shows as an empty card: format characters (soft hyphen, word joiner) and fillers that
    // draw nothing (Hangul fillers, Braille blank) do not count towards the length rules.
    for (const ch of ['\u2800', '\u2060', '\u3164', '\u00ad', '\u115f', '\u1160', '\uffa0', '\ufeff']) {
      const title = await postAdRaw(ctx, user, goodFields(ny, { title: ch.repeat(12) }), [jpeg]);
      expect(title.json(), JSON.stringify(ch)).toMatchObject({ code: 'ad.title_length', params: { field: 'title' } });
      const padded = await postAdRaw(ctx, user, goodFields(ny, { title: `Hi${ch.repeat(10)}` }), [jpeg]);
      expect(padded.json(), JSON.stringify(ch)).toMatchObject({ code: 'ad.title_length', params: { field: 'title' } });
      const description = await postAdRaw(ctx, user, goodFields(ny, { description: `${ch.repeat(30)}\n${ch.repeat(30)}` }), [jpeg]);
      expect(description.json(), JSON.stringify(ch)).toMatchObject({ code: 'ad.description_length', params: { field: 'description' } });
    }
    expect(await countAds()).toBe(0);
    // Between visible words a blank filler reads as a space, and a format character as nothing.
    const ad = await postAd(ctx, user, ny, { title: 'Elegant\u2800companion\u00ad downtown\u2060' });
    expect(ad.title).toBe('Elegant companion downtown');
  });

  it('accepts the URL slug of a listing type and "over45"', async () => {
    const ad = await postAd(ctx, user, ny, { listingType: 'shemale-escorts', age: 'over45' });
    expect(ad).toMatchObject({ listingType: 'shemale_esc', age: 'over45' });
  });

  it('refuses a disabled city', async () => {
    await ctx.app.deps.db.updateTable('cities').set({ enabled: 0 }).where('id', '=', ny.cityId).execute();
    const res = await postAdRaw(ctx, user, goodFields(ny), [jpeg]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ad.city_disabled', params: { field: 'cityId' } });
  });

  it('screens title and description: refuses, logs the attempt for staff, never rewrites', async () => {
    const bad: Record<string, string>[] = [
      { title: 'Sweet teen new in town' },
      { description: 'Young and fresh, just 17 yo, call me for a good time downtown any day of the week.' },
      { description: 'My owner says I must obey every request, new in town, call any time of day or night.' },
    ];
    for (const over of bad) {
      const res = await postAdRaw(ctx, user, goodFields(ny, over), [jpeg]);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ad.screened_wording', params: { field: over.title ? 'title' : 'description' } });
      if (over.title) {
        expect(res.json()).toEqual({
          message: 'Your title contains wording we do not allow ("teen"). Ads must never suggest minors or coercion.',
          code: 'ad.screened_wording',
          params: { field: 'title', term: 'teen' },
        });
      }
    }
    expect(await countAds()).toBe(0);
    const log = await ctx.app.deps.db.selectFrom('screening_log').selectAll().orderBy('id').execute();
    expect(log.map((l) => [l.user_id, l.field, l.term])).toEqual([
      [user.id, 'title', 'teen'],
      [user.id, 'description', '17 yo'],
      [user.id, 'description', 'my owner'],
    ]);
    expect(log[0].title).toBe('Sweet teen new in town');
    const admin = await makeUser(ctx, { roles: ['ADMIN_USER'], status: 'approved' });
    const staffView = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-screening-log', headers: { cookie: admin.cookie } });
    expect(staffView.json()).toMatchObject({ total: 3 });
    expect(staffView.json().entries[0]).toMatchObject({ field: 'description', term: 'my owner', userEmail: user.email });
  });

  it('keeps a refused text in the log cut at its limit, never between the halves of an emoji', async () => {
    const description = `Sweet teen ${'💋'.repeat(3000)}`; // 3,011 characters, 6,011 UTF-16 units: cut at 6,000
    const res = await postAdRaw(ctx, user, goodFields(ny, { description }), [jpeg]);
    expect(res.json().code).toBe('ad.screened_wording');
    const [log] = await ctx.app.deps.db.selectFrom('screening_log').select('description').execute();
    expect(log.description.includes('\ufffd')).toBe(false);
    expect(log.description).toBe(`Sweet teen ${'💋'.repeat(2994)}`);
  });

  it('accepts an ad whose text refuses minors, and logs nothing', async () => {
    const description = 'Upscale companion, 21+ only, no minors. Incall/outcall, $300/1hr. ID or references required.';
    const res = await postAdRaw(ctx, user, goodFields(ny, { description }), [jpeg]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().ad.description).toBe(description);
    expect(await ctx.app.deps.db.selectFrom('screening_log').selectAll().execute()).toEqual([]);
  });

  it('allows 20 ads per day per user', async () => {
    await ctx.close();
    ctx = await createTestApp({ limits: { adsPerDay: 2 } });
    user = await makeUser(ctx);
    ny = await placeIn(ctx, 'ny');
    await postAd(ctx, user, ny);
    await postAd(ctx, user, ny);
    const third = await postAdRaw(ctx, user, goodFields(ny), [jpeg]);
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ message: 'You can post at most 2 ads per day.', code: 'ad.daily_post_limit', params: { max: 2 } });
    ctx.clock.advance(24 * 3600 * 1000 + 1);
    await postAd(ctx, user, ny);
  });

  it('holds the daily limit when many posts arrive at once, and leaves no photo of a refused one behind', async () => {
    await ctx.close();
    ctx = await createTestApp({ limits: { adsPerDay: 2 } });
    user = await makeUser(ctx);
    ny = await placeIn(ctx, 'ny');
    const results = await Promise.all(Array.from({ length: 6 }, () => postAdRaw(ctx, user, goodFields(ny), [jpeg])));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 429, 429, 429, 429]);
    expect(await countAds()).toBe(2);
    const files = fs.readdirSync(path.join(ctx.app.deps.config.dataDir, 'uploads', 'ads'));
    expect(files).toHaveLength(2 * 2); // two sizes of the one photo of each stored ad
  });
});

describe('cart', () => {
  it('deletes an unpaid ad and its photos; another user cannot', async () => {
    const other = await makeUser(ctx);
    const ad = await postAd(ctx, user, ny);
    const photos = (ad.photos as { url: string }[]).map((p) => path.join(ctx.dataDir, p.url));
    expect(photos.every((p) => fs.existsSync(p))).toBe(true);
    const stranger = await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${ad.id}`, headers: { cookie: other.cookie } });
    expect(stranger.statusCode).toBe(404);
    expect(await countAds()).toBe(1);
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${ad.id}`, headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted: true });
    expect(await countAds()).toBe(0);
    expect(photos.some((p) => fs.existsSync(p))).toBe(false);
  });
});
