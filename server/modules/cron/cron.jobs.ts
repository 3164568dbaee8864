import type { AppDeps } from '../../core/deps.ts';
import { DAY_MS } from '../../core/clock.ts';
import { expireAds } from '../ads/ads.expiry.ts';
import { sweepOrphanUploads } from '../uploads/uploads.sweep.ts';
import { expireInvoices, reconcileInvoices } from '../payments/payments.jobs.ts';
import { renewalReminders } from '../ads/ads.reminders.ts';
import { purgeUnpaidAds } from '../ads/ads.cart-purge.ts';
import { purgeOldSignIns } from '../moderation/moderation.jobs.ts';
import { purgeSms, SMS_MESSAGE_HISTORY_MS } from '../sms/sms.jobs.ts';
import { compactSearchIndex } from '../listings/listings.jobs.ts';
import { jobReport, type JobReport } from '../../core/report.ts';
import * as repo from './cron.repository.ts';
import { purgePageViewCounts, purgePageViews as purgePageViewsBefore } from '../analytics/analytics.repository.ts';

export interface CronJob {
  /** Shown in the back office; unique. */
  name: string;
  /** Cron pattern (croner syntax, server time zone). */
  schedule: string;
  /**
   * Does the work; what it returns is the run's message, in English and as a code the cron jobs
   * page words in its language. Throwing records the run as failed.
   * `signal` is aborted when the run passes its time limit or the server shuts down: long work
   * should stop there (the run is recorded failed either way).
   */
  run(deps: AppDeps, signal: AbortSignal): Promise<JobReport>;
  /** The time limit of one run (default DEFAULT_TIMEOUT_MS); past it the run is recorded failed, "timed out". */
  timeoutMs?: number;
  /** Also run once as soon as the server is ready (only when the scheduler runs: CRON on). */
  runAtStart?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Unconfirmed e-mail changes are dead after a week: their tokens are refused, the rows only leak addresses. */
export const EMAIL_CHANGE_MAX_AGE_MS = 7 * DAY_MS;
/**
 * A confirmed change (with the address it replaced) is kept as long as the outbox keeps the mail
 * sent to that address (purge-sms, SMS_MESSAGE_HISTORY_MS), so that an erasure still removes it.
 */
export const CONFIRMED_EMAIL_CHANGE_HISTORY_MS = SMS_MESSAGE_HISTORY_MS;
/** The texts of refused posts (screening_log) are kept a year: staff look back at who tried to post what. */
export const SCREENING_LOG_HISTORY_MS = 365 * DAY_MS;
/** Job runs and health check results are kept for 30 days. */
export const RUN_HISTORY_MS = 30 * DAY_MS;
/** Page views are kept a year and a day: the page-views screen reaches back 365 days. */
export const PAGE_VIEW_HISTORY_MS = 366 * DAY_MS;
/** Page views deleted a statement (the event loop and the writer free between batches). */
export const PAGE_VIEW_PURGE_BATCH = 5000;
/** A password-reset link's row (who asked, when, whether it was used) is kept 30 days past the link's end. */
export const PASSWORD_RESET_HISTORY_MS = 30 * DAY_MS;

async function purgeEmailChanges(deps: AppDeps): Promise<JobReport> {
  const now = deps.clock.now().getTime();
  const n = await repo.purgeEmailChanges(deps.db, {
    unconfirmedBefore: new Date(now - EMAIL_CHANGE_MAX_AGE_MS).toISOString(),
    confirmedBefore: new Date(now - CONFIRMED_EMAIL_CHANGE_HISTORY_MS).toISOString(),
  });
  const [days, confirmedDays] = [EMAIL_CHANGE_MAX_AGE_MS / DAY_MS, CONFIRMED_EMAIL_CHANGE_HISTORY_MS / DAY_MS];
  return jobReport(
    `${plural(n.unconfirmed, 'unconfirmed e-mail change')} older than ${days} days and ${plural(n.confirmed, 'confirmed e-mail change')} older than ${confirmedDays} days deleted (accounts under a legal hold kept)`,
    'cron.email_changes_purged_by_kind',
    undefined,
    [
      { code: 'cron.unconfirmed_email_changes_purged', params: { count: n.unconfirmed, days } },
      { code: 'cron.confirmed_email_changes_purged', params: { count: n.confirmed, days: confirmedDays } },
    ],
  );
}

async function purgeScreeningLog(deps: AppDeps): Promise<JobReport> {
  const n = await repo.purgeScreeningLog(deps.db, new Date(deps.clock.now().getTime() - SCREENING_LOG_HISTORY_MS).toISOString());
  const days = SCREENING_LOG_HISTORY_MS / DAY_MS;
  return jobReport(
    `${plural(n, 'refused post')} older than ${days} days deleted from the screening log (accounts under a legal hold kept)`,
    'cron.screening_log_purged',
    {
      count: n,
      days,
    },
  );
}

async function purgePasswordResets(deps: AppDeps): Promise<JobReport> {
  const n = await repo.purgePasswordResets(deps.db, new Date(deps.clock.now().getTime() - PASSWORD_RESET_HISTORY_MS).toISOString());
  const days = PASSWORD_RESET_HISTORY_MS / DAY_MS;
  return jobReport(`${plural(n, 'password-reset link')} ended over ${days} days ago deleted`, 'cron.password_resets_purged', { count: n, days });
}

/**
 * Every public page load writes a row: at scale, millions a day. Deleted in batches; an aborted run
 * goes on the next night. Then the per-day counters (migration 0026) of the days wholly before the
 * limit, in batches too: the day the limit falls in is kept with the views it still has.
 */
async function purgePageViews(deps: AppDeps, signal: AbortSignal): Promise<JobReport> {
  const before = new Date(deps.clock.now().getTime() - PAGE_VIEW_HISTORY_MS).toISOString();
  let n = 0;
  let views = true;
  while (!signal.aborted) {
    const batch = views
      ? await purgePageViewsBefore(deps.db, before, PAGE_VIEW_PURGE_BATCH)
      : await purgePageViewCounts(deps.db, before.slice(0, 10), PAGE_VIEW_PURGE_BATCH);
    if (views) n += batch;
    if (batch < PAGE_VIEW_PURGE_BATCH) {
      if (!views) break;
      views = false;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  const days = PAGE_VIEW_HISTORY_MS / DAY_MS;
  return jobReport(`${plural(n, 'page view')} older than ${days} days deleted`, 'cron.page_views_purged', { count: n, days });
}

async function purgeOldRuns(deps: AppDeps): Promise<JobReport> {
  const before = new Date(deps.clock.now().getTime() - RUN_HISTORY_MS).toISOString();
  const runs = await repo.purgeRuns(deps.db, before);
  const checks = await deps.services.health.purge(before);
  const days = RUN_HISTORY_MS / DAY_MS;
  return jobReport(`${plural(runs, 'job run')} and ${plural(checks, 'health check result')} older than 30 days deleted`, 'cron.history_purged', { days }, [
    { code: 'cron.runs_purged', params: { count: runs } },
    { code: 'cron.checks_purged', params: { count: checks } },
  ]);
}

async function healthChecks(deps: AppDeps): Promise<JobReport> {
  const rows = await deps.services.health.run();
  const bad = rows.filter((r) => r.status !== 'ok');
  const message = `${plural(rows.length, 'check')}: ${bad.length ? bad.map((r) => `${r.name} ${r.status}`).join(', ') : 'all ok'}`;
  if (!bad.length) return jobReport(message, 'cron.checks_ok', { count: rows.length });
  const parts = bad.map((r) => ({ code: 'cron.check_not_ok', params: { check: r.name, status: r.status } }));
  return jobReport(message, 'cron.checks_not_ok', { count: rows.length }, parts);
}

/**
 * The registry of in-process jobs. To add one, append it here: the scheduler runs every entry on
 * its schedule, "run now" finds it by name, and each run is recorded in cron_runs.
 */
export const CRON_JOBS: CronJob[] = [
  // Public reads hide an ad at its end without it; the owner's socket, the staff lists' filters and
  // the "it expired" e-mail follow the stored status, so it is set within minutes.
  { name: 'expire-ads', schedule: '*/5 * * * *', run: expireAds },
  // Photo files left behind by a post that crashed between storing its files and its row.
  { name: 'sweep-orphan-uploads', schedule: '30 * * * *', run: (deps) => sweepOrphanUploads(deps), timeoutMs: 10 * 60_000 },
  // A lost or late BTCPay webhook never loses money: open invoices are re-read every minute.
  { name: 'reconcile-invoices', schedule: '* * * * *', run: reconcileInvoices, timeoutMs: 50_000 },
  { name: 'expire-invoices', schedule: '*/15 * * * *', run: expireInvoices },
  // Unconfirmed changes after a week; confirmed ones (the address replaced) with the outbox's mail.
  { name: 'purge-email-changes', schedule: '15 3 * * *', run: purgeEmailChanges, timeoutMs: 60_000 },
  // Reset links are dead an hour after they are sent; their rows only tell who asked and when.
  { name: 'purge-password-resets', schedule: '25 3 * * *', run: purgePasswordResets, timeoutMs: 60_000 },
  // Each check has its own limit (HealthOptions.timeoutMs), well inside this one.
  { name: 'health-checks', schedule: '*/5 * * * *', run: healthChecks, timeoutMs: 60_000, runAtStart: true },
  { name: 'purge-old-runs', schedule: '45 3 * * *', run: purgeOldRuns },
  { name: 'purge-page-views', schedule: '35 3 * * *', run: purgePageViews, timeoutMs: 10 * 60_000 },
  // Three days before an ad expires, and once it has: one e-mail per ad and term.
  { name: 'renewal-reminders', schedule: '20 * * * *', run: renewalReminders, timeoutMs: 10 * 60_000 },
  // Sign-in records are kept 180 days, except those of accounts under a legal hold.
  { name: 'purge-old-sign-ins', schedule: '50 3 * * *', run: purgeOldSignIns },
  // The texts of refused posts after a year, except those of accounts under a legal hold.
  { name: 'purge-screening-log', schedule: '40 3 * * *', run: purgeScreeningLog, timeoutMs: 60_000 },
  // Phone codes a day past their end, the SMS log after 90 days; legal holds kept.
  { name: 'purge-sms', schedule: '55 3 * * *', run: purgeSms },
  // Ads left in carts, unpaid and unchanged for 30 days, with their photos; legal holds kept.
  { name: 'purge-unpaid-ads', schedule: '5 4 * * *', run: purgeUnpaidAds, timeoutMs: 10 * 60_000 },
  // Searches walk every segment of the full-text index: merged back into one each night.
  { name: 'compact-search-index', schedule: '10 4 * * *', run: compactSearchIndex, timeoutMs: 30 * 60_000 },
];

export function findJob(name: string): CronJob | undefined {
  return CRON_JOBS.find((j) => j.name === name);
}
