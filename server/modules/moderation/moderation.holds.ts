import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import { eraseUser } from '../profile/profile.repository.ts';
import { forgetDeletedMatches, forgetFingerprints } from './moderation.duplicates.ts';
import { HOLD_REASON, photosOfAds, withdraw } from '../uploads/uploads.withdrawn.ts';
import type { HeldAdDeletion, HeldIdentityField } from './moderation.tables.ts';

// Legal holds as the deletion paths see them. While a hold is in force nothing of its subject is
// deleted: an ad deleted from the cart or with its owner's profile is copied to held_ads (the row
// as it was, its photo files left on disk) before its row goes; a held account that deletes
// itself is closed (signed out for good, no roles, no password) but keeps its personal data; the
// sign-in purge keeps the held account's sign-ins. When the last hold is released, the deletions
// that were asked for meanwhile are completed (completeDeferredDeletions).
//
// A hold on an ad covers that ad and its owner's account record (who posted it is part of the
// evidence); a hold on an account covers the account and every ad of it.

/**
 * The accounts with a hold in force (on the account or on one of its ads), as a subquery: the
 * purges of rows kept for a time (sign-ins, e-mail changes, reset links, phone codes, the SMS log)
 * leave theirs with `where('user_id', 'not in', heldUserIds(db))`.
 */
export const heldUserIds = (db: Executor) => db.selectFrom('legal_holds').select('user_id').where('released_at', 'is', null);

/** Any hold in force on the account or on one of its ads. */
export async function isUserHeld(db: Executor, userId: string): Promise<boolean> {
  const r = await db.selectFrom('legal_holds').select('id').where('user_id', '=', userId).where('released_at', 'is', null).limit(1).executeTakeFirst();
  return r !== undefined;
}

