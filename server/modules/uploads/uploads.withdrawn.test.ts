import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, decide, goodFields, liveAd, placeIn, type Place } from '../ads/ads.testkit.ts';
import { holdsInForce, postAs } from '../moderation/moderation.testkit.ts';
import { png } from './test-images.ts';
import { HIDDEN, PRIVATE, PUBLIC, fetchAs, seenBy } from './uploads.testkit.ts';

// A taken-down ad's photos stop answering the public (their URLs are out there: pages, link
// previews, image search), and so do the photos only a legal hold keeps; staff still see them.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let master: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  master = await asMaster(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

type Ad = { id: string; photos: { url: string; thumbUrl: string }[] };
const urlsOf = (ad: Ad) => ad.photos.flatMap((p) => [p.url, p.thumbUrl]);
/** What each of guest, owner and admin gets for each URL: status and cache-control. */
const seen = (urls: string[]) => seenBy(ctx, { guest: null, owner, admin }, urls);
/** Not public, not kept by any cache: staff (and for a disabled ad, its owner). */
const STAFF = PRIVATE;
const setAdStatus = (ids: string[], status: 'disabled' | 'approved') => postAs(ctx, admin, '/api/admin/set-status-approved-ads', { adIds: ids, status });
const setUserStatus = (userId: string, status: 'suspended' | 'approved') => postAs(ctx, master, '/api/master/update-user-status', { userId, status });

