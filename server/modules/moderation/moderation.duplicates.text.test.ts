import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/db.ts';
import { migrate, readMigrations } from '../../core/migrate.ts';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, decide, goodFields, liveAd, placeIn, postAdRaw, type Place } from '../ads/ads.testkit.ts';
import { normaliseAdText, TEXT_MIN_CHARS, textHash } from './moderation.duplicates.ts';
import { blockPhoto, getAs, postAs } from './moderation.testkit.ts';

// The same advert text posted from several accounts is one operator's: the reviewer is shown it as
// a shared phone or photo is (moderation.duplicates.ts, textHash).

const TEXT = {
  title: 'Sweet new girl in town, call now',
  description: 'Brand new in the city for a few days only. Sweet, fun and discreet. Incall and outcall, text first.',
};

describe('normaliseAdText', () => {
  it('folds case, accents, compatibility forms, digits, punctuation, emoji and spacing; keeps the words', () => {
    const plain = normaliseAdText(TEXT.title, TEXT.description);
    expect(plain).toBe('sweet new girl in town call now brand new in the city for a few days only sweet fun and discreet incall and outcall text first');
    const disguised = normaliseAdText(
      '𝐒𝐰𝐞𝐞𝐭 NEW girl in town!!! 📞 Call now 555-0101',
      'Brand  new in the city for a few days only.\n\nSweet, fun & discreet… Incall and outcall (text first) $200',
    );
    expect(disguised).toBe(plain.replace(' and discreet', ' discreet'));
    expect(normaliseAdText('Ｃａｆé ｃｈｉｃ', 'Ca\u0301fe\u0301 chic\u200b')).toBe('cafe chic cafe chic');
    expect(textHash(TEXT.title, TEXT.description)).toMatch(/^[0-9a-f]{32}$/);
    expect(textHash(TEXT.title.toUpperCase(), `${TEXT.description} 💋 212-555-0101`)).toBe(textHash(TEXT.title, TEXT.description));
    expect(textHash(TEXT.title, TEXT.description.replace('Sweet', 'Lovely'))).not.toBe(textHash(TEXT.title, TEXT.description));
    // The shortest texts (stock phrases) have none.
    const short = { title: 'Available now', description: 'Call me for a good time, available all day and night.' };
    expect(normaliseAdText(short.title, short.description).length).toBeLessThan(TEXT_MIN_CHARS);
    expect(textHash(short.title, short.description)).toBeNull();
  });
});