/** A hold in force on the ad, or on its owner. */
export async function isAdHeld(db: Executor, adId: string, ownerId: string): Promise<boolean> {
  const r = await db
    .selectFrom('legal_holds')
    .select('id')
    .where('released_at', 'is', null)
    .where((eb) =>
      eb.or([eb.and([eb('target_type', '=', 'ad'), eb('target_id', '=', adId)]), eb.and([eb('target_type', '=', 'user'), eb('target_id', '=', ownerId)])]),
    )
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * Copies an ads row to held_ads (the caller deletes the row, and must leave its files). Returns the
 * files kept with it: its photos and those of its edit waiting for review.
 */
async function copyToHeld(trx: Executor, adId: string, how: HeldAdDeletion, at: string): Promise<string[]> {
  const row = await trx.selectFrom('ads').selectAll().where('id', '=', adId).executeTakeFirst();
  if (!row) return [];
  await trx
    .insertInto('held_ads')
    .values({
      id: row.id,
      owner_id: row.owner_id,
      listing_type: row.listing_type,
      title: row.title,
      description: row.description,
      phone: row.phone,
      state_id: row.state_id,
      city_id: row.city_id,
      photos_json: row.photos_json,
      status_before: row.status,
      row_json: JSON.stringify(row),
      created_at: row.created_at,
      deleted_at: at,
      deleted_by: how,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return photosOfAds(trx, { adId });
}

/** The upload paths of some photos (large and thumbnail). */
export function photoFiles(photos: readonly { path?: string; thumbPath?: string }[]): string[] {
  return photos.flatMap((p) => [p.path, p.thumbPath]).filter((p): p is string => typeof p === 'string');
}

/** The upload paths of an ad's photos record (large and thumbnail). */
export function photoPaths(photosJson: string): string[] {
  try {
    return photoFiles(JSON.parse(photosJson) as { path?: string; thumbPath?: string }[]);
  } catch {
    return [];
  }
}

/**
 * Before one ad's row is deleted (the cart): when it is held, keeps a copy and returns true (its
 * files must stay); otherwise forgets its fingerprints and returns false.
 */
export async function beforeAdDeleted(trx: Executor, ad: { id: string; ownerId: string }, how: HeldAdDeletion, at: string): Promise<boolean> {
  if (await isAdHeld(trx, ad.id, ad.ownerId)) {
    await withdraw(trx, await copyToHeld(trx, ad.id, how, at), HOLD_REASON); // kept for staff, no longer public
    return true;
  }
  await forgetFingerprints(trx, [ad.id]);
  return false;
}

/**
 * Before every ad of an account is deleted (profile deletion): keeps a copy of each held one and
 * returns the upload paths that must stay on disk; the others' fingerprints are forgotten.
 */
export async function beforeAdsOfUserDeleted(trx: Executor, ownerId: string, how: HeldAdDeletion, at: string): Promise<Set<string>> {
  const kept = new Set<string>();
  const ads = await trx.selectFrom('ads').select('id').where('owner_id', '=', ownerId).execute();
  const gone: string[] = [];
  for (const { id } of ads) {
    if (await isAdHeld(trx, id, ownerId)) for (const p of await copyToHeld(trx, id, how, at)) kept.add(p);
    else gone.push(id);
  }
  await withdraw(trx, [...kept], HOLD_REASON);
  await forgetFingerprints(trx, gone);
  return kept;
}

/**
 * Every upload path a hold keeps, for the orphan sweep: the copies of held ads that were deleted,
 * every revision (rejected and replaced ones too) and every stored version of a held ad or of a
 * held account's ads (an edit's dropped photos stay on disk while held: ads.photos.ts), and the
 * files kept for a held account (held_files: a replaced avatar). Holds are few; so are these rows.
 */
export async function heldUploadPaths(db: Executor): Promise<string[]> {
  const copies = await db.selectFrom('held_ads').select('photos_json').execute();
  const holds = await db.selectFrom('legal_holds').select(['target_type', 'target_id']).where('released_at', 'is', null).execute();
  const adIds = holds.filter((h) => h.target_type === 'ad').map((h) => h.target_id);
  const userIds = holds.filter((h) => h.target_type === 'user').map((h) => h.target_id);
  const paths = copies.flatMap((r) => photoPaths(r.photos_json));
  // A hold on an ad covers its rows; a hold on an account, the rows of every ad it owned (each read through its index: migration 0018).
  paths.push(...(await editAndVersionPaths(db, 'ad_id', adIds)), ...(await editAndVersionPaths(db, 'owner_id', userIds)));
  const files = await db.selectFrom('held_files').select('path').execute();
  paths.push(...files.map((f) => f.path));
  return paths;
}

/** The upload paths every revision and every stored version of some ads (by ad, or by owner) name. */
async function editAndVersionPaths(db: Executor, column: 'ad_id' | 'owner_id', ids: readonly string[]): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const revisions = await db.selectFrom('ad_revisions').select('photos_json').where(column, 'in', chunk).execute();
    const versions = await db.selectFrom('ad_versions').select('fields_json').where(column, 'in', chunk).execute();
    paths.push(...revisions.flatMap((r) => photoPaths(r.photos_json)));
    for (const v of versions) paths.push(...photoPaths(versionPhotos(v.fields_json)));
  }
  return paths;
}

/** The photos record of a stored version (ads.versions.ts: the content columns as JSON), or '[]'. */
export function versionPhotos(fieldsJson: string): string {
  try {
    const photos = (JSON.parse(fieldsJson) as { photos_json?: unknown }).photos_json;
    return typeof photos === 'string' ? photos : '[]';
  } catch {
    return '[]';
  }
}

/**
 * A file of the account that would be removed now (its replaced avatar) but a hold keeps: it is
 * left on disk and recorded, so the orphan sweep leaves it until the hold is released. False when
 * no hold covers the account (the caller removes the file).
 */
export async function keepForHold(db: Executor, userId: string, path: string, at: string): Promise<boolean> {
  if (!(await isUserHeld(db, userId))) return false;
  const rel = path.replace(/^\/uploads\//, '');
  await db
    .insertInto('held_files')
    .values({ path: rel, user_id: userId, created_at: at })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await withdraw(db, [rel], HOLD_REASON);
  return true;
}

/**
 * A held account changing its e-mail or nickname: the value replaced is recorded (held_identity),
 * as a replaced avatar is kept, because a preservation request names the account by what it was
 * called then. Nothing is recorded when no hold covers the account.
 */
export async function keepIdentityForHold(
  db: Executor,
  userId: string,
  change: { field: HeldIdentityField; oldValue: string; newValue: string },
  at: string,
): Promise<void> {
  if (change.oldValue === change.newValue || !(await isUserHeld(db, userId))) return;
  await db
    .insertInto('held_identity')
    .values({ user_id: userId, field: change.field, old_value: change.oldValue, new_value: change.newValue, changed_at: at })
    .execute();
}

const ERASED_EMAIL = sql<boolean>`email LIKE 'deleted-%@deleted.invalid'`;

/**
 * After a release, in its transaction: the deletions held back are done now, for what no other
 * hold still covers. Copies of deleted ads go (with their fingerprints), so do the account's flags
 * naming other accounts' ads deleted meanwhile, the account's replaced pictures and former e-mails
 * and nicknames once no hold covers it, and an account closed while held is erased as any deleted
 * account is. Returns the upload paths to remove after commit, and what the erasure's outbox files
 * may name (eraseUser).
 */
export async function completeDeferredDeletions(
  trx: Executor,
  userId: string,
  placeholderHash: string,
  at: string,
): Promise<{ files: string[]; ads: number; erased: boolean; outbox: string[] }> {
  const files: string[] = [];
  const done: string[] = [];
  for (const h of await trx.selectFrom('held_ads').select(['id', 'owner_id', 'photos_json']).where('owner_id', '=', userId).execute()) {
    if (await isAdHeld(trx, h.id, h.owner_id)) continue;
    await trx.deleteFrom('held_ads').where('id', '=', h.id).execute();
    files.push(...photoPaths(h.photos_json));
    done.push(h.id);
  }
  // The files kept with those copies go too: the photos of the edit that was waiting for review
  // when the ad was deleted, of edits dropped meanwhile, of its stored versions (nothing else names them).
  files.push(...(await editAndVersionPaths(trx, 'ad_id', done)));
  await forgetFingerprints(trx, done);
  await forgetDeletedMatches(trx, userId);
  let erased = false;
  let outbox: string[] = [];
  if (!(await isUserHeld(trx, userId))) {
    const kept = await trx.selectFrom('held_files').select('path').where('user_id', '=', userId).execute();
    await trx.deleteFrom('held_files').where('user_id', '=', userId).execute();
    files.push(...kept.map((f) => f.path));
    const closed = await trx
      .selectFrom('users')
      .select(['avatar'])
      .where('id', '=', userId)
      .where('deleted_at', 'is not', null)
      .where(sql<boolean>`NOT (${ERASED_EMAIL})`)
      .executeTakeFirst();
    if (closed) {
      outbox = await eraseUser(trx, userId, placeholderHash, at);
      if (closed.avatar) files.push(closed.avatar);
      erased = true;
    } else await trx.deleteFrom('held_identity').where('user_id', '=', userId).execute(); // (eraseUser removes them, after reading them)
  }
  // Those files go after commit: nothing withdraws them any more.
  const gone = [...new Set(files)];
  for (let i = 0; i < gone.length; i += 500) {
    await trx
      .deleteFrom('withdrawn_uploads')
      .where('reason', '=', HOLD_REASON)
      .where('path', 'in', gone.slice(i, i + 500))
      .execute();
  }
  return { files: gone, ads: done.length, erased, outbox };
}
