import { STAFF, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [{ route: 'GET /api/admin/get-audit-log', expect: STAFF }];
