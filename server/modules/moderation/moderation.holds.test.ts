import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, decide, fundedUsd, goodFields, jpegWithGps, liveAd, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';
import { multipart, png } from '../uploads/test-images.ts';
import { sweepOrphanUploads, ORPHAN_MIN_AGE_MS } from '../uploads/uploads.sweep.ts';
import { DAY_MS } from '../../core/clock.ts';
import { getAs, postAs } from './moderation.testkit.ts';
import { photoPaths } from './moderation.holds.ts';
import { purgeOldSignIns } from './moderation.jobs.ts';

let ctx: TestContext;
let admin: TestUser;
let master: TestUser;
let place: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
  master = await asMaster(ctx);
  place = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

const db = () => ctx.app.deps.db;
const hold = (targetType: 'user' | 'ad', targetId: string, reason = 'Preservation request 2026-014', who = admin) =>
  postAs(ctx, who, '/api/admin/place-legal-hold', { targetType, targetId, reason });
/** The ids of the holds in force on the subject, as the user screen shows them (a made-up one when none is). */
const shownHolds = async (targetType: 'user' | 'ad', targetId: string) => {
  const rows = await db()
    .selectFrom('legal_holds')
    .select('id')
    .where('target_type', '=', targetType)
    .where('target_id', '=', targetId)
    .where('released_at', 'is', null)
    .execute();
  return rows.length ? rows.map((r) => r.id) : ['nosuchhold'];
};
/** Releases the holds named (by default those in force on the subject now). */
const release = async (targetType: 'user' | 'ad', targetId: string, note = 'Case closed by the requesting agency.', who = admin, holdIds?: string[]) =>
  postAs(ctx, who, '/api/admin/release-legal-hold', { targetType, targetId, holdIds: holdIds ?? (await shownHolds(targetType, targetId)), note });
const holdsInForce = async () =>
  (await db().selectFrom('legal_holds').select('id').where('released_at', 'is', null).orderBy('placed_at').execute()).map((h) => h.id);
const filesOf = async (adId: string, table: 'ads' | 'held_ads' = 'ads') => {
  const row = await db().selectFrom(table).select('photos_json').where('id', '=', adId).executeTakeFirstOrThrow();
  return photoPaths(row.photos_json).map((p) => path.join(ctx.dataDir, 'uploads', p));
};
const exists = (files: string[]) => files.map((f) => fs.existsSync(f));
const deleteProfile = (u: TestUser) =>
  ctx.app.inject({ method: 'DELETE', url: '/api/delete-my-profile?confirm=true', headers: { cookie: u.cookie }, payload: { password: u.password } });
const audit = (action: string) =>
  db().selectFrom('audit_log').select(['actor_id', 'target_type', 'target_id', 'after_json']).where('action', '=', action).execute();

