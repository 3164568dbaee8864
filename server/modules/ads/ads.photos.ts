import type { AppDeps } from '../../core/deps.ts';
import { isAdHeld, photoFiles } from '../moderation/moderation.holds.ts';
import { forgetPhotoHashes } from '../moderation/moderation.duplicates.ts';
import { removeAdPhotos } from './ads.images.ts';
import { HOLD_REASON, withdraw } from '../uploads/uploads.withdrawn.ts';
import type { StoredPhoto } from './ads.dto.ts';

/**
 * Removes photo files an ad no longer uses (an edit dropped them), and their hashes from the
 * duplicate check, unless the ad is under a legal hold: then both stay (the hashes with the files
 * they were taken of, evidence as the files are), named by the ad's stored versions and revisions,
 * which the orphan sweep reads for held ads (moderation.holds.ts heldUploadPaths).
 */
export async function dropPhotos(deps: AppDeps, adId: string, ownerId: string, photos: StoredPhoto[]): Promise<void> {
  if (!photos.length) return;
  if (await isAdHeld(deps.db, adId, ownerId)) {
    // Kept for the hold, for staff: no longer the ad's, so no longer public.
    await withdraw(deps.db, photoFiles(photos), HOLD_REASON);
    return;
  }
  const paths = photos.map((p) => p.path); // the hash is of the large copy (ads.images.ts)
  await forgetPhotoHashes(deps.db, adId, paths);
  removeAdPhotos(deps.config.dataDir, photos);
}
