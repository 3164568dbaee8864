import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import { photoPaths } from '../moderation/moderation.holds.ts';

// Files the public may not (or no longer) fetch (migrations 0021, 0028): photos no staff member
// approved yet, a taken-down ad's photos, a suspended owner's, and files only a legal hold keeps on
// disk. Staff still fetch them (review, evidence); the upload route asks of every file it would
// serve to anyone else.

/** Why a file is withdrawn: staff disabled its ad, suspended its owner, or only a hold keeps it. */
export const adReason = (adId: string) => `ad:${adId}`;
export const userReason = (userId: string) => `user:${userId}`;
/**
 * The owner's account is not approved (pending, or suspended when staff approved an ad or an edit):
 * its ads show nowhere (PRODUCT §2), so neither do their photos, but to the owner and staff. Lifted
 * when the account is approved.
 */
export const unapprovedOwnerReason = (userId: string) => `unapproved-owner:${userId}`;
export const HOLD_REASON = 'hold';
/**
 * Staff closed the ad's city or state (migration 0041): the ad shows nowhere, so neither do its
 * photos, but to the owner and staff. Lifted when its place is open again (reopened, or the ad moved).
 */
export const closedPlaceReason = (adId: string) => `closed:${adId}`;
/**
 * A photo stored for this ad (posted, or an edit) that no approved version of it has shown yet:
 * withdrawn as it is stored, in the same transaction as the row naming it, and lifted in the
 * transaction of the approval that shows it (approveUploads). Otherwise anyone could host images
 * nobody reviewed here, cached forever.
 */
export const unreviewedReason = (adId: string) => `unreviewed:${adId}`;

/** The ad whose owner may still fetch a file withdrawn for this reason (its own ad disabled, not yet approved, or in a closed place); else null. */
export function ownerFetchableAd(reason: string): string | null {
  const m = /^(?:ad|unreviewed|closed):(.+)$/.exec(reason);
  return m ? m[1] : null;
}

/** The user who may still fetch a file withdrawn for this reason (their own account not approved yet); else null. */
export function ownerFetchableUser(reason: string): string | null {
  const m = /^unapproved-owner:(.+)$/.exec(reason);
  return m ? m[1] : null;
}

export async function withdraw(db: Executor, paths: readonly string[], reason: string): Promise<void> {
  if (!paths.length) return;
  await db
    .insertInto('withdrawn_uploads')
    .values(paths.map((path) => ({ path, reason })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Ends one reason (the ad enabled again, the owner no longer suspended); files withdrawn for another stay withdrawn. */
export async function restore(db: Executor, reason: string): Promise<void> {
  await db.deleteFrom('withdrawn_uploads').where('reason', '=', reason).execute();
}

/**
 * Staff approved the version of the ad whose photos record this is: its files are no longer withheld
 * as unreviewed (other reasons stay); while its owner's account is not approved, they are withheld
 * for that instead, until it is (MasterService.updateStatus).
 */
export async function approveUploads(db: Executor, adId: string, photosJson: string): Promise<void> {
  const paths = photoPaths(photosJson);
  if (!paths.length) return;
  const owner = await db
    .selectFrom('ads')
    .innerJoin('users', 'users.id', 'ads.owner_id')
    .select(['users.id', 'users.status'])
    .where('ads.id', '=', adId)
    .executeTakeFirst();
  if (owner && owner.status !== 'approved') await withdraw(db, paths, unapprovedOwnerReason(owner.id));
  await db.deleteFrom('withdrawn_uploads').where('reason', '=', unreviewedReason(adId)).where('path', 'in', paths).execute();
}

/** Every photo file of some ads: theirs and their pending edits'. */
export async function photosOfAds(db: Executor, where: { adId: string } | { ownerId: string }): Promise<string[]> {
  const ads = db.selectFrom('ads').select('photos_json');
  const edits = db.selectFrom('ad_revisions').select('photos_json').where('status', '=', 'pending');
  const [a, r] = await Promise.all(
    'adId' in where
      ? [ads.where('id', '=', where.adId).execute(), edits.where('ad_id', '=', where.adId).execute()]
      : [ads.where('owner_id', '=', where.ownerId).execute(), edits.where('owner_id', '=', where.ownerId).execute()],
  );
  return [...a, ...r].flatMap((row) => photoPaths(row.photos_json));
}

/** Each photo file (and thumbnail) of the ads `ads` selects (a subquery of ids), with its closed-place reason. */
const closedPhotos = (ads: ReturnType<typeof sql>) => sql`
  INSERT OR IGNORE INTO withdrawn_uploads (path, reason)
  SELECT f.value, 'closed:' || a.id
  FROM ads a, json_each(a.photos_json) p, json_each(json_array(json_extract(p.value, '$.path'), json_extract(p.value, '$.thumbPath'))) f
  WHERE a.id IN (${ads}) AND f.value IS NOT NULL`;

/**
 * Staff closed these cities of the state (or the whole state): the photos of its ads that could
 * show, approved ones and those staff took down (enabled again, they would show their photos), stop
 * answering the public. Ads in review or unpaid are not public yet (unreviewed), and none is
 * approved in a closed place; an edit's photos are not approved there either.
 */
export async function withdrawClosedPlace(db: Executor, stateId: string, cityIds: readonly string[] | undefined): Promise<void> {
  const where = cityIds ? sql`city_id IN (${sql.join([...cityIds])})` : sql`state_id = ${stateId}`;
  await closedPhotos(
    sql`SELECT id FROM ads WHERE status = 'approved' AND ${where} UNION ALL SELECT id FROM ads WHERE status = 'disabled' AND ${where}`,
  ).execute(db);
}

/**
 * Places were opened again: the photos of every ad whose city and state are both open now (or that
 * is gone) answer again; an ad whose city stays closed in a reopened state (or the reverse) keeps
 * them withdrawn. Reads only the closed-place rows (by the reason index), whatever the ads' number.
 */
export async function restoreOpenPlaces(db: Executor): Promise<void> {
  await sql`DELETE FROM withdrawn_uploads WHERE reason >= 'closed:' AND reason < 'closed;' AND NOT EXISTS (
    SELECT 1 FROM ads a JOIN cities c ON c.id = a.city_id JOIN states s ON s.id = a.state_id
    WHERE a.id = substr(withdrawn_uploads.reason, 8) AND (c.enabled = 0 OR s.enabled = 0))`.execute(db);
}