describe('text duplicate flags', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let place: Place;
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = await asAdmin(ctx);
    place = await placeIn(ctx, 'ny');
  });
  afterEach(() => ctx.close());

  let seed = 500;
  /** Posts an ad with its own photo (never near another's) and the given phone and text. */
  const post = async (u: TestUser, phone: string, text: { title: string; description: string }) => {
    const res = await postAdRaw(ctx, u, goodFields(place, { ...text, phone }), [await blockPhoto(seed++)]);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().ad as { id: string; photos: { url: string }[] };
  };
  const edit = async (u: TestUser, adId: string, phone: string, text: { title: string; description: string }, keep: string[]) => {
    const form = adForm(goodFields(place, { ...text, phone }), []);
    form.append('keepPhotos', JSON.stringify(keep));
    const res = await ctx.app.inject({ method: 'PUT', url: `/api/ads/${adId}`, headers: { cookie: u.cookie }, payload: form });
    expect(res.statusCode, res.body).toBe(200);
  };
  const flags = async (ids: string[]) => {
    const r = await getAs(ctx, admin, `/api/admin/get-duplicate-flags?adIds=${ids.join(',')}`);
    expect(r.status).toBe(200);
    return (r.body.flags as { adId: string; otherAdId: string; kind: string; distance: number | null; otherOwner: { id: string } }[])
      .map((f) => [f.adId, f.kind, f.otherAdId, f.otherOwner.id, f.distance])
      .sort();
  };
  const hashesOf = async (adId: string) =>
    (await ctx.app.deps.db.selectFrom('text_hashes').select('hash').where('ad_id', '=', adId).execute()).map((r) => r.hash).sort();

  it('flags an ad whose title and description copy another account’s ad word for word, both ways', async () => {
    const [alice, bob, carol] = [await makeUser(ctx), await makeUser(ctx), await makeUser(ctx)];
    const first = (await post(alice, '(212) 555-0161', TEXT)).id;
    const own = (await post(alice, '(212) 555-0163', TEXT)).id; // the same account again: not a duplicate
    // Another number, other pictures, capitals, punctuation and an emoji: the same advert.
    const copy = (await post(bob, '(917) 555-0162', { title: TEXT.title.toUpperCase(), description: `${TEXT.description} 💋 917-555-0162!` })).id;
    const other = (await post(carol, '(646) 555-0164', { ...TEXT, description: TEXT.description.replace('Sweet, fun', 'Lovely, fun') })).id;
    expect(await flags([first, own, copy, other])).toEqual(
      [
        [copy, 'text', first, alice.id, null],
        [copy, 'text', own, alice.id, null],
        [first, 'text', copy, bob.id, null],
        [own, 'text', copy, bob.id, null],
      ].sort(),
    );
    expect(await hashesOf(copy)).toEqual([textHash(TEXT.title, TEXT.description)]);
  });

  it('flags no copy of a text too short to tell an operator by', async () => {
    const [alice, bob] = [await makeUser(ctx), await makeUser(ctx)];
    const short = { title: 'Available now', description: 'Call me for a good time, available all day and night.' };
    const first = (await post(alice, '(212) 555-0161', short)).id;
    const copy = (await post(bob, '(917) 555-0162', short)).id;
    expect(await flags([first, copy])).toEqual([]);
    expect(await hashesOf(first)).toEqual([]);
  });

  it('compares an ad kept under a legal hold after its owner deleted it; forgets an ad deleted for good', async () => {
    const [alice, bob, carol] = [await makeUser(ctx), await makeUser(ctx), await makeUser(ctx)];
    const held = (await post(alice, '(212) 555-0161', TEXT)).id;
    const placed = await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'ad', targetId: held, reason: 'Preservation request 2026-9' });
    expect(placed.status).toBe(201);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${held}`, headers: { cookie: alice.cookie } })).statusCode).toBe(200);
    const copy = (await post(bob, '(917) 555-0162', TEXT)).id;
    expect(await flags([copy])).toEqual([[copy, 'text', held, alice.id, null]]);
    // Bob's ad, nobody holding it, is deleted for good: its text is compared no more.
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${copy}`, headers: { cookie: bob.cookie } })).statusCode).toBe(200);
    expect(await hashesOf(copy)).toEqual([]);
    const third = (await post(carol, '(646) 555-0163', TEXT)).id;
    expect(await flags([third])).toEqual([[third, 'text', held, alice.id, null]]);
  });

  it('an edit that copies another account’s text is flagged, and the text an ad no longer has flags nobody', async () => {
    const [alice, bob, carol] = [await makeUser(ctx), await makeUser(ctx), await makeUser(ctx)];
    const own = { title: 'Quiet evenings by the river', description: 'Relaxed company for dinner and conversation, appointments made a day ahead.' };
    const first = (await post(alice, '(212) 555-0161', TEXT)).id;
    const bobs = await post(bob, '(917) 555-0162', own);
    await edit(bob, bobs.id, '(917) 555-0162', TEXT, [bobs.photos[0].url]); // his unpaid ad changes in place
    expect(await flags([bobs.id])).toEqual([[bobs.id, 'text', first, alice.id, null]]);
    expect(await hashesOf(bobs.id)).toEqual([textHash(TEXT.title, TEXT.description)]);
    const carols = (await post(carol, '(646) 555-0163', own)).id; // the text Bob no longer shows
    expect(await flags([carols])).toEqual([]);
  });

  it('an edit of a live ad waiting for review is compared, and the live text still is', async () => {
    const [alice, bob, carol] = [await makeUser(ctx, { status: 'approved' }), await makeUser(ctx), await makeUser(ctx)];
    const live = { title: 'Quiet evenings by the river', description: 'Relaxed company for dinner and conversation, appointments made a day ahead.' };
    const first = (await post(bob, '(917) 555-0162', TEXT)).id;
    const ad = (await liveAd(ctx, alice, admin, place, { ...live, phone: '(212) 555-0161' })) as unknown as { id: string; photos: { url: string }[] };
    await edit(alice, ad.id, '(212) 555-0161', TEXT, [ad.photos[0].url]);
    expect(await flags([ad.id])).toEqual([[ad.id, 'text', first, bob.id, null]]);
    expect(await hashesOf(ad.id)).toEqual([textHash(TEXT.title, TEXT.description), textHash(live.title, live.description)].sort());
    const carols = (await post(carol, '(646) 555-0163', live)).id; // the text the public still sees
    expect(await flags([carols])).toEqual([[carols, 'text', ad.id, alice.id, null]]);
    const q = (await getAs(ctx, admin, '/api/admin/get-pending-ads')).body;
    expect((q.pendingAds as { id: string; revisionOf?: string }[]).some((a) => a.revisionOf === ad.id)).toBe(true);
  });

  it('once staff approve or reject an edit of a live ad, the text the ad no longer shows flags nobody', async () => {
    const [alice, dora, carol] = [await makeUser(ctx, { status: 'approved' }), await makeUser(ctx, { status: 'approved' }), await makeUser(ctx)];
    const old = { title: 'Quiet evenings by the river', description: 'Relaxed company for dinner and conversation, appointments made a day ahead.' };
    const rewrite = { title: 'Sunny afternoons in the park', description: 'Walks, museums and long lunches with a cheerful companion, booked a day ahead.' };
    const revisionOf = async (adId: string) => {
      const q = (await getAs(ctx, admin, '/api/admin/get-pending-ads')).body.pendingAds as { id: string; revisionOf?: string }[];
      return q.find((a) => a.revisionOf === adId)!.id;
    };
    // Alice rewrites her advert, and staff approve the new text: the old one is shown nowhere now.
    const a = (await liveAd(ctx, alice, admin, place, { ...old, phone: '(212) 555-0161' })) as unknown as { id: string; photos: { url: string }[] };
    await edit(alice, a.id, '(212) 555-0161', rewrite, [a.photos[0].url]);
    expect((await decide(ctx, admin, [await revisionOf(a.id)], 'approve')).json()).toEqual({ updated: 1 });
    expect(await hashesOf(a.id)).toEqual([textHash(rewrite.title, rewrite.description)]);
    // Dora's edit is refused: her ad never showed that text, and still shows her own.
    const mine = { title: 'Dora downtown tonight only', description: 'Dinners, museums and long lunches with a cheerful companion, booked ahead.' };
    const d = (await liveAd(ctx, dora, admin, place, { ...mine, phone: '(212) 555-0165' })) as unknown as { id: string; photos: { url: string }[] };
    await edit(dora, d.id, '(212) 555-0165', TEXT, [d.photos[0].url]);
    expect((await decide(ctx, admin, [await revisionOf(d.id)], 'reject', 'Wording not allowed here.')).json()).toEqual({ updated: 1 });
    expect(await hashesOf(d.id)).toEqual([textHash(mine.title, mine.description)]);

    const carolsOld = (await post(carol, '(646) 555-0163', old)).id;
    const carolsRefused = (await post(carol, '(646) 555-0164', TEXT)).id;
    const carolsShown = (await post(carol, '(646) 555-0166', rewrite)).id; // what Alice's ad shows now: still compared
    expect({ old: await flags([carolsOld]), refused: await flags([carolsRefused]), shown: await flags([carolsShown]) }).toEqual({
      old: [],
      refused: [],
      shown: [[carolsShown, 'text', a.id, alice.id, null]],
    });
  });
});

