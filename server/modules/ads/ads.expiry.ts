import type { AppDeps } from '../../core/deps.ts';
import { jobReport, type JobReport } from '../../core/report.ts';
import * as repo from './ads.repository.ts';

/** Cron job body: approved ads whose time ran out become expired (they left public view already at expires_at); a held term has not started, so never. */
export async function expireAds(deps: AppDeps): Promise<JobReport> {
  const at = deps.clock.now().toISOString();
  const due = await deps.db.transaction().execute((trx) => repo.expireDue(trx, at));
  for (const d of due) deps.hub.sendToUser(d.owner_id, 'adStatusUpdate', { adId: d.id, status: 'expired' });
  return jobReport(`${due.length} ad${due.length === 1 ? '' : 's'} expired`, 'cron.ads_expired', { count: due.length });
}
