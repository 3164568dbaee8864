import type { AppDeps } from '../../core/deps.ts';
import type { Executor } from '../../core/db.ts';
import { Conflict } from '../../core/errors.ts';
import { DAY_MS } from '../../core/clock.ts';
import { jobReport, type JobReport } from '../../core/report.ts';
import { beforeAdDeleted } from '../moderation/moderation.holds.ts';
import { removeAdPhotos } from './ads.images.ts';
import type { StoredPhoto } from './ads.dto.ts';
import * as repo from './ads.repository.ts';

/**
 * An unpaid ad neither posted nor changed for this long is abandoned: it was never paid, reviewed
 * or shown, and posting is free, so without an end one account could keep 20 posts of ten photos
 * (~180 MB) a day on disk forever.
 */
export const UNPAID_AD_MAX_AGE_MS = 30 * DAY_MS;
/** Stale ads read a query; each is then deleted in its own short transaction. */
const PURGE_BATCH = 500;

/**
 * Deletes an unpaid ad from its owner's cart, in the caller's transaction: under a legal hold the
 * ad leaves the cart but a copy and its photo files are kept (moderation.holds.ts). Returns whether
 * it is held; the caller removes the photos of one not held once the transaction has committed.
 * 409 when it is no longer unpaid (the copy goes back with the transaction).
 */
export async function deleteFromCart(trx: Executor, ad: { id: string; owner_id: string }, at: string): Promise<boolean> {
  const held = await beforeAdDeleted(trx, { id: ad.id, ownerId: ad.owner_id }, 'cart_deletion', at);
  if (!(await repo.deleteUnpaidAd(trx, ad.owner_id, ad.id))) throw new Conflict('ad.delete_only_unpaid');
  return held;
}

/**
 * Cron job purge-unpaid-ads (daily): deletes the ads in carts that were posted and last changed
 * (edited, moved) over 30 days ago, as their owners deleting them from the cart would
 * (deleteFromCart). No e-mail warns the owner first. An aborted run stops between ads; the next
 * night goes on.
 */
export async function purgeUnpaidAds(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, signal: AbortSignal): Promise<JobReport> {
  const before = new Date(deps.clock.now().getTime() - UNPAID_AD_MAX_AGE_MS).toISOString();
  let n = 0;
  while (!signal.aborted) {
    const ids = await repo.staleUnpaidAds(deps.db, before, PURGE_BATCH);
    for (const id of ids) {
      if (signal.aborted) break;
      const at = deps.clock.now().toISOString();
      const gone = await deps.db
        .transaction()
        .execute(async (trx) => {
          // Still unpaid and unchanged under the lock: one paid or edited since it was read stays.
          const ad = await repo.findStaleUnpaidAd(trx, id, before);
          if (!ad) return null;
          return { held: await deleteFromCart(trx, ad, at), photos: JSON.parse(ad.photos_json) as StoredPhoto[] };
        })
        .catch((e: unknown) => {
          if (e instanceof Conflict) return null; // paid meanwhile: it stays
          throw e;
        });
      if (!gone) continue;
      n++;
      if (!gone.held) removeAdPhotos(deps.config.dataDir, gone.photos);
    }
    if (ids.length < PURGE_BATCH) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const days = UNPAID_AD_MAX_AGE_MS / DAY_MS;
  return jobReport(`${n} unpaid ${n === 1 ? 'ad' : 'ads'} unchanged for over ${days} days deleted`, 'cron.unpaid_ads_purged', { count: n, days });
}
