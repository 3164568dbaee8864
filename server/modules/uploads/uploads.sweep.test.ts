import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { CRON_JOBS } from '../cron/cron.jobs.ts';
import { runJob } from '../cron/cron.service.ts';
import { processAdPhotos } from '../ads/ads.images.ts';
import { adForm, decide, goodFields, liveAd, placeIn, postAd } from '../ads/ads.testkit.ts';
import { multipart, png } from './test-images.ts';
import { storeUpload } from './uploads.storage.ts';
import { ORPHAN_MIN_AGE_MS, sweepOrphanUploads } from './uploads.sweep.ts';

const HOUR = 60 * 60 * 1000;
const sweep = CRON_JOBS.find((j) => j.name === 'sweep-orphan-uploads')!;

let ctx: TestContext;
let user: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  // File times come from the real clock: start the app's clock at real time, so that moving it
  // forward ages the files written by the test.
  ctx.clock.set(new Date());
  user = await makeUser(ctx);
});
afterEach(async () => ctx.close());

const abs = (rel: string) => path.join(ctx.dataDir, 'uploads', rel);
const exists = (rel: string) => fs.existsSync(abs(rel));
/** Sets a file's modification time to `msAgo` before the app's clock. */
const age = (rel: string, msAgo: number) => {
  const t = new Date(ctx.clock.now().getTime() - msAgo);
  fs.utimesSync(abs(rel), t, t);
};
const setAvatar = async (u: TestUser) => {
  const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', data: await png() }]);
  const res = await ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: u.cookie } });
  expect(res.statusCode).toBe(200);
  return (res.json().avatar as string).replace('/uploads/', '');
};

