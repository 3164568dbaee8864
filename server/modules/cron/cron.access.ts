import { STAFF, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  { route: 'GET /api/admin/get-cron-jobs', expect: STAFF },
  { route: 'DELETE /api/admin/delete-cron-job-status-by-id/:id', expect: STAFF, request: { url: '/api/admin/delete-cron-job-status-by-id/999999' } },
];
