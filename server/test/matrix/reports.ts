import { PUBLIC, STAFF, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  {
    route: 'POST /api/reports',
    expect: PUBLIC,
    allowed: 201,
    request: () => ({ payload: { kind: 'contact', message: 'A question about the site, please.', contact: 'someone@example.com' } }),
  },
  { route: 'GET /api/admin/get-reports', expect: STAFF, allowed: 200 },
  {
    route: 'POST /api/admin/set-report-status',
    expect: STAFF,
    allowed: 200,
    request: (c) => ({ payload: { id: c.id('provider.report'), status: 'closed' } }),
    policy: ['reports', 'setStatus', (c, r) => c.objects.report((r.payload as { id: string }).id)],
  },
];
