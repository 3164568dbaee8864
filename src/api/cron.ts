import { api } from './client';

/** One recorded run of an in-process job; `running` until it finishes. */
export interface CronRun {
  id: number;
  name: string;
  startedAt: string;
  finishedAt: string | null;
  outcome: 'running' | 'ok' | 'error' | string;
  message: string | null;
}

export interface CronJob {
  name: string;
  schedule: string;
}

export interface CronRunsPage {
  cronJobs: CronRun[];
  total: number;
  page: number;
  pageSize: number;
  jobs: CronJob[];
}

export interface CronQuery {
  page: number;
  pageSize: number;
  /** Empty for every job. */
  name: string;
}

export const cronApi = {
  list: (q: CronQuery) => {
    const p: Record<string, string | number> = { page: q.page, pageSize: q.pageSize };
    if (q.name) p.name = q.name;
    return api.get<CronRunsPage>('admin/get-cron-jobs', { searchParams: p });
  },
  remove: (id: number) => api.delete<{ deleted: boolean }>(`admin/delete-cron-job-status-by-id/${id}`),
};
