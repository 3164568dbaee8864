import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import { hamming, isDistinctive, PHOTO_DISTANCE_MAX, splitHash } from './moderation.phash.ts';

/** What a new ad looks like to the duplicate check, worked out before its transaction. */
export interface AdFingerprint {
  adId: string;
  ownerId: string;
  /** The photos' own hashes (16 digits), as photo_hashes keeps them. */
  hashes: { path: string; hash: string }[];
  /** Its title and description, normalised and hashed (textHash); null for a text too short to tell. */
  textHash: string | null;
  samePhone: { adId: string; ownerId: string }[];
  similarPhoto: { adId: string; ownerId: string; distance: number }[];
  sameText: { adId: string; ownerId: string }[];
}

/** Flags found for one ad are capped: a phone shared by hundreds of ads needs one look, not hundreds of rows. */
const MAX_FLAGS = 50;

/**
 * The shortest normalised text compared (normaliseAdText: letters and single spaces). Above the
 * shortest text an ad may have (TITLE_MIN + DESCRIPTION_MIN, 60, before digits and punctuation go),
 * so that short stock phrases ("Available now, call me …") that unrelated providers all write flag nobody.
 */
export const TEXT_MIN_CHARS = 80;

/**
 * An ad's title and description as the text check compares them: compatibility forms (full-width,
 * styled "𝐬𝐰𝐞𝐞𝐭") and accents folded, lower case, invisible characters out, and every run of
 * digits, punctuation, emoji and white space one space. So a copy with another phone number or
 * price, other line breaks, capitals or emoji matches; a copy with a word changed, added or
 * reordered, or letters swapped for look-alikes of another script, does not (an exact hash).
 */
export function normaliseAdText(title: string, description: string): string {
  return `${title} ${description}`
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, ' ')
    .trim();
}

/** The hash text_hashes keeps of an ad's text (normaliseAdText), or null when it is too short to compare. */
export function textHash(title: string, description: string): string | null {
  const text = normaliseAdText(title, description);
  return text.length < TEXT_MIN_CHARS ? null : createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * Finds, for a new ad with its photos' hashes (taken when they were encoded, ads.images.ts),
 * other accounts' ads (live, or kept under a hold) with the same phone, a near-identical photo (a
 * mirrored copy included) or the same text (textHash). Reads only: the caller stores the result with the ad
 * (recordFingerprint), in its transaction, so the write lock is never held during the scan.
 * The photo scan reads every distinctive hash of other owners: fine at tens of thousands of
 * ads; a much larger site would index the hashes (multi-index hashing, a BK-tree).
 */
