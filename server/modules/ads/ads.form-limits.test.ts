// The ad form's limits as a provider meets them: the multipart plugin's files and file-size limits
// answer the photo rules naming photos (PRODUCT §7/§10: 400 for too many, 413 "too large" for a photo
// past 10 MB), and the text lengths count characters, an emoji being one (PRODUCT §10: title 10–100,
// description 50–5,000).
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, goodFields, placeIn, postAd, postAdRaw, type Place } from './ads.testkit.ts';

let ctx: TestContext;
let owner: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => ctx.close());

const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
    .jpeg()
    .toBuffer();
const countAds = async () => (await ctx.app.deps.db.selectFrom('ads').select('id').execute()).length;
const PHOTOS_COUNT = { message: 'Add 1 to 10 photos.', code: 'ad.photos_count', params: { field: 'photos', min: 1, max: 10 } };
const PHOTO_TOO_LARGE = { message: 'Each photo must be at most 10 MB.', code: 'ad.photo_too_large', params: { field: 'photos', mb: 10 } };
/** One byte past the 10 MB a photo may weigh; refused by its size before anything reads it as an image. */
const overTenMb = () => Buffer.alloc(10 * 1024 * 1024 + 1, 0xff);

describe('the ad form’s photo limits', () => {
  // Copied from server/test/probe-provider-ads.test.ts.
  it('answers 11 photos with the photo-count refusal naming photos, not a generic "request too large"', async () => {
    const photo = await jpeg();
    const res = await postAdRaw(ctx, owner, goodFields(ny), Array(11).fill(photo));
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 400,
      body: { message: 'Add 1 to 10 photos.', code: 'ad.photos_count', params: { field: 'photos', min: 1, max: 10 } },
    });
  });

  it('takes exactly 10 photos', async () => {
    const res = await postAdRaw(ctx, owner, goodFields(ny), Array(10).fill(await jpeg()));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().ad.photos).toHaveLength(10);
  });

  it('answers one photo past 10 MB with the per-photo size refusal naming photos and the limit', async () => {
    const res = await postAdRaw(ctx, owner, goodFields(ny), [await jpeg(), overTenMb()]);
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 413, body: PHOTO_TOO_LARGE });
    expect(await countAds()).toBe(0);
  });

  it('answers the edit form the same way: 11 new photos, or one past 10 MB', async () => {
    const ad = await postAd(ctx, owner, ny);
    const edit = async (photos: Buffer[]) =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/ads/${ad.id}`,
        headers: { cookie: owner.cookie },
        payload: adForm({ ...goodFields(ny), keepPhotos: '[]' }, photos),
      });
    const eleven = await edit(Array(11).fill(await jpeg()));
    expect({ status: eleven.statusCode, body: eleven.json() }).toEqual({ status: 400, body: PHOTOS_COUNT });
    const big = await edit([overTenMb()]);
    expect({ status: big.statusCode, body: big.json() }).toEqual({ status: 413, body: PHOTO_TOO_LARGE });
  });

  it('keeps the generic 413 for the limits a form cannot reach by its photos (too many fields)', async () => {
    const fd = adForm(goodFields(ny), [await jpeg()]);
    for (let i = 0; i < 35; i++) fd.append(`x${i}`, 'y');
    const res = await ctx.app.inject({ method: 'POST', url: '/api/post-ad', headers: { cookie: owner.cookie }, payload: fd });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 413, code: 'request.too_large' });
  });
});

describe('the ad form’s text lengths', () => {
  // Copied from server/test/probe-provider-ads.test.ts.
  it('counts an emoji as one character of the title, not two', async () => {
    const title = 'Hot new girl in town ' + '💋'.repeat(40); // 61 characters
    expect([...title].length).toBe(61);
    const res = await postAdRaw(ctx, owner, goodFields(ny, { title }), [await jpeg()]);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('takes a title of 100 emoji whole (400 bytes), and refuses 101', async () => {
    const photo = await jpeg();
    const title = '🔥'.repeat(100);
    const ok = await postAdRaw(ctx, owner, goodFields(ny, { title }), [photo]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().ad.title).toBe(title);
    const row = await ctx.app.deps.db.selectFrom('ads').select('title').where('id', '=', ok.json().ad.id).executeTakeFirstOrThrow();
    expect(row.title).toBe(title);
    const over = await postAdRaw(ctx, owner, goodFields(ny, { title: '🔥'.repeat(101) }), [photo]);
    expect({ status: over.statusCode, code: over.json().code, params: over.json().params }).toEqual({
      status: 400,
      code: 'ad.title_length',
      params: { field: 'title', min: 10, max: 100 },
    });
  });

  it('counts a description in characters: 5,000 with emoji are taken whole, 5,001 refused; 50 emoji are long enough', async () => {
    const photo = await jpeg();
    const description = `Relaxed evenings ${'💋'.repeat(4983)}`; // 5,000 characters, 9,983 UTF-16 units
    expect([...description].length).toBe(5000);
    const ok = await postAdRaw(ctx, owner, goodFields(ny, { description }), [photo]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().ad.description).toBe(description);
    const over = await postAdRaw(ctx, owner, goodFields(ny, { description: `${description}💋` }), [photo]);
    expect({ status: over.statusCode, code: over.json().code }).toEqual({ status: 400, code: 'ad.description_length' });
    const short = await postAdRaw(ctx, owner, goodFields(ny, { description: '💋'.repeat(25) }), [photo]); // 50 UTF-16 units, 25 characters
    expect({ status: short.statusCode, code: short.json().code }).toEqual({ status: 400, code: 'ad.description_length' });
    const enough = await postAdRaw(ctx, owner, goodFields(ny, { description: '💋'.repeat(50) }), [photo]);
    expect(enough.statusCode, enough.body).toBe(201);
  });
});
