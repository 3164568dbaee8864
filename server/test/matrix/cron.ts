import { STAFF, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  { route: 'GET /api/admin/get-cron-jobs', expect: STAFF, allowed: 200 },
  // A cheap job: two DELETEs of rows older than 30 days (the fixture's are younger).
  { route: 'POST /api/admin/run-cron-job', expect: STAFF, allowed: 200, request: () => ({ payload: { name: 'purge-old-runs' } }) },
  {
    route: 'DELETE /api/admin/delete-cron-job-status-by-id/:id',
    expect: STAFF,
    allowed: 200,
    request: (c) => ({ url: `/api/admin/delete-cron-job-status-by-id/${c.world.cronRunId}` }),
  },
];
