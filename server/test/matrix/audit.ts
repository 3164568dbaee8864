import { STAFF, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [{ route: 'GET /api/admin/get-audit-log', expect: STAFF, allowed: 200 }];