describe('placing and releasing legal holds', () => {
  it('places a hold on an account or an ad with a reason, audited; releases with a note, audited', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await postAd(ctx, owner, place);
    const onUser = await hold('user', owner.id, '  Subpoena   24-117  ');
    expect(onUser.status).toBe(201);
    expect(onUser.body.hold).toMatchObject({
      targetType: 'user',
      targetId: owner.id,
      userId: owner.id,
      reason: 'Subpoena 24-117',
      placedBy: admin.email,
      placedAt: '2026-01-15T12:00:00.000Z',
      releasedAt: null,
      active: true,
    });
    ctx.clock.advance(1000);
    const onAd = await hold('ad', ad.id, 'NCMEC report 55012', master);
    expect(onAd.body.hold).toMatchObject({ targetType: 'ad', targetId: ad.id, userId: owner.id, active: true });
    expect((await audit('legal_hold.place')).map((a) => [a.actor_id, a.target_type, a.target_id, JSON.parse(a.after_json!).reason])).toEqual([
      [admin.id, 'user', owner.id, 'Subpoena 24-117'],
      [master.id, 'ad', ad.id, 'NCMEC report 55012'],
    ]);
    const active = await getAs(ctx, admin, '/api/admin/get-legal-holds?active=true');
    expect(active.body.holds.map((h: { targetId: string }) => h.targetId).sort()).toEqual([owner.id, ad.id].sort());

    ctx.clock.advance(60_000);
    const released = await release('user', owner.id, 'Agency withdrew the request.');
    expect(released).toEqual({ status: 200, body: { released: 1 } });
    expect((await audit('legal_hold.release')).map((a) => [a.actor_id, a.target_id, JSON.parse(a.after_json!).note])).toEqual([
      [admin.id, owner.id, 'Agency withdrew the request.'],
    ]);
    const page = await getAs(ctx, admin, `/api/admin/get-user/${owner.id}`);
    expect(page.body.user.held).toBe(true); // the hold on the ad is still in force
    expect(page.body.holds.map((h: { targetType: string; active: boolean; releaseNote: string | null }) => [h.targetType, h.active, h.releaseNote])).toEqual([
      ['ad', true, null], // newest first
      ['user', false, 'Agency withdrew the request.'],
    ]);
    expect((await release('user', owner.id)).body).toMatchObject({ code: 'moderation.not_held' });
  });

  it('refuses a short reason, an unknown subject, and a hold about oneself', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    expect((await hold('user', owner.id, 'x')).body).toMatchObject({ code: 'moderation.hold_reason_length', params: { field: 'reason', min: 3, max: 1000 } });
    expect((await hold('user', 'nosuchuser')).status).toBe(404);
    expect((await hold('ad', 'nosuchad')).status).toBe(404);
    expect((await hold('user', admin.id)).body).toMatchObject({ code: 'moderation.own_hold' });
    expect((await release('user', owner.id)).body).toMatchObject({ code: 'moderation.not_held' });
    expect((await release('user', 'nosuchuser')).status).toBe(404);
    await hold('user', admin.id, 'Internal review', master);
    expect((await release('user', admin.id)).status).toBe(409); // not by the person held
    expect((await release('user', admin.id, 'Review done, nothing found.', master)).body).toEqual({ released: 1 });
    expect((await postAs(ctx, owner, '/api/admin/place-legal-hold', { targetType: 'user', targetId: owner.id, reason: 'mine' })).status).toBe(403);
    expect(await db().selectFrom('legal_holds').select('id').where('target_id', '=', owner.id).execute()).toEqual([]);
  });
});

