import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, decide, goodFields, liveAd, placeIn, postAdRaw, type Place } from '../ads/ads.testkit.ts';
import { dHash, hamming, isDistinctive, PHOTO_DISTANCE_MAX, splitHash } from './moderation.phash.ts';
import { blockPhoto, getAs, postAs } from './moderation.testkit.ts';

describe('dHash', () => {
  it('keeps a re-encoded, resized copy within the threshold and a different picture far outside it', async () => {
    const original = await blockPhoto(7);
    const reencoded = await sharp(original).jpeg({ quality: 35 }).toBuffer();
    const resized = await sharp(original).resize(317).jpeg({ quality: 60 }).toBuffer();
    const asWebp = await sharp(original).resize(1000).webp({ quality: 50 }).toBuffer();
    const h = await dHash(original);
    expect(h).toMatch(/^[0-9a-f]{32}$/); // its own hash, then its mirror's
    expect(isDistinctive(h)).toBe(true);
    for (const copy of [reencoded, resized, asWebp]) expect(hamming(h, await dHash(copy))).toBeLessThanOrEqual(3);
    for (const seed of [8, 9, 10, 11]) expect(hamming(h, await dHash(await blockPhoto(seed)))).toBeGreaterThan(PHOTO_DISTANCE_MAX);
  });

  it('gives a mirrored copy the original’s mirror hash, far from the original’s own', async () => {
    for (const seed of [7, 77, 301]) {
      const original = splitHash(await dHash(await blockPhoto(seed)));
      const mirrored = splitHash(
        await dHash(
          await sharp(await blockPhoto(seed))
            .flop()
            .jpeg({ quality: 85 })
            .toBuffer(),
        ),
      );
      expect(hamming(original.hash, mirrored.hash)).toBeGreaterThan(PHOTO_DISTANCE_MAX);
      expect(hamming(original.mirror!, mirrored.hash)).toBeLessThanOrEqual(3);
      expect(hamming(original.hash, mirrored.mirror!)).toBeLessThanOrEqual(3);
    }
    // On a black backdrop, neighbours of equal grey give 0 both ways round: the mirror's bits are
    // not the original's reversed and inverted (12 to 18 of them differ here), so dHash reads them.
    const subject = await blockPhoto(77, 220, 480);
    const onBlack = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#000' } })
      .composite([{ input: subject, left: 300, top: 0 }])
      .jpeg({ quality: 90 })
      .toBuffer();
    const original = splitHash(await dHash(onBlack));
    const mirrored = splitHash(await dHash(await sharp(onBlack).flop().jpeg({ quality: 85 }).toBuffer()));
    expect(hamming(original.mirror!, mirrored.hash)).toBeLessThanOrEqual(3);
    expect(splitHash('0123456789abcdef')).toEqual({ hash: '0123456789abcdef', mirror: null });
  });

  it('gives a plain picture the all-zero hash, never compared', async () => {
    const plain = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3a6' } })
      .jpeg({ quality: 50 })
      .toBuffer();
    expect(await dHash(plain)).toBe('0'.repeat(32));
    expect(isDistinctive('0000000000000000')).toBe(false);
    expect(hamming('ffff0000ffff0000', '0000ffff0000ffff')).toBe(64);
    expect(hamming('00000000000000f1', '0000000000000001')).toBe(4);
  });
});

/**
 * A text of its own for each ad (digits do not count, moderation.duplicates.ts normaliseAdText):
 * these tests are about phones and photos, and the same text from two accounts is a flag too.
 */
let texts = 0;
const ownText = () => ({
  description: `Friendly, discreet and punctual, by appointment only. Reference ${[...String(texts++)].map((d) => 'abcdefghij'[Number(d)]).join('')}.`,
});

