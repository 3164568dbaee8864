import { STAFF, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  { route: 'GET /api/admin/get-cron-jobs', expect: STAFF, allowed: 200 },
  {
    route: 'DELETE /api/admin/delete-cron-job-status-by-id/:id',
    expect: STAFF,
    allowed: 200,
    request: (c) => ({ url: `/api/admin/delete-cron-job-status-by-id/${c.world.cronRunId}` }),
  },
];