describe('releasing the holds a staff member saw', () => {
  // A legal hold answers one legal request; several may cover one account. The user screen lists
  // each hold with its own Release button, and the release names that hold: an admin who answered
  // subpoena 24-117 must not also release the NCMEC preservation hold a master placed on the same
  // account a minute later (which the admin never saw). Released with it, the account's deferred
  // deletion would be completed and the evidence the second request asked to keep erased.
  it("releases only the hold named: another staff member's newer hold on the same account stays, and so does the closed account", async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    await postAd(ctx, owner, place, { title: 'Evidence in a preservation case' });
    const first = await hold('user', owner.id, 'Subpoena 24-117');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // The owner closes the account while held: it is kept, not erased.
    expect((await deleteProfile(owner)).statusCode).toBe(200);

    // The admin opens the holds and sees one: subpoena 24-117.
    const seen = await getAs(ctx, admin, '/api/admin/get-legal-holds?active=true');
    expect(seen.body.holds.map((h: { id: string }) => h.id)).toEqual([first.body.hold.id]);

    // Meanwhile the master places a second hold for another legal request.
    ctx.clock.advance(60_000);
    const second = await hold('user', owner.id, 'NCMEC report 55012', master);
    expect(second.status, JSON.stringify(second.body)).toBe(201);

    // The admin releases the hold they saw.
    ctx.clock.advance(60_000);
    const released = await release('user', owner.id, 'Subpoena 24-117 answered.', admin, [first.body.hold.id]);
    const account = async () => (await db().selectFrom('users').select('email').where('id', '=', owner.id).executeTakeFirstOrThrow()).email;
    expect({ answer: released, holdsInForce: await holdsInForce(), email: await account() }).toEqual({
      answer: { status: 200, body: { released: 1 } },
      holdsInForce: [second.body.hold.id],
      email: owner.email,
    });
    expect(await db().selectFrom('held_ads').select('id').where('owner_id', '=', owner.id).execute()).toHaveLength(1);
    const rows = async () =>
      (
        await db().selectFrom('audit_log').select(['actor_id', 'before_json', 'after_json']).where('action', '=', 'legal_hold.release').orderBy('id').execute()
      ).map((a) => [a.actor_id, JSON.parse(a.before_json!).holdIds, JSON.parse(a.after_json!).accountErased]);
    expect(await rows()).toEqual([[admin.id, [first.body.hold.id], false]]);

    // The master releases the last one: the deletion the owner asked for is completed now.
    ctx.clock.advance(60_000);
    expect(await release('user', owner.id, 'NCMEC report closed.', master, [second.body.hold.id])).toEqual({ status: 200, body: { released: 1 } });
    expect({ holdsInForce: await holdsInForce(), email: await account() }).toEqual({ holdsInForce: [], email: `deleted-${owner.id}@deleted.invalid` });
    expect(await rows()).toEqual([
      [admin.id, [first.body.hold.id], false],
      [master.id, [second.body.hold.id], true],
    ]);
  });

  it('refuses (409) a release naming a hold no longer in force on the subject, releasing nothing', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await postAd(ctx, owner, place);
    const first = (await hold('user', owner.id, 'Subpoena 24-117')).body.hold.id as string;
    const onAd = (await hold('ad', ad.id, 'Preservation letter 2026-77', master)).body.hold.id as string;
    // The master releases the subpoena hold and places a new one; the admin's screen still shows the first.
    expect((await release('user', owner.id, 'Subpoena answered.', master, [first])).status).toBe(200);
    ctx.clock.advance(60_000);
    const newer = (await hold('user', owner.id, 'NCMEC report 55012', master)).body.hold.id as string;
    const stale = await release('user', owner.id, 'Subpoena 24-117 answered.', admin, [first]);
    expect([stale.status, stale.body.code]).toEqual([409, 'moderation.hold_changed']);
    // A hold of another subject (the owner's ad), an unknown one, or one in force beside one that is not.
    for (const ids of [[onAd], ['nosuchhold'], [newer, first]]) {
      const res = await release('user', owner.id, 'Releasing what the screen shows.', admin, ids);
      expect([ids, res.status, res.body.code]).toEqual([ids, 409, 'moderation.hold_changed']);
    }
    expect((await holdsInForce()).sort()).toEqual([onAd, newer].sort());
    expect((await audit('legal_hold.release')).length).toBe(1); // the master's
    // None named at all: refused by the schema.
    const unnamed = await postAs(ctx, admin, '/api/admin/release-legal-hold', { targetType: 'user', targetId: owner.id, note: 'Release them all.' });
    expect(unnamed.status).toBe(400);
    expect((await release('user', owner.id, 'Released as shown.', admin, [newer, newer])).body).toEqual({ released: 1 });
    expect(await holdsInForce()).toEqual([onAd]);
  });
});