describe('duplicate flags at post time', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let place: Place;
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = await asAdmin(ctx);
    place = await placeIn(ctx, 'ny');
  });
  afterEach(() => ctx.close());

  const post = async (u: TestUser, phone: string, photo: Buffer) => {
    const res = await postAdRaw(ctx, u, goodFields(place, { phone, ...ownText() }), [photo]);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().ad.id as string;
  };
  /** Releases the holds in force on the subject, naming them as the staff screen does. */
  const release = async (targetType: 'user' | 'ad', targetId: string, note: string) => {
    const holds = await ctx.app.deps.db
      .selectFrom('legal_holds')
      .select('id')
      .where('target_type', '=', targetType)
      .where('target_id', '=', targetId)
      .where('released_at', 'is', null)
      .execute();
    return postAs(ctx, admin, '/api/admin/release-legal-hold', { targetType, targetId, holdIds: holds.map((h) => h.id), note });
  };
  const flags = async (ids: string[]) => {
    const r = await getAs(ctx, admin, `/api/admin/get-duplicate-flags?adIds=${ids.join(',')}`);
    expect(r.status).toBe(200);
    return r.body.flags as { adId: string; otherAdId: string; kind: string; distance: number | null; otherOwner: { id: string } }[];
  };

  it('a held ad keeps its flags when the other account deletes its matching ad; an ad nobody holds loses them', async () => {
    const [alice, bob] = [await makeUser(ctx), await makeUser(ctx)];
    const photo = await blockPhoto(1);
    const held = await post(alice, '(212) 555-0177', photo);
    const other = await post(bob, '(212) 555-0177', await blockPhoto(9));
    expect((await flags([held])).map((f) => [f.otherAdId, f.kind])).toEqual([[other, 'phone']]);
    const hold = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/place-legal-hold',
      headers: { cookie: admin.cookie },
      payload: { targetType: 'ad', targetId: held, reason: 'Preservation request from an agency' },
    });
    expect(hold.statusCode, hold.body).toBe(201);
    // Bob (not held) deletes his ad from the cart: the held ad's record still names it.
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${other}`, headers: { cookie: bob.cookie } })).statusCode).toBe(200);
    expect((await flags([held])).map((f) => [f.otherAdId, f.kind, f.otherOwner.id])).toEqual([[other, 'phone', bob.id]]);
    // A flag of an ad nobody holds goes with the other ad, as before.
    const third = await post(alice, '(212) 555-0199', await blockPhoto(5));
    const fourth = await post(bob, '(212) 555-0199', await blockPhoto(7));
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${fourth}`, headers: { cookie: bob.cookie } })).statusCode).toBe(200);
    expect(await flags([third])).toEqual([]);
  });

  it('after the hold is released, the held ad’s flag naming the other account’s deleted ad is forgotten', async () => {
    const [alice, bob] = [await makeUser(ctx), await makeUser(ctx)];
    const held = await post(alice, '(212) 555-0177', await blockPhoto(1));
    const other = await post(bob, '(212) 555-0177', await blockPhoto(9));
    const kept = await post(alice, '(212) 555-0188', await blockPhoto(3)); // its match stays live: its flag stays
    const live = await post(bob, '(212) 555-0188', await blockPhoto(4));
    const placed = await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'ad', targetId: held, reason: 'Preservation request 2026-1' });
    expect(placed.status).toBe(201);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${other}`, headers: { cookie: bob.cookie } })).statusCode).toBe(200);
    expect((await flags([held])).map((f) => f.otherAdId)).toEqual([other]);
    const released = await release('ad', held, 'Case closed by the agency.');
    expect(released).toEqual({ status: 200, body: { released: 1 } });
    expect(await flags([held])).toEqual([]);
    expect((await flags([kept])).map((f) => f.otherAdId)).toEqual([live]);
    expect((await getAs(ctx, admin, `/api/admin/get-user/${alice.id}`)).body.related.map((r: { id: string }) => r.id)).toEqual([bob.id]);
  });

  it('a release leaves the flags another hold still covers', async () => {
    const [alice, bob] = [await makeUser(ctx), await makeUser(ctx)];
    const held = await post(alice, '(212) 555-0177', await blockPhoto(1));
    const other = await post(bob, '(212) 555-0177', await blockPhoto(9));
    const hold = (targetType: 'ad' | 'user', targetId: string) =>
      postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType, targetId, reason: 'Preservation request 2026-1' });
    expect((await hold('ad', held)).status).toBe(201);
    expect((await hold('user', alice.id)).status).toBe(201);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${other}`, headers: { cookie: bob.cookie } })).statusCode).toBe(200);
    expect((await release('ad', held, 'That request is closed.')).status).toBe(200);
    expect((await flags([held])).map((f) => f.otherAdId)).toEqual([other]); // the hold on the account still covers it
    expect((await release('user', alice.id, 'This one too.')).status).toBe(200);
    expect(await flags([held])).toEqual([]);
  });

  it('flags a mirrored copy of another account’s photo, both ways; not one of the same account’s', async () => {
    const [alice, bob] = [await makeUser(ctx), await makeUser(ctx)];
    const photo = await blockPhoto(77);
    const mirrored = await sharp(photo).flop().jpeg({ quality: 85 }).toBuffer();
    const first = await post(alice, '(212) 555-0171', photo);
    const own = await post(alice, '(212) 555-0173', mirrored); // the same account: not a duplicate
    const copy = await post(bob, '(917) 555-0172', mirrored);
    const all = await flags([first, own, copy]);
    expect(all.map((f) => [f.adId, f.kind, f.otherAdId, f.otherOwner.id]).sort()).toEqual(
      [
        [copy, 'photo', first, alice.id],
        [first, 'photo', copy, bob.id],
        [copy, 'photo', own, alice.id], // bob's copy is alice's mirrored photo as posted
        [own, 'photo', copy, bob.id],
      ].sort(),
    );
    expect(all.every((f) => f.distance !== null && f.distance <= 3)).toBe(true);
    // photo_hashes keeps each photo's own hash (16 digits), as before.
    const stored = await ctx.app.deps.db.selectFrom('photo_hashes').select('hash').where('ad_id', 'in', [first, own, copy]).execute();
    expect(stored.map((r) => r.hash.length)).toEqual([16, 16, 16]);
  });

  it('flags an ad whose phone is another account’s verified phone, on that account’s newest ad', async () => {
    const [alice, bob, carol] = [await makeUser(ctx), await makeUser(ctx), await makeUser(ctx)];
    await post(alice, '(212) 555-0141', await blockPhoto(31));
    ctx.clock.advance(1000);
    const newest = await post(alice, '(212) 555-0142', await blockPhoto(32)); // neither shows the verified number
    await ctx.app.deps.db
      .updateTable('users')
      .set({ phone: '+16465550199', phone_verified_at: ctx.clock.now().toISOString() })
      .where('id', 'in', [alice.id, carol.id]) // carol verified it too, with no ad: nothing to name
      .execute();
    const bobs = await post(bob, '(646) 555-0199', await blockPhoto(33));
    expect((await flags([bobs])).map((f) => [f.kind, f.otherAdId, f.otherOwner.id, f.distance])).toEqual([['phone', newest, alice.id, null]]);
    expect((await flags([newest])).map((f) => [f.kind, f.otherAdId, f.otherOwner.id])).toEqual([['phone', bobs, bob.id]]);
    // An account whose ad carries the number is flagged by that ad, not once more for its verified phone.
    const bobs2 = await post(bob, '(212) 555-0142', await blockPhoto(34));
    const alices = await post(alice, '(646) 555-0199', await blockPhoto(35));
    expect((await flags([alices])).map((f) => [f.kind, f.otherAdId]).sort()).toEqual([['phone', bobs]]);
    expect((await flags([bobs2])).map((f) => [f.kind, f.otherAdId])).toEqual([['phone', newest]]);
    // The owner's own verified number is no flag.
    expect((await flags([await post(carol, '(646) 555-0199', await blockPhoto(36))])).map((f) => f.otherOwner.id).sort()).toEqual([alice.id, bob.id].sort());
  });

  it('flags other accounts’ ads with the same phone or a near-identical photo, both ways, none for a different photo', async () => {
    const [alice, bob, carol, dave] = [await makeUser(ctx), await makeUser(ctx), await makeUser(ctx), await makeUser(ctx)];
    const photo = await blockPhoto(21);
    const a1 = await post(alice, '(212) 555-0131', photo);
    const a2 = await post(alice, '(212) 555-0131', photo); // the same account again: not a duplicate
    const copy = await sharp(photo).resize(480).jpeg({ quality: 40 }).toBuffer(); // re-encoded and resized
    const b1 = await post(bob, '(917) 555-0132', copy);
    const c1 = await post(carol, '+1 212 555 0131', await blockPhoto(99)); // same phone, another picture
    const d1 = await post(dave, '(646) 555-0133', await blockPhoto(1234)); // nothing in common

    const byAd = (all: Awaited<ReturnType<typeof flags>>, id: string) =>
      all
        .filter((f) => f.adId === id)
        .map((f) => [f.kind, f.otherAdId, f.otherOwner.id])
        .sort();
    const all = await flags([a1, a2, b1, c1, d1]);
    expect(byAd(all, b1)).toEqual(
      [
        ['photo', a1, alice.id],
        ['photo', a2, alice.id],
      ].sort(),
    );
    expect(byAd(all, c1)).toEqual(
      [
        ['phone', a1, alice.id],
        ['phone', a2, alice.id],
      ].sort(),
    );
    expect(byAd(all, a1)).toEqual(
      [
        ['phone', c1, carol.id],
        ['photo', b1, bob.id],
      ].sort(),
    );
    expect(byAd(all, d1)).toEqual([]);
    expect(all.filter((f) => f.kind === 'photo').every((f) => f.distance !== null && f.distance <= PHOTO_DISTANCE_MAX)).toBe(true);
    expect(all.filter((f) => f.kind === 'phone').every((f) => f.distance === null)).toBe(true);
    // Every photo has its hash stored with the ad.
    const stored = await ctx.app.deps.db.selectFrom('photo_hashes').select(['ad_id', 'hash']).where('ad_id', 'in', [a1, b1]).execute();
    expect(stored).toHaveLength(2);
    expect(hamming(stored[0].hash, stored[1].hash)).toBeLessThanOrEqual(PHOTO_DISTANCE_MAX);

    const tooMany = await getAs(ctx, admin, `/api/admin/get-duplicate-flags?adIds=${Array.from({ length: 101 }, (_, i) => `a${i}`).join(',')}`);
    expect(tooMany.body).toMatchObject({ code: 'moderation.too_many_ids', params: { field: 'adIds', max: 100 } });
  });
});

