import { api } from './client';
import type { cronApi as contract } from '../../contract/api/cron.ts';
import type { QueryOf, ResponseOf } from '../../contract/api/types.ts';

type CronApi = typeof contract;
type ListRuns = CronApi['GET /api/admin/get-cron-jobs'];
type RunJob = CronApi['POST /api/admin/run-cron-job'];
type DeleteRun = CronApi['DELETE /api/admin/delete-cron-job-status-by-id/:id'];

export type CronRunsPage = ResponseOf<ListRuns>;
/** One recorded run of an in-process job; `running` until it finishes. */
export type CronRun = CronRunsPage['cronJobs'][number];
/** A registered job: its pattern, its next run (null while the scheduler is off) and its latest run's outcome. */
export type CronSchedule = CronRunsPage['schedules'][number];
/** The page's filter: every field set; an empty name means every job (and is not sent). */
export type CronQuery = Required<QueryOf<ListRuns>>;

export const cronApi = {
  list: ({ name, ...paging }: CronQuery) => api.get<CronRunsPage>('admin/get-cron-jobs', { searchParams: name ? { ...paging, name } : paging }),
  // The server answers once the run has ended, which it does by the job's own limit at the latest
  // (50 s to 30 min): the client's usual 30 s would give up on a run still going, and report it failed.
  run: (name: string) => api.post<ResponseOf<RunJob>>('admin/run-cron-job', { json: { name }, timeout: false }),
  remove: (id: number) => api.delete<ResponseOf<DeleteRun>>(`admin/delete-cron-job-status-by-id/${id}`),
};
