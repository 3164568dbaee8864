import { PUBLIC, STAFF, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  // 200 or 503 by the latest database and disk results (this machine's disk): anyone gets past authorization.
  { route: 'GET /api/health', expect: PUBLIC },
  { route: 'GET /api/admin/get-health-check', expect: STAFF, allowed: 200 },
  { route: 'POST /api/admin/run-health-check', expect: STAFF, allowed: 200, request: () => ({ payload: {} }) },
  {
    route: 'DELETE /api/admin/delete-health-check-by-id/:id',
    expect: STAFF,
    allowed: 200,
    request: (c) => ({ url: `/api/admin/delete-health-check-by-id/${c.world.healthCheckId}` }),
  },
  { route: 'GET /api/admin/get-overview', expect: STAFF, allowed: 200 },
];
