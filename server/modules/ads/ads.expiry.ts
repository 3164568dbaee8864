import type { AppDeps } from '../../core/deps.ts';
import * as repo from './ads.repository.ts';

/** Cron job body: approved ads whose time ran out become expired (they left public view already at expires_at). */
export async function expireAds(deps: AppDeps): Promise<string> {
  const at = deps.clock.now().toISOString();
  const due = await deps.db.transaction().execute((trx) => repo.expireDue(trx, at));
  for (const d of due) deps.hub.sendToUser(d.owner_id, 'adStatusUpdate', { adId: d.id, status: 'expired' });
  return `${due.length} ad${due.length === 1 ? '' : 's'} expired`;
}
