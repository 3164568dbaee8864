import type { AppDeps } from '../../core/deps.ts';
import { DAY_MS } from '../../core/clock.ts';
import { jobReport, type JobReport } from '../../core/report.ts';
import { heldUserIds } from './moderation.holds.ts';

/** Sign-ins are kept this long (issue #14), longer for an account under a legal hold. */
export const SIGN_IN_RETENTION_MS = 180 * DAY_MS;

/**
 * Cron job purge-old-sign-ins (daily): deletes sign-in records older than 180 days, except those
 * of accounts with a legal hold in force (on the account or one of its ads), which are kept
 * whatever their age. Register it in server/modules/cron/cron.jobs.ts CRON_JOBS.
 */
export async function purgeOldSignIns(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<JobReport> {
  const before = new Date(deps.clock.now().getTime() - SIGN_IN_RETENTION_MS).toISOString();
  const r = await deps.db.deleteFrom('sign_ins').where('at', '<', before).where('user_id', 'not in', heldUserIds(deps.db)).executeTakeFirst();
  const n = Number(r.numDeletedRows);
  return jobReport(`${n} sign-in record${n === 1 ? '' : 's'} older than 180 days deleted (accounts under a legal hold kept)`, 'cron.sign_ins_purged', {
    count: n,
    days: SIGN_IN_RETENTION_MS / DAY_MS,
  });
}
