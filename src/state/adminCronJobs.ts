import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { cronApi, type CronQuery } from '../api/cron';

export const CRON_PAGE_SIZE = 25;
const initial = (): CronQuery => ({ page: 1, pageSize: CRON_PAGE_SIZE, name: '' });

/** The seed's `adminCronJobs` data area (runs of the in-process jobs) and its filter. */
export const adminCronJobsStore = createResource((q: CronQuery) => cronApi.list(q));
export const cronQuery = proxy(initial());
onReset(() => Object.assign(cronQuery, initial()));

export function loadCronJobs(change: Partial<CronQuery> = {}) {
  Object.assign(cronQuery, change);
  return adminCronJobsStore.load({ ...cronQuery });
}

/**
 * Deletes one run record, then reloads the page it was on (stepping back a page when it was
 * the last row there, so the admin does not land on an empty page).
 */
export async function deleteCronRun(id: number): Promise<void> {
  const unchanged = sessionCheck();
  await cronApi.remove(id);
  if (!unchanged()) return;
  const rows = adminCronJobsStore.state.data?.cronJobs.length ?? 0;
  const page = rows <= 1 && cronQuery.page > 1 ? cronQuery.page - 1 : cronQuery.page;
  await loadCronJobs({ page });
}

/**
 * Runs a job now (the server answers once the run has ended), then reloads the list, so its run
 * and its schedule's last outcome show. Errors (409 while it is already running) reach the caller.
 */
export async function runCronJob(name: string) {
  const unchanged = sessionCheck();
  const { cronJob } = await cronApi.run(name);
  if (unchanged()) await loadCronJobs();
  return cronJob;
}

/** How long a run took, in milliseconds; null while it is still running (or the times are junk). */
export function runDuration(startedAt: string, finishedAt: string | null): number | null {
  if (!finishedAt) return null;
  const ms = Date.parse(finishedAt) - Date.parse(startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}
