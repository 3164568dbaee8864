import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { blockPhoto, postAs } from '../moderation/moderation.testkit.ts';
import { fetchAs } from '../uploads/uploads.testkit.ts';
import { goodFields, liveAd, placeIn, postAdRaw, type Place } from './ads.testkit.ts';

// A deleted ad's own withdrawn_uploads rows ('unreviewed:<ad>', 'ad:<ad>') go with it (migration
// 0035): every draft posted and deleted left two rows a photo behind, for ever. Their files go with
// the ad, so no file becomes public; the files a legal hold keeps stay withdrawn.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

type Ad = { id: string; photos: { url: string; thumbUrl?: string }[] };
const db = () => ctx.app.deps.db;
const rowsOf = (adId: string) =>
  db()
    .selectFrom('withdrawn_uploads')
    .select(['path', 'reason'])
    .where('reason', 'in', [`unreviewed:${adId}`, `ad:${adId}`])
    .execute();
const draft = async () => {
  const res = await postAdRaw(ctx, owner, goodFields(ny), [await blockPhoto(2), await blockPhoto(4)]);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ad as Ad;
};
const urlsOf = (ad: Ad) => ad.photos.flatMap((p) => [p.url, ...(p.thumbUrl ? [p.thumbUrl] : [])]);
const statuses = async (urls: string[], who: TestUser | null) => Promise.all(urls.map(async (u) => (await fetchAs(ctx, u, who)).statusCode));
const deleteFromCart = (adId: string) => ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${adId}`, headers: { cookie: owner.cookie } });

describe("a deleted ad's withdrawn_uploads rows", () => {
  it('a draft deleted from the cart leaves no withdrawn_uploads rows behind, and none of its files answers', async () => {
    const ad = await draft();
    expect(await rowsOf(ad.id)).toHaveLength(4); // two photos, a large file and a thumbnail each
    expect((await deleteFromCart(ad.id)).statusCode).toBe(200);
    expect(fs.readdirSync(path.join(ctx.dataDir, 'uploads', 'ads'))).toEqual([]);
    expect(await rowsOf(ad.id)).toEqual([]);
    expect(await statuses(urlsOf(ad), null)).toEqual([404, 404, 404, 404]);
  });

  it('an ad staff took down, deleted by its owner, leaves neither its "ad:" nor its "unreviewed:" rows', async () => {
    const master = await asMaster(ctx);
    const ad = (await liveAd(ctx, owner, admin, ny)) as unknown as Ad;
    const off = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-status-approved-ads',
      headers: { cookie: master.cookie },
      payload: { adIds: [ad.id], status: 'disabled' },
    });
    expect(off.json()).toEqual({ updated: 1 });
    expect((await rowsOf(ad.id)).length).toBeGreaterThan(0);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    expect(await rowsOf(ad.id)).toEqual([]);
    expect(await statuses(urlsOf(ad), null)).toEqual(urlsOf(ad).map(() => 404));
  });

  it('a held draft deleted from the cart keeps its files withdrawn: staff fetch them, nobody else', async () => {
    const ad = await draft();
    const hold = await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'ad', targetId: ad.id, reason: 'Preservation request 2026-35' });
    expect(hold.status).toBe(201);
    expect((await deleteFromCart(ad.id)).statusCode).toBe(200);
    expect(await statuses(urlsOf(ad), null)).toEqual([404, 404, 404, 404]);
    expect(await statuses(urlsOf(ad), owner)).toEqual([404, 404, 404, 404]);
    expect(await statuses(urlsOf(ad), admin)).toEqual([200, 200, 200, 200]);
  });

  it('migration 0035 deletes the rows deleted ads left, except those of files a hold keeps without a "hold" row', async () => {
    const kept = await draft();
    const held = await draft();
    const placed = await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'ad', targetId: held.id, reason: 'Preservation request 2026-35' });
    expect(placed.status).toBe(201);
    expect((await deleteFromCart(held.id)).statusCode).toBe(200);
    // As rows left before 0035: a deleted draft's, a taken-down ad's, and a held copy's file the
    // hold withdrew as 'hold' and one it did not.
    const heldPaths = (await db().selectFrom('withdrawn_uploads').select('path').where('reason', '=', 'hold').execute()).map((r) => r.path).sort();
    await db().deleteFrom('withdrawn_uploads').where('reason', '=', 'hold').where('path', '=', heldPaths[0]).execute();
    const left = [
      { path: 'ads/gone-a.webp', reason: 'unreviewed:gone' },
      { path: 'ads/gone-a.webp', reason: 'ad:gone' },
      { path: heldPaths[0], reason: `unreviewed:${held.id}` },
      { path: heldPaths[1], reason: `unreviewed:${held.id}` },
    ];
    await db().insertInto('withdrawn_uploads').values(left).execute();
    const before = await rowsOf(kept.id);
    const sql = fs.readFileSync(path.join(import.meta.dirname, '../../../migrations/sqlite/0035_withdrawn_uploads_cleanup.sql'), 'utf8');
    ctx.app.deps.database.sqlite.exec(sql.slice(sql.indexOf('-- The rows left so far')));
    const all = await db().selectFrom('withdrawn_uploads').select(['path', 'reason']).where('reason', '!=', 'hold').orderBy('path').orderBy('reason').execute();
    const expected = [...before, { path: heldPaths[0], reason: `unreviewed:${held.id}` }];
    expect(all).toEqual(expected.sort((a, b) => (a.path === b.path ? a.reason.localeCompare(b.reason) : a.path < b.path ? -1 : 1)));
  });
});
