import type { AppDeps } from '../../core/deps.ts';
import { isAdHeld } from '../moderation/moderation.holds.ts';
import { removeAdPhotos } from './ads.images.ts';
import type { StoredPhoto } from './ads.dto.ts';

/**
 * Removes photo files an ad no longer uses (an edit dropped them), unless the ad is under a legal
 * hold: then they stay, named by the ad's stored versions and revisions, which the orphan sweep
 * reads for held ads (moderation.holds.ts heldUploadPaths).
 */
export async function dropPhotos(deps: AppDeps, adId: string, ownerId: string, photos: StoredPhoto[]): Promise<void> {
  if (!photos.length) return;
  if (await isAdHeld(deps.db, adId, ownerId)) return;
  removeAdPhotos(deps.config.dataDir, photos);
}
