import { PUBLIC, STAFF, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  {
    route: 'POST /api/reports',
    expect: PUBLIC,
    request: { payload: { kind: 'contact', message: 'A question about the site, please.', contact: 'someone@example.com' } },
  },
  { route: 'GET /api/admin/get-reports', expect: STAFF },
  { route: 'POST /api/admin/set-report-status', expect: STAFF, request: { payload: { id: 'nope', status: 'closed' } } },
];
