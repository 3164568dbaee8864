import { PUBLIC, STAFF, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  { route: 'POST /api/analytics/pageview', expect: PUBLIC, request: { payload: { path: '/faq', locale: 'en' } } },
  { route: 'GET /api/admin/get-page-views', expect: STAFF },
];
