import { PUBLIC, STAFF, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  { route: 'POST /api/analytics/pageview', expect: PUBLIC, allowed: 204, request: () => ({ payload: { path: '/faq', locale: 'en' } }) },
  { route: 'GET /api/admin/get-page-views', expect: STAFF, allowed: 200 },
];