describe('a held account deletes its profile', () => {
  it('keeps every row and file (invisibly to the public) until the hold is released, then erases', async () => {
    const owner = await makeUser(ctx, { status: 'approved', nickname: 'held_owner' });
    await db().updateTable('users').set({ phone: '+12125550142', phone_verified_at: ctx.clock.now().toISOString() }).where('id', '=', owner.id).execute();
    const live = await liveAd(ctx, owner, admin, place);
    const cart = await postAd(ctx, owner, place);
    const signIn = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: owner.email, password: owner.password } });
    expect(signIn.statusCode).toBe(200);
    await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${live.id}`, payload: { message: 'This person looks underage to me.' } });
    const liveFiles = await filesOf(live.id);
    const cartFiles = await filesOf(cart.id);
    const liveRow = await db().selectFrom('ads').selectAll().where('id', '=', live.id).executeTakeFirstOrThrow();
    const ledgerBefore = await db()
      .selectFrom('ledger_entries')
      .innerJoin('wallets', 'wallets.id', 'ledger_entries.wallet_id')
      .selectAll('ledger_entries')
      .where('wallets.user_id', '=', owner.id)
      .execute();
    expect(ledgerBefore.length).toBe(2); // funded, paid
    expect((await hold('user', owner.id)).status).toBe(201);

    ctx.clock.advance(60_000);
    expect((await deleteProfile(owner)).statusCode).toBe(200);

    // The account is closed (no session, no sign-in, no roles) but its personal data stays.
    const u = await db().selectFrom('users').selectAll().where('id', '=', owner.id).executeTakeFirstOrThrow();
    expect([u.email, u.nickname, u.phone, u.deleted_at]).toEqual([owner.email, 'held_owner', '+12125550142', '2026-01-15T12:01:00.000Z']);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: owner.cookie } })).json().isAuthenticated).toBe(false);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: owner.email, password: owner.password } })).statusCode).toBe(401);
    expect(await db().selectFrom('user_roles').select('role').where('user_id', '=', owner.id).execute()).toEqual([]);
    // Its ads left the ads table (every public read and owner's list reads that table alone) as
    // copies with every column, their files on disk.
    expect(await db().selectFrom('ads').select('id').where('owner_id', '=', owner.id).execute()).toEqual([]);
    const held = await db().selectFrom('held_ads').selectAll().where('owner_id', '=', owner.id).orderBy('created_at').execute();
    expect(held.map((h) => [h.id, h.status_before, h.deleted_by, h.deleted_at])).toEqual(
      [
        [live.id, 'approved', 'profile_deletion', '2026-01-15T12:01:00.000Z'],
        [cart.id, 'unpaid', 'profile_deletion', '2026-01-15T12:01:00.000Z'],
      ].sort((a, b) => (a[0] === live.id ? -1 : b[0] === live.id ? 1 : 0)),
    );
    expect(JSON.parse(held.find((h) => h.id === live.id)!.row_json)).toEqual(liveRow);
    expect(exists([...liveFiles, ...cartFiles])).toEqual([true, true, true, true]);
    // Sign-ins, ledger, reports stay (they always do), and the orphan sweep leaves the kept photos alone.
    expect((await db().selectFrom('sign_ins').select('ip').where('user_id', '=', owner.id).execute()).length).toBe(2); // its registration and sign-in
    const ledgerAfter = await db()
      .selectFrom('ledger_entries')
      .innerJoin('wallets', 'wallets.id', 'ledger_entries.wallet_id')
      .selectAll('ledger_entries')
      .where('wallets.user_id', '=', owner.id)
      .execute();
    expect(ledgerAfter).toEqual(ledgerBefore);
    expect((await db().selectFrom('reports').select('id').where('ad_id', '=', live.id).execute()).length).toBe(1);
    ctx.clock.advance(ORPHAN_MIN_AGE_MS + 1000);
    for (const f of [...liveFiles, ...cartFiles]) fs.utimesSync(f, new Date(0), new Date(0));
    await sweepOrphanUploads(ctx.app.deps);
    expect(exists([...liveFiles, ...cartFiles])).toEqual([true, true, true, true]);
    // Staff still find everything: search shows the ads as deleted, the user page the whole account.
    const found = await getAs(ctx, admin, `/api/admin/search-ads?query=${encodeURIComponent(owner.email)}`);
    expect(found.body.ads.map((a: { id: string; status: string; held: boolean }) => [a.status, a.held])).toEqual([
      ['deleted', true],
      ['deleted', true],
    ]);
    const page = await getAs(ctx, admin, `/api/admin/get-user/${owner.id}`);
    expect(page.body.user).toMatchObject({ email: owner.email, deleted: true, held: true, phone: '+12125550142' });
    expect(page.body.ads).toHaveLength(2);

    // Released: the deletion asked for is completed.
    const released = await release('user', owner.id);
    expect(released.body).toEqual({ released: 1 });
    const erased = await db().selectFrom('users').selectAll().where('id', '=', owner.id).executeTakeFirstOrThrow();
    expect([erased.email, erased.nickname, erased.phone]).toEqual([`deleted-${owner.id}@deleted.invalid`, 'deleted', null]);
    expect(await db().selectFrom('held_ads').select('id').where('owner_id', '=', owner.id).execute()).toEqual([]);
    expect(exists([...liveFiles, ...cartFiles])).toEqual([false, false, false, false]);
    expect(JSON.parse((await audit('legal_hold.release'))[0].after_json!)).toMatchObject({ deletedAds: 2, accountErased: true });
  });

  it('without a hold, deletes and erases at once (nothing kept)', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await postAd(ctx, owner, place);
    const files = await filesOf(ad.id);
    expect((await deleteProfile(owner)).statusCode).toBe(200);
    expect((await db().selectFrom('users').select('email').where('id', '=', owner.id).executeTakeFirstOrThrow()).email).toBe(
      `deleted-${owner.id}@deleted.invalid`,
    );
    expect(await db().selectFrom('held_ads').select('id').execute()).toEqual([]);
    expect(await db().selectFrom('photo_hashes').select('ad_id').where('ad_id', '=', ad.id).execute()).toEqual([]);
    expect(exists(files)).toEqual([false, false]);
  });

  it('a hold on one ad keeps that ad and the account record; the owner’s other ads go', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const kept = await postAd(ctx, owner, place);
    const gone = await postAd(ctx, owner, place);
    const keptFiles = await filesOf(kept.id);
    const goneFiles = await filesOf(gone.id);
    await hold('ad', kept.id);
    expect((await deleteProfile(owner)).statusCode).toBe(200);
    expect((await db().selectFrom('held_ads').select('id').execute()).map((r) => r.id)).toEqual([kept.id]);
    expect([...exists(keptFiles), ...exists(goneFiles)]).toEqual([true, true, false, false]);
    expect((await db().selectFrom('users').select('email').where('id', '=', owner.id).executeTakeFirstOrThrow()).email).toBe(owner.email);
  });
});

describe('cart deletion under a hold', () => {
  it('takes the ad out of the cart but keeps a copy and its photos; without a hold both go', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    await fundedUsd(ctx, owner, 0);
    const a = await postAd(ctx, owner, place);
    const b = await postAd(ctx, owner, place);
    const aFiles = await filesOf(a.id);
    const bFiles = await filesOf(b.id);
    await hold('ad', a.id);
    for (const id of [a.id, b.id]) {
      expect((await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    }
    const cart = await ctx.app.inject({ method: 'GET', url: '/api/cart-ads-by-user', headers: { cookie: owner.cookie } });
    expect(cart.json().pendingAds).toEqual([]);
    expect((await db().selectFrom('held_ads').select(['id', 'deleted_by']).execute()).map((r) => [r.id, r.deleted_by])).toEqual([[a.id, 'cart_deletion']]);
    expect([...exists(aFiles), ...exists(bFiles)]).toEqual([true, true, false, false]);
    // Released: the kept copy and its files go.
    expect((await release('ad', a.id)).body).toEqual({ released: 1 });
    expect(await db().selectFrom('held_ads').select('id').execute()).toEqual([]);
    expect(exists(aFiles)).toEqual([false, false]);
  });
});

describe('files a hold keeps that the live rows no longer name', () => {
  type Photo = { url: string; thumbUrl: string };
  const onDisk = (photos: Photo[]) => photos.flatMap((p) => [p.url, p.thumbUrl]).map((u) => path.join(ctx.dataDir, u));
  /** Every upload an hour and more old, then the orphan sweep. */
  const sweepAged = async () => {
    const root = path.join(ctx.dataDir, 'uploads');
    for (const f of fs.readdirSync(root, { recursive: true, withFileTypes: true }))
      if (f.isFile()) fs.utimesSync(path.join(f.parentPath, f.name), new Date(0), new Date(0));
    ctx.clock.advance(ORPHAN_MIN_AGE_MS + 1000);
    return (await sweepOrphanUploads(ctx.app.deps)).message;
  };

  it("keeps a held ad's replaced, rejected and dropped photos through the sweep; released, the sweep takes them", async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAd(ctx, owner, admin, place);
    const first = ad.photos as Photo[];
    expect((await hold('ad', ad.id)).status).toBe(201);
    const edit = async (title: string) => {
      const res = await ctx.app.inject({
        method: 'PUT',
        url: `/api/ads/${ad.id}`,
        headers: { cookie: owner.cookie },
        payload: adForm({ ...goodFields(place, { title }), keepPhotos: '[]' }, [await jpegWithGps()]),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().ad.revision as { id: string; content: { photos: Photo[] } };
    };
    const replaced = await edit('First edit, replaced by the next one'); // superseded: its photo is dropped
    const rejected = await edit('Second edit, rejected by staff');
    expect((await decide(ctx, admin, [rejected.id], 'reject', 'The photo is not acceptable.')).json()).toEqual({ updated: 1 });
    const approved = await edit('Third edit, approved: the first photos are dropped');
    expect((await decide(ctx, admin, [approved.id], 'approve')).json()).toEqual({ updated: 1 });
    const dropped = [...first, ...replaced.content.photos, ...rejected.content.photos];
    expect(exists(onDisk(dropped))).toEqual(dropped.flatMap(() => [true, true]));
    expect(await sweepAged()).toBe('0 orphan upload files removed');
    expect(exists(onDisk(dropped))).toEqual(dropped.flatMap(() => [true, true]));
    // Released: nothing names them any more, so the next sweep takes them; the live photos stay.
    expect((await release('ad', ad.id)).body).toEqual({ released: 1 });
    expect(await sweepAged()).toBe(`${dropped.length * 2} orphan upload files removed`);
    expect(exists(onDisk(dropped))).toEqual(dropped.flatMap(() => [false, false]));
    expect(exists(onDisk(approved.content.photos))).toEqual([true, true]);
  });

  it("keeps a held account's replaced avatar through the sweep until the hold is released; without a hold it goes at once", async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const setAvatar = async () => {
      const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', data: await png() }]);
      const res = await ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: owner.cookie } });
      expect(res.statusCode).toBe(200);
      return path.join(ctx.dataDir, res.json().avatar as string);
    };
    const unheld = await setAvatar();
    const first = await setAvatar();
    expect(exists([unheld, first])).toEqual([false, true]);
    expect((await hold('user', owner.id)).status).toBe(201);
    const second = await setAvatar();
    const third = await setAvatar();
    expect(exists([first, second, third])).toEqual([true, true, true]);
    expect(await sweepAged()).toBe('0 orphan upload files removed');
    expect(exists([first, second, third])).toEqual([true, true, true]);
    expect((await release('user', owner.id)).body).toEqual({ released: 1 });
    expect(exists([first, second, third])).toEqual([false, false, true]);
    expect(await db().selectFrom('held_files').selectAll().execute()).toEqual([]);
  });
});

describe('files only a hold keeps answer staff alone', () => {
  const fetch = (url: string, who?: TestUser) => ctx.app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} });
  const withdrawn = (urls: string[]) =>
    db()
      .selectFrom('withdrawn_uploads')
      .select(['path', 'reason'])
      .where(
        'path',
        'in',
        urls.map((u) => u.replace(/^\/uploads\//, '')),
      )
      .execute();
  /** A live ad with an edit (a new photo) waiting for review; the edit's photo URLs. */
  const editWaiting = async (owner: TestUser) => {
    const ad = await liveAd(ctx, owner, admin, place);
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: adForm({ ...goodFields(place, { title: 'An edit waiting for review' }), keepPhotos: '[]' }, [await png(90, 60)]),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const photos = edit.json().ad.revision.content.photos as { url: string; thumbUrl: string }[];
    return { ad, urls: photos.flatMap((p) => [p.url, p.thumbUrl]) };
  };

  for (const how of ['ad deletion', 'profile deletion'] as const) {
    it(`the photos of an edit waiting for review of an ad deleted under a hold (${how}); released, they go`, async () => {
      const owner = await makeUser(ctx, { status: 'approved' });
      const { ad, urls } = await editWaiting(owner);
      expect((await hold('ad', ad.id)).status).toBe(201);
      const res =
        how === 'ad deletion'
          ? await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie } })
          : await deleteProfile(owner);
      expect(res.statusCode, res.body).toBe(200);
      expect(exists(urls.map((u) => path.join(ctx.dataDir, u)))).toEqual([true, true]);
      for (const url of urls) {
        expect((await fetch(url)).statusCode).toBe(404);
        expect((await fetch(url, admin)).statusCode).toBe(200);
      }
      expect((await fetch((ad.photos as { url: string }[])[0].url)).statusCode).toBe(404);
      expect((await release('ad', ad.id)).body).toEqual({ released: 1 });
      expect(exists(urls.map((u) => path.join(ctx.dataDir, u)))).toEqual([false, false]);
      expect(await withdrawn(urls)).toEqual([]);
    });
  }

  it('the avatar of an account closed under a hold; released, it goes', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', data: await png() }]);
    const url = (await ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie: owner.cookie } })).json()
      .avatar as string;
    expect((await fetch(url)).statusCode).toBe(200);
    expect((await hold('user', owner.id)).status).toBe(201);
    expect((await deleteProfile(owner)).statusCode).toBe(200);
    expect(fs.existsSync(path.join(ctx.dataDir, url))).toBe(true);
    expect((await fetch(url)).statusCode).toBe(404);
    expect((await fetch(url, admin)).statusCode).toBe(200);
    expect((await release('user', owner.id)).body).toEqual({ released: 1 });
    expect(fs.existsSync(path.join(ctx.dataDir, url))).toBe(false);
    expect(await withdrawn([url])).toEqual([]);
  });
});

describe('purgeOldSignIns (cron: sign-ins are kept 180 days)', () => {
  it('deletes records older than 180 days, except those of held accounts', async () => {
    const plain = await makeUser(ctx, { status: 'approved' });
    const held = await makeUser(ctx, { status: 'approved' });
    const login = (u: TestUser, password = u.password) => ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password } });
    for (const u of [plain, held]) {
      expect((await login(u)).statusCode).toBe(200);
      expect((await login(u, 'not the password')).statusCode).toBe(401);
    }
    ctx.clock.advance(100 * DAY_MS);
    expect((await login(plain)).statusCode).toBe(200);
    ctx.clock.advance(81 * DAY_MS); // the first two of each are now 181 days old, the third 81
    const staff = await asAdmin(ctx);
    expect((await hold('user', held.id, 'Preservation letter', staff)).status).toBe(201);
    // plain's registration and first two, and the registrations of the set-up's users; not held's
    expect((await purgeOldSignIns(ctx.app.deps)).message).toBe('5 sign-in records older than 180 days deleted (accounts under a legal hold kept)');
    const left = await db()
      .selectFrom('sign_ins')
      .select(['user_id', 'success', 'failure'])
      .where('user_id', 'in', [plain.id, held.id])
      .orderBy('id')
      .execute();
    expect(left).toEqual([
      { user_id: held.id, success: 1, failure: null }, // its registration
      { user_id: held.id, success: 1, failure: null },
      { user_id: held.id, success: 0, failure: 'wrong_password' },
      { user_id: plain.id, success: 1, failure: null },
    ]);
  });
});