// The duplicate check compares what ads show: a photo an ad no longer has (an edit replaced it, a
// refused edit's own) leaves photo_hashes with its file, unless a legal hold keeps the file as evidence.
describe('photo hashes of photos an ad no longer has', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let place: Place;
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = await asAdmin(ctx);
    place = await placeIn(ctx, 'ny');
  });
  afterEach(() => ctx.close());

  const post = async (u: TestUser, phone: string, photo: Buffer) => {
    const res = await postAdRaw(ctx, u, goodFields(place, { phone }), [photo]);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().ad as { id: string; photos: { url: string }[] };
  };
  const edit = async (u: TestUser, adId: string, phone: string, photos: Buffer[], keep: string[] = []) => {
    const form = adForm(goodFields(place, { phone }), photos);
    form.append('keepPhotos', JSON.stringify(keep));
    const res = await ctx.app.inject({ method: 'PUT', url: `/api/ads/${adId}`, headers: { cookie: u.cookie }, payload: form });
    expect(res.statusCode, res.body).toBe(200);
  };
  const photoFlags = async (adId: string) => {
    const r = await getAs(ctx, admin, `/api/admin/get-duplicate-flags?adIds=${adId}`);
    expect(r.status).toBe(200);
    return (r.body.flags as { otherAdId: string; kind: string }[]).filter((f) => f.kind === 'photo').map((f) => f.otherAdId);
  };
  const hashedPaths = async (adId: string) =>
    (await ctx.app.deps.db.selectFrom('photo_hashes').select('path').where('ad_id', '=', adId).execute()).map((r) => r.path).sort();
  const pathOf = (url: string) => url.replace(/^\/uploads\//, '');

  it("a photo replaced by an edit no longer flags other accounts' ads as duplicates of that ad", async () => {
    const [alice, bob] = [await makeUser(ctx), await makeUser(ctx)];
    const ad = await post(alice, '(212) 555-0171', await blockPhoto(1));
    await edit(alice, ad.id, '(212) 555-0171', [await blockPhoto(9)]); // her unpaid ad changes in place
    const bobs = await post(bob, '(212) 555-0172', await blockPhoto(1)); // the picture Alice no longer shows
    expect(await photoFlags(bobs.id)).toEqual([]);
    // The table holds the hashes of the photos the ad has, not of every photo it ever had.
    const now = (await ctx.app.inject({ url: `/api/all-ads-by-user`, headers: { cookie: alice.cookie } })).json().pendingAds[0];
    expect(await hashedPaths(ad.id)).toEqual([pathOf(now.photos[0].url)]);
  });

  it('a refused edit of a live ad takes its new photo out of the duplicate check', async () => {
    const [alice, bob] = [await makeUser(ctx, { status: 'approved' }), await makeUser(ctx)];
    const ad = (await liveAd(ctx, alice, admin, place, { phone: '(212) 555-0173' })) as unknown as { id: string; photos: { url: string }[] };
    const before = await hashedPaths(ad.id);
    await edit(alice, ad.id, '(212) 555-0173', [await blockPhoto(3)], [ad.photos[0].url]);
    expect(await hashedPaths(ad.id)).toHaveLength(before.length + 1); // compared while it waits for review
    const q = (await getAs(ctx, admin, '/api/admin/get-pending-ads')).body;
    const rev = (q.pendingAds as { id: string; revisionOf?: string }[]).find((a) => a.revisionOf === ad.id)!.id;
    expect((await decide(ctx, admin, [rev], 'reject', 'The new photo is not allowed')).json()).toEqual({ updated: 1 });
    expect(await hashedPaths(ad.id)).toEqual(before);
    const bobs = await post(bob, '(212) 555-0174', await blockPhoto(3));
    expect(await photoFlags(bobs.id)).toEqual([]);
  });

  it('under a legal hold the replaced photo keeps its hash, as its file is kept', async () => {
    const [alice, bob] = [await makeUser(ctx), await makeUser(ctx)];
    const ad = await post(alice, '(212) 555-0175', await blockPhoto(1));
    const placed = await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'ad', targetId: ad.id, reason: 'Preservation request 2026-7' });
    expect(placed.status).toBe(201);
    await edit(alice, ad.id, '(212) 555-0175', [await blockPhoto(9)]);
    expect(await hashedPaths(ad.id)).toHaveLength(2);
    const bobs = await post(bob, '(212) 555-0176', await blockPhoto(1));
    expect(await photoFlags(bobs.id)).toEqual([ad.id]);
  });
});
