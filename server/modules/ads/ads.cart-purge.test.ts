import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { CRON_JOBS, findJob } from '../cron/cron.jobs.ts';
import { photoPaths } from '../moderation/moderation.holds.ts';
import { postAs } from '../moderation/moderation.testkit.ts';
import { adForm, fundedUsd, goodFields, pay, placeIn, postAd, postAdRaw, type Place } from './ads.testkit.ts';

// Cron job purge-unpaid-ads: an ad left unpaid in the cart, posted and last changed over 30 days
// ago, is deleted with its photos, as its owner deleting it from the cart would; a legal hold
// keeps a copy and the files.

let ctx: TestContext;
let owner: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp({ limits: { adsPerDay: 20 } });
  owner = await makeUser(ctx, { status: 'approved' });
  ny = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

const db = () => ctx.app.deps.db;
const runPurge = () => findJob('purge-unpaid-ads')!.run(ctx.app.deps, new AbortController().signal);
/** The ads left, as [id, status], sorted by id (ads posted at one instant have no other order). */
const adsLeft = async () =>
  (await db().selectFrom('ads').select(['id', 'status']).execute()).map((a) => [a.id, a.status]).sort((a, b) => a[0].localeCompare(b[0]));
const sorted = (rows: string[][]) => [...rows].sort((a, b) => a[0].localeCompare(b[0]));
const filesOf = async (adId: string) => {
  const row = await db().selectFrom('ads').select('photos_json').where('id', '=', adId).executeTakeFirstOrThrow();
  return photoPaths(row.photos_json).map((p) => path.join(ctx.dataDir, 'uploads', p));
};
const exist = (files: string[]) => files.map((f) => fs.existsSync(f));
const filesIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : []);

describe('purge-unpaid-ads', () => {
  it('deletes unpaid ads posted and last changed over 30 days ago with their photos; newer, edited and paid ones stay', async () => {
    const old = await postAd(ctx, owner, ny);
    const edited = await postAd(ctx, owner, ny);
    const paid = await postAd(ctx, owner, ny);
    expect((await pay(ctx, owner, paid.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
    const oldFiles = await filesOf(old.id);
    const editedFiles = await filesOf(edited.id);

    ctx.clock.advance(10 * DAY_MS);
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${edited.id}`,
      headers: { cookie: owner.cookie },
      payload: adForm(
        goodFields(ny, { title: 'Elegant companion uptown', keepPhotos: JSON.stringify((edited.photos as { url: string }[]).map((p) => p.url)) }),
        [],
      ),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    ctx.clock.advance(15 * DAY_MS);
    const recent = await postAd(ctx, owner, ny);

    // Day 30 exactly: nothing is over 30 days old yet.
    ctx.clock.advance(5 * DAY_MS);
    expect((await runPurge()).says).toEqual({ code: 'cron.unpaid_ads_purged', params: { count: 0, days: 30 } });
    expect(await adsLeft()).toHaveLength(4);

    ctx.clock.advance(1000);
    const report = await runPurge();
    expect(report).toEqual({
      message: '1 unpaid ad unchanged for over 30 days deleted',
      says: { code: 'cron.unpaid_ads_purged', params: { count: 1, days: 30 } },
    });
    expect(await adsLeft()).toEqual(
      sorted([
        [edited.id, 'unpaid'],
        [paid.id, 'in_review'],
        [recent.id, 'unpaid'],
      ]),
    );
    expect([...exist(oldFiles), ...exist(editedFiles)]).toEqual([false, false, true, true]);

    // 30 days after its edit, the edited one goes too; the one posted on day 25 waits for day 55.
    ctx.clock.advance(10 * DAY_MS);
    expect((await runPurge()).says.params).toEqual({ count: 1, days: 30 });
    expect(await adsLeft()).toEqual(
      sorted([
        [paid.id, 'in_review'],
        [recent.id, 'unpaid'],
      ]),
    );
    expect(exist(editedFiles)).toEqual([false, false]);
  });

  it('under a legal hold the ad leaves the cart but a copy and its photos are kept, as a deletion from the cart does', async () => {
    const admin = await asAdmin(ctx);
    const held = await postAd(ctx, owner, ny);
    const free = await postAd(ctx, owner, ny);
    const heldFiles = await filesOf(held.id);
    const freeFiles = await filesOf(free.id);
    const hold = await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'ad', targetId: held.id, reason: 'Preservation request 2026-014' });
    expect(hold.status).toBe(201);

    ctx.clock.advance(31 * DAY_MS);
    expect((await runPurge()).says.params).toEqual({ count: 2, days: 30 });
    expect(await adsLeft()).toEqual([]);
    expect((await db().selectFrom('held_ads').select(['id', 'deleted_by']).execute()).map((r) => [r.id, r.deleted_by])).toEqual([[held.id, 'cart_deletion']]);
    expect([...exist(heldFiles), ...exist(freeFiles)]).toEqual([true, true, false, false]);
  });

  it('photos of an unpaid ad abandoned in the cart for a year are removed', async () => {
    const noise = Buffer.alloc(1280 * 1280 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (Math.random() * 256) | 0;
    const photo = await sharp(noise, { raw: { width: 1280, height: 1280, channels: 3 } })
      .jpeg({ quality: 92 })
      .toBuffer();
    const res = await postAdRaw(ctx, owner, goodFields(ny), Array<Buffer>(10).fill(photo));
    expect(res.statusCode, res.body).toBe(201);
    const dir = path.join(ctx.dataDir, 'uploads', 'ads');
    const storedBytes = filesIn(dir).reduce((n, f) => n + fs.statSync(f).size, 0);
    expect(storedBytes).toBeGreaterThan(5 * 1024 * 1024); // one free post: > 5 MB of disk

    // A year later, every daily job has run.
    ctx.clock.advance(365 * DAY_MS);
    for (const f of filesIn(dir)) fs.utimesSync(f, ctx.clock.now(), new Date(ctx.clock.now().getTime() - 365 * DAY_MS));
    for (const job of CRON_JOBS) {
      if (['health-checks', 'reconcile-invoices'].includes(job.name)) continue;
      await job.run(ctx.app.deps, new AbortController().signal).catch(() => undefined);
    }
    expect(filesIn(dir)).toEqual([]);
  }, 120_000);
});
