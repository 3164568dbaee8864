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
 * A photo stored for this ad (posted, or an edit) that no approved version of it has shown yet:
 * withdrawn as it is stored, in the same transaction as the row naming it, and lifted in the
 * transaction of the approval that shows it (approveUploads). Otherwise anyone could host images
 * nobody reviewed here, cached forever.
 */
export const unreviewedReason = (adId: string) => `unreviewed:${adId}`;

/** The ad whose owner may still fetch a file withdrawn for this reason (its own ad disabled, or not yet approved); else null. */
export function ownerFetchableAd(reason: string): string | null {
  const m = /^(?:ad|unreviewed):(.+)$/.exec(reason);
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