export async function fingerprintAd(
  db: Executor,
  // Without title and description (a caller about the phone alone), no text is compared.
  ad: { adId: string; ownerId: string; phone: string; title?: string; description?: string; hashes: { path: string; hash: string }[] },
): Promise<AdFingerprint> {
  // The ad's phone may also be another account's verified phone, on none of that account's ads (a
  // suspended provider back with a new account): a flag names an ad, so it names that account's
  // newest one. An account with no ad at all is still linked (moderation.linked.repository.ts).
  // Verified phones by users_verified_phone (0044).
  const samePhone = await sql<{ id: string; owner_id: string }>`
    SELECT id, owner_id FROM ads WHERE phone = ${ad.phone} AND owner_id != ${ad.ownerId} AND id != ${ad.adId}
    UNION SELECT id, owner_id FROM held_ads WHERE phone = ${ad.phone} AND owner_id != ${ad.ownerId}
    UNION SELECT newest, id FROM (
      SELECT u.id, COALESCE(
        (SELECT a.id FROM ads a WHERE a.owner_id = u.id ORDER BY a.created_at DESC LIMIT 1),
        (SELECT h.id FROM held_ads h WHERE h.owner_id = u.id ORDER BY h.created_at DESC LIMIT 1)) AS newest
      FROM users u
      WHERE u.phone = ${ad.phone} AND u.phone_verified_at IS NOT NULL AND u.id != ${ad.ownerId}
        AND NOT EXISTS (SELECT 1 FROM ads WHERE phone = ${ad.phone} AND owner_id = u.id)
        AND NOT EXISTS (SELECT 1 FROM held_ads WHERE phone = ${ad.phone} AND owner_id = u.id))
    WHERE newest IS NOT NULL
    LIMIT ${MAX_FLAGS}`.execute(db);
  const hashes = ad.hashes.map((h) => ({ path: h.path, ...splitHash(h.hash) }));
  // Each new photo's own hash and its mirror's (dHash), against the others' own: whichever of two
  // photos is the mirrored copy, the new one's mirror is near the other's own, so photo_hashes
  // keeps no mirror and hashes stored before mirrors were taken compare as well.
  const mine = hashes.flatMap((h) => [h.hash, h.mirror ?? '']).filter((h) => h && isDistinctive(h));
  const best = new Map<string, { adId: string; ownerId: string; distance: number }>();
  if (mine.length) {
    const others = await db.selectFrom('photo_hashes').select(['ad_id', 'owner_id', 'hash']).where('owner_id', '!=', ad.ownerId).execute();
    for (const o of others) {
      if (!isDistinctive(o.hash)) continue;
      const distance = Math.min(...mine.map((h) => hamming(h, o.hash)));
      if (distance > PHOTO_DISTANCE_MAX) continue;
      const seen = best.get(o.ad_id);
      if (!seen || distance < seen.distance) best.set(o.ad_id, { adId: o.ad_id, ownerId: o.owner_id, distance });
    }
  }
  // Ads posted before text hashes were kept (0046) have none until they are edited.
  const text = ad.title === undefined || ad.description === undefined ? null : textHash(ad.title, ad.description);
  const sameText = text
    ? await db.selectFrom('text_hashes').select(['ad_id', 'owner_id']).where('hash', '=', text).where('owner_id', '!=', ad.ownerId).limit(MAX_FLAGS).execute()
    : [];
  return {
    adId: ad.adId,
    ownerId: ad.ownerId,
    hashes: hashes.map((h) => ({ path: h.path, hash: h.hash })),
    textHash: text,
    samePhone: samePhone.rows.map((r) => ({ adId: r.id, ownerId: r.owner_id })),
    similarPhoto: [...best.values()].sort((a, b) => a.distance - b.distance).slice(0, MAX_FLAGS),
    sameText: sameText.map((r) => ({ adId: r.ad_id, ownerId: r.owner_id })),
  };
}

/**
 * Stores an ad's photo hashes, its text hashes and its duplicate flags, both ways (the other ad's
 * reviewer sees this one too). Called after the ad's row is written: the text hashes kept are the
 * new text's and the row's (a live ad's, while an edit of it waits for review); those of texts
 * the ad had before go.
 */