describe('migration 0046', () => {
  it('keeps the flags recorded before it and their index, and takes the new kind', () => {
    const all = readMigrations();
    const d = openDatabase(':memory:');
    try {
      migrate(
        d.sqlite,
        all.filter((m) => m.version < 46),
      );
      d.sqlite.exec(`INSERT INTO duplicate_flags (ad_id, other_ad_id, other_owner_id, kind, distance, created_at) VALUES
        ('a1', 'a2', 'u2', 'phone', NULL, 't'), ('a1', 'a3', 'u3', 'photo', 2, 't')`);
      expect(() => d.sqlite.exec(`INSERT INTO duplicate_flags VALUES ('a1', 'a4', 'u4', 'text', NULL, 't')`)).toThrow(/CHECK constraint/);
      migrate(d.sqlite, all);
      d.sqlite.exec(`INSERT INTO duplicate_flags VALUES ('a1', 'a4', 'u4', 'text', NULL, 't')`);
      expect(d.sqlite.prepare('SELECT other_ad_id, kind, distance FROM duplicate_flags ORDER BY other_ad_id').all()).toEqual([
        { other_ad_id: 'a2', kind: 'phone', distance: null },
        { other_ad_id: 'a3', kind: 'photo', distance: 2 },
        { other_ad_id: 'a4', kind: 'text', distance: null },
      ]);
      expect(() => d.sqlite.exec(`INSERT INTO duplicate_flags VALUES ('a1', 'a5', 'u5', 'other', NULL, 't')`)).toThrow(/CHECK constraint/);
      const indexes = d.sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('duplicate_flags', 'text_hashes') AND sql IS NOT NULL")
        .all();
      expect(indexes.map((i) => (i as { name: string }).name).sort()).toEqual(['duplicate_flags_other', 'text_hashes_hash']);
    } finally {
      d.sqlite.close();
    }
  });
});
