import type { Executor } from '../../core/db.ts';
import { photoPaths } from '../moderation/moderation.holds.ts';

// Files the public may no longer fetch (migration 0021): a taken-down ad's photos, a suspended
// owner's, and files only a legal hold keeps on disk. Staff still fetch them (review, evidence);
// the upload route asks isWithdrawn() of every file it would serve to anyone else.

/** Why a file is withdrawn: staff disabled its ad, suspended its owner, or only a hold keeps it. */
export const adReason = (adId: string) => `ad:${adId}`;
export const userReason = (userId: string) => `user:${userId}`;
export const HOLD_REASON = 'hold';

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