export async function recordFingerprint(trx: Executor, f: AdFingerprint, at: string): Promise<void> {
  if (f.hashes.length) {
    await trx
      .insertInto('photo_hashes')
      .values(f.hashes.map((h) => ({ ad_id: f.adId, owner_id: f.ownerId, path: h.path, hash: h.hash, created_at: at })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const row = await trx.selectFrom('ads').select(['title', 'description']).where('id', '=', f.adId).executeTakeFirst();
  const texts = [...new Set([f.textHash, row && textHash(row.title, row.description)].filter((h): h is string => !!h))];
  let forget = trx.deleteFrom('text_hashes').where('ad_id', '=', f.adId);
  if (texts.length) forget = forget.where('hash', 'not in', texts);
  await forget.execute();
  if (texts.length) {
    await trx
      .insertInto('text_hashes')
      .values(texts.map((hash) => ({ ad_id: f.adId, owner_id: f.ownerId, hash, created_at: at })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const flags = [
    ...f.samePhone.map((o) => ({ other: o, kind: 'phone' as const, distance: null })),
    ...f.similarPhoto.map((o) => ({ other: o, kind: 'photo' as const, distance: o.distance })),
    ...f.sameText.map((o) => ({ other: o, kind: 'text' as const, distance: null })),
  ];
  if (!flags.length) return;
  await trx
    .insertInto('duplicate_flags')
    .values(
      flags.flatMap(({ other, kind, distance }) => [
        { ad_id: f.adId, other_ad_id: other.adId, other_owner_id: other.ownerId, kind, distance, created_at: at },
        { ad_id: other.adId, other_ad_id: f.adId, other_owner_id: f.ownerId, kind, distance, created_at: at },
      ]),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * After staff decide an edit of a live ad (approved, or rejected), in their transaction: keeps only
 * the hash of the text the ad now shows. recordFingerprint kept two while the edit waited (the live
 * text and the edit's); the one the ad no longer shows (its old text, or the refused edit's, which
 * it never showed) would flag, until the owner's next edit, whoever writes it. Its flags stay.
 */
export async function keepShownText(trx: Executor, adId: string): Promise<void> {
  const row = await trx.selectFrom('ads').select(['title', 'description']).where('id', '=', adId).executeTakeFirst();
  const shown = row && textHash(row.title, row.description);
  let forget = trx.deleteFrom('text_hashes').where('ad_id', '=', adId);
  if (shown) forget = forget.where('hash', '!=', shown);
  await forget.execute();
}

/**
 * Forgets the hashes of photos an ad no longer has (an edit replaced them, a refused or replaced
 * edit's own): the duplicate check compares what ads show, and each edit would otherwise add rows
 * that every later post reads. Its flags stay: they say what the reviewer was shown at the time.
 */
export async function forgetPhotoHashes(db: Executor, adId: string, paths: readonly string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += 500) {
    await db
      .deleteFrom('photo_hashes')
      .where('ad_id', '=', adId)
      .where('path', 'in', paths.slice(i, i + 500))
      .execute();
  }
}

/** A legal hold in force on a flag's ad (its `ad_id`), or on that ad's owner (the ad live, or a held copy of a deleted one). */
const heldFlagOwner = sql<number>`(SELECT 1 FROM legal_holds h WHERE h.released_at IS NULL AND (
    (h.target_type = 'ad' AND h.target_id = duplicate_flags.ad_id)
    OR (h.target_type = 'user' AND h.target_id IN (
      SELECT owner_id FROM ads WHERE id = duplicate_flags.ad_id
      UNION ALL SELECT owner_id FROM held_ads WHERE id = duplicate_flags.ad_id))))`;

/** Forgets the hashes and flags of ads deleted for good (nothing of a deleted ad is compared any more). */
export async function forgetFingerprints(trx: Executor, adIds: readonly string[]): Promise<void> {
  for (let i = 0; i < adIds.length; i += 500) {
    const chunk = adIds.slice(i, i + 500);
    await trx.deleteFrom('photo_hashes').where('ad_id', 'in', chunk).execute();
    await trx.deleteFrom('text_hashes').where('ad_id', 'in', chunk).execute();
    await trx.deleteFrom('duplicate_flags').where('ad_id', 'in', chunk).execute();
    // A held ad's flags stay, naming the other account's ad that is gone: a legal hold keeps every
    // row of a held ad (PRODUCT §5), and this one says which other account shared its phone, photo or text.
    await trx
      .deleteFrom('duplicate_flags')
      .where('other_ad_id', 'in', chunk)
      .where((eb) => eb.not(eb.exists(heldFlagOwner)))
      .execute();
  }
}

/**
 * After a release, in its transaction: the flags of the account's ads (live, or kept as copies)
 * that name another account's ad deleted meanwhile were kept for the hold alone (forgetFingerprints
 * above); they go now, unless a hold still covers the flag's ad.
 */
export async function forgetDeletedMatches(trx: Executor, ownerId: string): Promise<void> {
  await sql`
    DELETE FROM duplicate_flags
    WHERE ad_id IN (SELECT id FROM ads WHERE owner_id = ${ownerId} UNION ALL SELECT id FROM held_ads WHERE owner_id = ${ownerId})
      AND NOT EXISTS (SELECT 1 FROM ads WHERE id = duplicate_flags.other_ad_id)
      AND NOT EXISTS (SELECT 1 FROM held_ads WHERE id = duplicate_flags.other_ad_id)
      AND NOT EXISTS ${heldFlagOwner}`.execute(trx);
}