describe('withdrawn photos', () => {
  it('a disabled ad: its photos answer staff and its owner alone, not cached; enabled again, they are public again', async () => {
    const ad = (await liveAd(ctx, owner, admin, ny)) as unknown as Ad;
    const other = (await liveAd(ctx, owner, admin, ny, { title: 'Another ad of the same owner' })) as unknown as Ad;
    const urls = urlsOf(ad);
    expect(await seen(urls)).toEqual({ guest: [PUBLIC, PUBLIC], owner: [PUBLIC, PUBLIC], admin: [PUBLIC, PUBLIC] });
    expect((await setAdStatus([ad.id], 'disabled')).status).toBe(200);
    // Its owner still sees their own photos (on their dashboard); nobody else but staff.
    expect(await seen(urls)).toEqual({ guest: [HIDDEN, HIDDEN], owner: [STAFF, STAFF], admin: [STAFF, STAFF] });
    const stranger = await makeUser(ctx, { status: 'approved' });
    expect((await fetchAs(ctx, urls[0], stranger)).statusCode).toBe(404);
    expect((await fetchAs(ctx, urlsOf(other)[0], null)).statusCode).toBe(200); // the owner's other ad is not touched
    expect((await setAdStatus([ad.id], 'approved')).status).toBe(200);
    expect(await seen(urls)).toEqual({ guest: [PUBLIC, PUBLIC], owner: [PUBLIC, PUBLIC], admin: [PUBLIC, PUBLIC] });
  });

  it('a shared cache keeps a public photo for minutes, and revalidating it after a takedown gets the 404, not a 304', async () => {
    const ad = (await liveAd(ctx, owner, admin, ny)) as unknown as Ad;
    const url = ad.photos[0].url;
    const before = await fetchAs(ctx, url, null);
    expect(before.statusCode).toBe(200);
    // what a cache (CDN, proxy, image proxy) may serve without asking: five minutes, not a year
    expect(before.headers['cache-control']).toBe('public, max-age=300');
    const validators = { 'if-none-match': before.headers.etag as string, 'if-modified-since': before.headers['last-modified'] as string };
    expect((await ctx.app.inject({ url, headers: validators })).statusCode).toBe(304);
    expect((await setAdStatus([ad.id], 'disabled')).status).toBe(200);
    for (const headers of [validators, { 'if-modified-since': validators['if-modified-since'] }, { 'if-none-match': '*' }]) {
      const again = await ctx.app.inject({ url, headers });
      expect(again.statusCode).toBe(404);
      expect(again.headers['cache-control']).toBe('no-store');
    }
  });

  it('a suspended owner: every photo of theirs (a pending edit’s too) answers staff alone until the suspension is lifted; a disabled ad stays withdrawn', async () => {
    const ad = (await liveAd(ctx, owner, admin, ny)) as unknown as Ad;
    const down = (await liveAd(ctx, owner, admin, ny, { title: 'An ad staff took down' })) as unknown as Ad;
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: adForm({ ...goodFields(ny, { title: 'The same ad with a new photo' }), keepPhotos: JSON.stringify(ad.photos.map((p) => p.url)) }, [
        await png(90, 60),
      ]),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const editUrls = (edit.json().ad.revision.content.photos as { url: string; thumbUrl: string }[]).flatMap((p) => [p.url, p.thumbUrl]);
    expect((await setAdStatus([down.id], 'disabled')).status).toBe(200);
    expect((await setUserStatus(owner.id, 'suspended')).status).toBe(200);
    for (const url of [...urlsOf(ad), ...editUrls, ...urlsOf(down)]) {
      expect((await fetchAs(ctx, url, null)).statusCode, url).toBe(404);
      expect((await fetchAs(ctx, url, admin)).statusCode, url).toBe(200);
    }
    expect((await setUserStatus(owner.id, 'approved')).status).toBe(200);
    for (const url of urlsOf(ad)) expect((await fetchAs(ctx, url, null)).statusCode, url).toBe(200); // the edit keeps them
    // The edit’s new photo is not public before staff approve the edit (uploads.unreviewed.test.ts).
    const added = editUrls.filter((u) => !urlsOf(ad).includes(u));
    expect(added).toHaveLength(2);
    for (const url of added) expect([url, (await fetchAs(ctx, url, null)).statusCode, (await fetchAs(ctx, url, admin)).statusCode]).toEqual([url, 404, 200]);
    for (const url of urlsOf(down)) expect((await fetchAs(ctx, url, null)).statusCode, url).toBe(404);
  });

  it('photos only a legal hold keeps (a deleted held ad’s, an edit’s dropped one) answer staff alone; released, they are gone', async () => {
    const ad = (await liveAd(ctx, owner, admin, ny)) as unknown as Ad;
    const kept = (await liveAd(ctx, owner, admin, ny, { title: 'An ad whose photo is replaced' })) as unknown as Ad;
    expect(
      (await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'user', targetId: owner.id, reason: 'Preservation request 2026-031' })).status,
    ).toBe(201);
    // An approved edit replaces the second ad's photo: the hold keeps the old file.
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${kept.id}`,
      headers: { cookie: owner.cookie },
      payload: adForm({ ...goodFields(ny, { title: 'An ad whose photo was replaced' }), keepPhotos: '[]' }, [await png(90, 60)]),
    });
    const revisionId = edit.json().ad.revision.id as string;
    expect((await decide(ctx, master, [revisionId], 'approve')).json()).toEqual({ updated: 1 });
    // The owner deletes the first ad: the hold keeps a copy and its files.
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    const heldUrls = [...urlsOf(ad), ...urlsOf(kept)];
    for (const url of heldUrls) {
      expect(fs.existsSync(path.join(ctx.dataDir, url)), url).toBe(true);
      expect((await fetchAs(ctx, url, null)).statusCode, url).toBe(404);
      expect((await fetchAs(ctx, url, owner)).statusCode, url).toBe(404);
      expect((await fetchAs(ctx, url, admin)).statusCode, url).toBe(200);
    }
    const live = (await ctx.app.inject({ method: 'GET', url: `/api/ads/${kept.id}` })).json().ad as Ad;
    for (const url of urlsOf(live)) expect((await fetchAs(ctx, url, null)).statusCode, url).toBe(200); // the new photo is public
    expect(
      (
        await postAs(ctx, admin, '/api/admin/release-legal-hold', {
          targetType: 'user',
          targetId: owner.id,
          holdIds: await holdsInForce(ctx, 'user', owner.id),
          note: 'Case closed by the requesting agency.',
        })
      ).status,
    ).toBe(200);
    const left = await ctx.app.deps.db.selectFrom('withdrawn_uploads').select('path').where('reason', '=', 'hold').execute();
    expect(left.map((r) => `/uploads/${r.path}`).filter((p) => urlsOf(ad).includes(p))).toEqual([]); // the deleted ad's files went with their rows
  });

  it('migration 0021 withdraws what is already taken down or held', async () => {
    const down = (await liveAd(ctx, owner, admin, ny)) as unknown as Ad;
    const suspended = await makeUser(ctx, { status: 'approved' });
    const theirs = (await liveAd(ctx, suspended, admin, ny)) as unknown as Ad;
    const fine = (await liveAd(ctx, owner, admin, ny, { title: 'An ad nobody took down' })) as unknown as Ad;
    await setAdStatus([down.id], 'disabled');
    await setUserStatus(suspended.id, 'suspended');
    const before = await ctx.app.deps.db.selectFrom('withdrawn_uploads').selectAll().orderBy('path').orderBy('reason').execute();
    expect(before).toHaveLength(4); // the photo of each of two ads, a large file and a thumbnail
    // As a database from before 0021 would be: nothing recorded; the migration's own statements fill it.
    await ctx.app.deps.db.deleteFrom('withdrawn_uploads').execute();
    const sql = fs.readFileSync(path.join(import.meta.dirname, '../../../migrations/sqlite/0021_withdrawn_uploads.sql'), 'utf8');
    ctx.app.deps.database.sqlite.exec(sql.slice(sql.indexOf('-- What is taken down')));
    expect(await ctx.app.deps.db.selectFrom('withdrawn_uploads').selectAll().orderBy('path').orderBy('reason').execute()).toEqual(before);
    expect((await fetchAs(ctx, urlsOf(theirs)[0], null)).statusCode).toBe(404);
    expect((await fetchAs(ctx, urlsOf(fine)[0], null)).statusCode).toBe(200);
  });
});
