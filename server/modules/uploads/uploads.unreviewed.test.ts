import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, decide, fundedUsd, goodFields, liveAd, pay, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';
import { png } from './test-images.ts';
import { HIDDEN, PRIVATE, PUBLIC, fetchAs, seenBy } from './uploads.testkit.ts';

// A photo no staff member approved is not public: otherwise anyone could host images here that
// nobody reviewed, cached forever. Its owner and staff still see it, and no cache keeps it.

let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;
let master: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  stranger = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  master = await asMaster(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

type Photo = { url: string; thumbUrl: string };
type Ad = { id: string; photos: Photo[] };
const urlsOf = (photos: Photo[]) => photos.flatMap((p) => [p.url, p.thumbUrl]);
/** The answer each of guest, another user, the owner, an admin and a master gets, for every URL. */
const seen = (urls: string[]) => seenBy(ctx, { guest: null, stranger, owner, admin, master }, urls);
const all = (n: number, answer: string) => Array<string>(n).fill(answer);
const unreviewed = (n: number) => ({
  guest: all(n, HIDDEN),
  stranger: all(n, HIDDEN),
  owner: all(n, PRIVATE),
  admin: all(n, PRIVATE),
  master: all(n, PRIVATE),
});
const published = (n: number) => ({ guest: all(n, PUBLIC), stranger: all(n, PUBLIC), owner: all(n, PUBLIC), admin: all(n, PUBLIC), master: all(n, PUBLIC) });

const editAd = async (adId: string, keep: Photo[], title: string) => {
  const res = await ctx.app.inject({
    method: 'PUT',
    url: `/api/ads/${adId}`,
    headers: { cookie: owner.cookie },
    payload: adForm({ ...goodFields(ny, { title }), keepPhotos: JSON.stringify(keep.map((p) => p.url)) }, [await png(90, 60)]),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ad as Ad & { revision: { id: string; content: { photos: Photo[] } } | null };
};

describe('photos nobody approved', () => {
  it('an unpaid, then in-review ad: its photos answer its owner and staff alone, not cached; approved, they are public and cached', async () => {
    const ad = (await postAd(ctx, owner, ny)) as unknown as Ad;
    const urls = urlsOf(ad.photos);
    expect(await seen(urls)).toEqual(unreviewed(2));
    expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
    expect(await seen(urls)).toEqual(unreviewed(2));
    // A photo added by an edit while it is in review is no more public.
    const edited = await editAd(ad.id, ad.photos, 'The same ad with one more photo');
    const all4 = urlsOf(edited.photos);
    expect(all4).toHaveLength(4);
    expect(await seen(all4)).toEqual(unreviewed(4));
    expect((await decide(ctx, admin, [ad.id], 'approve')).json()).toEqual({ updated: 1 });
    expect(await seen(all4)).toEqual(published(4));
  });

  it('a rejected ad: its photos stay with its owner and staff', async () => {
    const ad = (await postAd(ctx, owner, ny)) as unknown as Ad;
    expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
    expect((await decide(ctx, admin, [ad.id], 'reject', 'The photo does not match the ad')).json()).toEqual({ updated: 1 });
    expect(await seen(urlsOf(ad.photos))).toEqual(unreviewed(2));
  });

  it('an edit of a live ad: its new photo answers its owner and staff alone until staff approve the edit; the live photo stays public meanwhile', async () => {
    const ad = (await liveAd(ctx, owner, admin, ny)) as unknown as Ad;
    expect(await seen(urlsOf(ad.photos))).toEqual(published(2));
    const edited = await editAd(ad.id, ad.photos, 'The same ad with a new photo');
    const added = urlsOf(edited.revision!.content.photos).filter((u) => !urlsOf(ad.photos).includes(u));
    expect(added).toHaveLength(2);
    expect(await seen(added)).toEqual(unreviewed(2));
    expect(await seen(urlsOf(ad.photos))).toEqual(published(2));
    expect((await decide(ctx, master, [edited.revision!.id], 'approve')).json()).toEqual({ updated: 1 });
    expect(await seen([...urlsOf(ad.photos), ...added])).toEqual(published(4));
  });

  it('an edit staff reject: its new photo never answered the public', async () => {
    const ad = (await liveAd(ctx, owner, admin, ny)) as unknown as Ad;
    const edited = await editAd(ad.id, [], 'The same ad with another photo');
    const added = urlsOf(edited.revision!.content.photos);
    expect(await seen(added)).toEqual(unreviewed(2));
    expect((await decide(ctx, admin, [edited.revision!.id], 'reject', 'The new photo is not allowed')).json()).toEqual({ updated: 1 });
    for (const url of added) expect((await fetchAs(ctx, url, null)).statusCode, url).toBe(404);
    expect(await seen(urlsOf(ad.photos))).toEqual(published(2));
  });

  it('migration 0028 withholds the photos of existing ads and edits that no approved version showed', async () => {
    const inReview = (await postAd(ctx, owner, ny)) as unknown as Ad;
    expect((await pay(ctx, owner, inReview.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
    const rejected = (await postAd(ctx, owner, ny, { title: 'An ad staff will reject' })) as unknown as Ad;
    expect((await pay(ctx, owner, rejected.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
    expect((await decide(ctx, admin, [rejected.id], 'reject', 'The photo does not match the ad')).json()).toEqual({ updated: 1 });
    const live = (await liveAd(ctx, owner, admin, ny, { title: 'A live ad with an edit waiting' })) as unknown as Ad;
    const edited = await editAd(live.id, live.photos, 'A live ad with a new photo waiting');
    const approvedEdit = (await liveAd(ctx, owner, admin, ny, { title: 'A live ad whose edit was approved' })) as unknown as Ad;
    const revision = (await editAd(approvedEdit.id, [], 'A live ad with an approved new photo')).revision!;
    expect((await decide(ctx, admin, [revision.id], 'approve')).json()).toEqual({ updated: 1 });

    const rows = () => ctx.app.deps.db.selectFrom('withdrawn_uploads').selectAll().orderBy('path').orderBy('reason').execute();
    const before = await rows();
    // The in-review ad's and the rejected ad's photos, and the pending edit's new one: a large file and a thumbnail each.
    expect(before).toHaveLength(6);
    expect(before.every((r) => r.reason.startsWith('unreviewed:'))).toBe(true);
    // As a database from before 0028 would be: nothing recorded; the migration's statements fill it.
    await ctx.app.deps.db.deleteFrom('withdrawn_uploads').execute();
    expect(await fetchAs(ctx, urlsOf(inReview.photos)[0], null)).toHaveProperty('statusCode', 200);
    const sql = fs.readFileSync(path.join(import.meta.dirname, '../../../migrations/sqlite/0028_unreviewed_uploads.sql'), 'utf8');
    ctx.app.deps.database.sqlite.exec(sql.slice(sql.indexOf('-- What no approved version has shown')));
    expect(await rows()).toEqual(before);
    const added = urlsOf(edited.revision!.content.photos).filter((u) => !urlsOf(live.photos).includes(u));
    for (const url of [...urlsOf(inReview.photos), ...urlsOf(rejected.photos), ...added]) expect((await fetchAs(ctx, url, null)).statusCode, url).toBe(404);
    for (const url of [...urlsOf(live.photos), ...urlsOf(revision.content.photos)]) expect((await fetchAs(ctx, url, null)).statusCode, url).toBe(200);
  });
});
