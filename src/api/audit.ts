import { api } from './client';
import type { auditApi as auditRoutes } from '../../contract/api/audit.ts';
import type { QueryOf, ResponseOf } from '../../contract/api/types.ts';

// Every shape here is the contract's (contract/api/audit.ts), imported as types only.
type Route = (typeof auditRoutes)['GET /api/admin/get-audit-log'];
export type AuditLog = ResponseOf<Route>;
type LogQuery = QueryOf<Route>;

/** What the audit screen asks for (empty filters are left out). */
export type AuditQuery = Required<Pick<LogQuery, 'page' | 'pageSize' | 'action' | 'targetType'>>;

export const auditApi = {
  list: (q: AuditQuery) => {
    const p: LogQuery = { page: q.page, pageSize: q.pageSize };
    if (q.action.trim()) p.action = q.action.trim();
    if (q.targetType.trim()) p.targetType = q.targetType.trim();
    return api.get<AuditLog>('admin/get-audit-log', { searchParams: p });
  },
};
