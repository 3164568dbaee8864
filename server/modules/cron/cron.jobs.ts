import type { AppDeps } from '../../core/deps.ts';
import { expireAds } from '../ads/ads.expiry.ts';
import { sweepOrphanUploads } from '../uploads/uploads.sweep.ts';
import { expireInvoices, reconcileInvoices } from '../payments/payments.jobs.ts';

export interface CronJob {
  /** Shown in the back office; unique. */
  name: string;
  /** Cron pattern (croner syntax, server time zone). */
  schedule: string;
  /** Does the work; the returned text is the run's message. Throwing records the run as an error. */
  run(deps: AppDeps): Promise<string | void>;
}

/**
 * The registry of in-process jobs. To add one (expire unpaid invoices, purge week-old e-mail
 * changes, health checks every 5 minutes), append it here; the runner schedules every entry and
 * records each run in cron_runs.
 */
export const CRON_JOBS: CronJob[] = [
  { name: 'expire-ads', schedule: '0 * * * *', run: expireAds },
  // Photo files left behind by a post that crashed between storing its files and its row.
  { name: 'sweep-orphan-uploads', schedule: '30 * * * *', run: sweepOrphanUploads },
  // A lost or late BTCPay webhook never loses money: open invoices are re-read every minute.
  { name: 'reconcile-invoices', schedule: '* * * * *', run: reconcileInvoices },
  { name: 'expire-invoices', schedule: '*/15 * * * *', run: expireInvoices },
];
