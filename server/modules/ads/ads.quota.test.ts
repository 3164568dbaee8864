import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import type { Limits } from '../../core/deps.ts';
import { imageQueue } from '../../core/images.ts';
import { png } from '../uploads/test-images.ts';
import { adForm, goodFields, placeIn, postAdRaw } from './ads.testkit.ts';

// The daily post limit (PRODUCT §11: 20 a day) bounds the photo work an account makes the server
// do: a post takes its place in the limit before its photos are encoded, and gives it back when it
// fails.

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});
async function app(limits: Partial<Limits>) {
  ctx = await createTestApp({ limits });
  return ctx;
}

describe('the daily post limit and the photo work', () => {
  it('photos of posts past the daily limit are never encoded, even when the posts are sent at once', async () => {
    const c = await app({ adsPerDay: 20 });
    const user = await makeUser(c);
    const ny = await placeIn(c, 'ny');
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#468' } })
      .jpeg()
      .toBuffer();
    for (let i = 0; i < 19; i++) expect((await postAdRaw(c, user, goodFields(ny), [await png(16, 16)])).statusCode).toBe(201);
    const queue = imageQueue(c.app.deps);
    const before = queue.started;
    const results = await Promise.all(Array.from({ length: 20 }, () => postAdRaw(c, user, goodFields(ny), [photo, photo, photo])));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, ...Array(19).fill(429)]);
    expect(results.find((r) => r.statusCode === 429)!.json()).toMatchObject({ code: 'ad.daily_post_limit', params: { max: 20 } });
    // One post left today: three photos' worth of work, not twenty posts' worth.
    expect(queue.started - before).toBe(3);
  }, 120_000);

  it('a post whose photos are refused gives its place back: the day’s last post still goes through', async () => {
    const c = await app({ adsPerDay: 1 });
    const user = await makeUser(c);
    const ny = await placeIn(c, 'ny');
    const bad = await postAdRaw(c, user, goodFields(ny), [Buffer.from('not an image')]);
    expect(bad.statusCode).toBe(400);
    expect((await postAdRaw(c, user, goodFields(ny), [await png(16, 16)])).statusCode).toBe(201);
    expect((await postAdRaw(c, user, goodFields(ny), [await png(16, 16)])).statusCode).toBe(429);
    expect(await c.app.deps.db.selectFrom('ad_post_log').select('user_id').execute()).toHaveLength(1);
  });

  it('a post refused in its transaction (its place disabled while its photos were encoded) gives its place back too', async () => {
    const c = await app({ adsPerDay: 1 });
    const user = await makeUser(c);
    const ny = await placeIn(c, 'ny');
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#468' } })
      .jpeg()
      .toBuffer();
    const posting = postAdRaw(c, user, goodFields(ny), [photo, photo, photo]);
    const queue = imageQueue(c.app.deps);
    while (queue.started === 0) await new Promise((r) => setTimeout(r, 1));
    await c.app.deps.db.updateTable('cities').set({ enabled: 0 }).where('id', '=', ny.cityId).execute();
    expect((await posting).statusCode).toBe(400);
    await c.app.deps.db.updateTable('cities').set({ enabled: 1 }).where('id', '=', ny.cityId).execute();
    expect((await postAdRaw(c, user, goodFields(ny), [await png(16, 16)])).statusCode).toBe(201);
  }, 60_000);
});

// PRODUCT §11: posts are counted "whatever became of them". A post the screening refuses keeps its
// whole text in screening_log, which nothing purges: refusals must use up the day's posts too.
describe('the daily post limit and the screening', () => {
  it('posts refused by the screening count toward the daily post limit (screening_log cannot be filled without end)', async () => {
    const c = await app({ adsPerDay: 3 });
    const user = await makeUser(c);
    const ny = await placeIn(c, 'ny');
    const refused = goodFields(ny, { title: 'Sweet teen new in town', description: `${'x'.repeat(4900)} discreet and punctual.` });
    const codes: string[] = [];
    for (let i = 0; i < 2; i++) codes.push((await postAdRaw(c, user, refused, [Buffer.from('not even a photo')])).json().code);
    expect((await postAdRaw(c, user, goodFields(ny), [await png(16, 16)])).statusCode).toBe(201); // the day's last post
    for (let i = 0; i < 3; i++) codes.push((await postAdRaw(c, user, refused, [Buffer.from('not even a photo')])).json().code);
    expect(codes).toEqual(['ad.screened_wording', 'ad.screened_wording', 'ad.daily_post_limit', 'ad.daily_post_limit', 'ad.daily_post_limit']);
    const logged = await c.app.deps.db.selectFrom('screening_log').select('id').where('user_id', '=', user.id).execute();
    expect(logged).toHaveLength(2);
  });

  // Tries of one request (one Idempotency-Key) share one place (migration 0040), but a refused try
  // shares it with nobody: one key reused with new text each time got refusals without end, each a
  // full row in screening_log.
  it('refusals sent with one reused Idempotency-Key still use up the day, one place each', async () => {
    const c = await app({ adsPerDay: 3 });
    const user = await makeUser(c);
    const ny = await placeIn(c, 'ny');
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const fields = goodFields(ny, { title: `Sweet teen new in town ${i}`, description: `${'x'.repeat(4000)} discreet and punctual, try ${i}.` });
      const res = await c.app.inject({
        method: 'POST',
        url: '/api/post-ad',
        headers: { cookie: user.cookie, 'idempotency-key': 'one-key-for-every-try' },
        payload: adForm(fields, [Buffer.from('not even a photo')]),
      });
      codes.push(res.json().code);
    }
    const logged = await c.app.deps.db.selectFrom('screening_log').select('id').where('user_id', '=', user.id).execute();
    expect({ codes, logged: logged.length }).toEqual({
      codes: [...Array(3).fill('ad.screened_wording'), ...Array(5).fill('ad.daily_post_limit')],
      logged: 3,
    });
  });
});