describe('cron job sweep-orphan-uploads', () => {
  it('is registered hourly', () => {
    expect(sweep).toBeDefined();
    expect(sweep.schedule).toMatch(/^\d+ \* \* \* \*$/);
  });

  it('removes old files no row names; keeps ad photos and avatars however old, young files, and files not named like ours', async () => {
    const ad = await postAd(ctx, user, await placeIn(ctx, 'ny'));
    const adFiles = (ad.photos as { url: string; thumbUrl: string }[]).flatMap((p) => [p.url, p.thumbUrl]).map((u) => u.replace('/uploads/', ''));
    const avatar = await setAvatar(user);
    // A post that crashed after storing its photos and before its row: what the job is for.
    const crashed = (await processAdPhotos(ctx.app.deps, [await png(50, 40)])).flatMap((p) => [p.path, p.thumbPath]);
    const oldAvatar = storeUpload(ctx.dataDir, 'avatars', Buffer.from('an avatar replaced long ago, never removed'));
    const halfWritten = `${storeUpload(ctx.dataDir, 'ads', Buffer.from('x'))}.tmp`;
    fs.renameSync(abs(halfWritten.slice(0, -4)), abs(halfWritten));
    const young = storeUpload(ctx.dataDir, 'ads', Buffer.from('a post in progress'));
    fs.writeFileSync(abs('README.txt'), 'an operator note');

    ctx.clock.advance(2 * HOUR); // every file is now two hours old …
    age(young, ORPHAN_MIN_AGE_MS - 60_000); // … but this one, 59 minutes old
    age('README.txt', 30 * 24 * HOUR);

    const run = await runJob(ctx.app.deps, sweep);
    expect(run).toMatchObject({ name: 'sweep-orphan-uploads', outcome: 'ok', message: '4 orphan upload files removed' });
    for (const rel of [...crashed, oldAvatar, halfWritten]) expect(exists(rel), rel).toBe(false);
    for (const rel of [...adFiles, avatar, young, 'README.txt']) expect(exists(rel), rel).toBe(true);
    // Served still (to its owner: the ad is not approved yet, uploads.unreviewed.test.ts).
    expect((await ctx.app.inject({ method: 'GET', url: `/uploads/${adFiles[0]}`, headers: { cookie: user.cookie } })).statusCode).toBe(200);

    // Once the young file is an hour old and still unnamed, it goes too; nothing else does.
    ctx.clock.advance(2 * 60_000);
    expect((await runJob(ctx.app.deps, sweep)).message).toBe('1 orphan upload file removed');
    expect(exists(young)).toBe(false);
    expect((await runJob(ctx.app.deps, sweep)).message).toBe('0 orphan upload files removed');
    for (const rel of [...adFiles, avatar]) expect(exists(rel), rel).toBe(true);
  });

  it('keeps files named in any shape of photo record, or by any ad status, and removes nothing when a record cannot be read', async () => {
    const ad = await postAd(ctx, user, await placeIn(ctx, 'ny'));
    const legacy = storeUpload(ctx.dataDir, 'ads', Buffer.from('photo of an older record shape'));
    const db = ctx.app.deps.db;
    const photos = JSON.parse((await db.selectFrom('ads').select('photos_json').where('id', '=', ad.id).executeTakeFirstOrThrow()).photos_json);
    photos.push({ url: `/uploads/${legacy}`, sizes: [{ src: `/uploads/${legacy}` }] });
    await db
      .updateTable('ads')
      .set({ photos_json: JSON.stringify(photos), status: 'rejected' })
      .where('id', '=', ad.id)
      .execute();
    const orphan = storeUpload(ctx.dataDir, 'avatars', Buffer.from('orphan'));
    ctx.clock.advance(2 * HOUR);

    await db.updateTable('ads').set({ photos_json: '[{"path": broken' }).where('id', '=', ad.id).execute();
    const refused = await runJob(ctx.app.deps, sweep);
    expect(refused.outcome).toBe('failed');
    expect(exists(orphan)).toBe(true);
    expect(exists(legacy)).toBe(true);

    await db
      .updateTable('ads')
      .set({ photos_json: JSON.stringify(photos) })
      .where('id', '=', ad.id)
      .execute();
    expect((await runJob(ctx.app.deps, sweep)).message).toBe('1 orphan upload file removed');
    expect(exists(orphan)).toBe(false);
    expect(exists(legacy)).toBe(true);
    for (const p of photos.slice(0, -1) as { path: string; thumbPath: string }[]) expect(exists(p.path) && exists(p.thumbPath)).toBe(true);
  });

  it('reads the ads a chunk at a time without missing one, whatever the chunk size', async () => {
    const ny = await placeIn(ctx, 'ny');
    const files = [];
    for (let i = 0; i < 3; i++) {
      const ad = await postAd(ctx, user, ny);
      files.push(...(ad.photos as { url: string; thumbUrl: string }[]).flatMap((p) => [p.url, p.thumbUrl]).map((u) => u.replace('/uploads/', '')));
    }
    ctx.clock.advance(2 * HOUR);
    for (const chunkSize of [1, 2, 3, 4]) {
      const orphan = storeUpload(ctx.dataDir, 'ads', Buffer.from('orphan'));
      age(orphan, 2 * HOUR);
      expect((await sweepOrphanUploads(ctx.app.deps, { chunkSize })).message).toBe('1 orphan upload file removed');
      expect(exists(orphan)).toBe(false);
      for (const rel of files) expect(exists(rel), `${rel} with chunks of ${chunkSize}`).toBe(true);
    }
  });

  /** A live ad with an edit waiting for review that replaces its photo; the edit's new upload paths. */
  async function liveAdWithPendingEdit() {
    const ny = await placeIn(ctx, 'ny');
    const owner = await makeUser(ctx, { status: 'approved' });
    const staff = await asAdmin(ctx);
    const ad = await liveAd(ctx, owner, staff, ny);
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: adForm({ ...goodFields(ny, { title: 'Elegant companion, new photos' }), keepPhotos: '[]' }, [await png(80, 60)]),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const revision = edit.json().ad.revision as { id: string; content: { photos: { url: string; thumbUrl: string }[] } };
    const added = revision.content.photos.flatMap((p) => [p.url, p.thumbUrl]).map((u) => u.replace('/uploads/', ''));
    return { ad, staff, revision, added };
  }

  it('keeps the new photos of an edit waiting for review: staff see them, and approving the edit publishes them', async () => {
    const { ad, staff, revision, added } = await liveAdWithPendingEdit();
    ctx.clock.advance(2 * HOUR); // the hourly job runs before staff reach the queue
    expect((await runJob(ctx.app.deps, sweep)).message).toBe('0 orphan upload files removed');
    for (const rel of added) expect(exists(rel), rel).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: `/uploads/${added[0]}`, headers: { cookie: staff.cookie } })).statusCode).toBe(200);
    expect((await decide(ctx, staff, [revision.id], 'approve')).json()).toEqual({ updated: 1 });
    const live = (await ctx.app.inject({ method: 'GET', url: `/api/ads/${ad.id}` })).json().ad as { photos: { url: string; thumbUrl: string }[] };
    expect(live.photos.flatMap((p) => [p.url, p.thumbUrl]).map((u) => u.replace('/uploads/', ''))).toEqual(added);
    for (const rel of added) expect(exists(rel), rel).toBe(true);
  });

  it('removes the photos of an edit its deleted ad left behind (a database from before edits were closed with their ad)', async () => {
    const { ad, added } = await liveAdWithPendingEdit();
    // The ad goes without its pending edit, as deletions did before the fix.
    const db = ctx.app.deps.database.sqlite;
    db.pragma('foreign_keys = OFF');
    db.prepare('DELETE FROM ads WHERE id = ?').run(ad.id);
    db.pragma('foreign_keys = ON');
    expect(db.prepare("SELECT count(*) AS n FROM ad_revisions WHERE ad_id = ? AND status = 'pending'").get(ad.id)).toEqual({ n: 1 });
    ctx.clock.advance(2 * HOUR);
    await runJob(ctx.app.deps, sweep);
    for (const rel of added) expect(exists(rel), rel).toBe(false);
  });

  it('does nothing when no upload has been stored yet', async () => {
    fs.rmSync(path.join(ctx.dataDir, 'uploads'), { recursive: true, force: true });
    expect((await runJob(ctx.app.deps, sweep)).message).toBe('0 orphan upload files removed');
  });
});
