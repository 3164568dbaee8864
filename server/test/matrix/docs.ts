import { STAFF, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [{ route: 'GET /api/docs', expect: STAFF, allowed: 200 }];
