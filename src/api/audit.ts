import { api } from './client';
import type { auditApi as auditRoutes } from '../../contract/api/audit.ts';
import type { QueryOf, ResponseOf } from '../../contract/api/types.ts';

// Every shape here is the contract's (contract/api/audit.ts), imported as types only.
type Route = (typeof auditRoutes)['GET /api/admin/get-audit-log'];
export type AuditLog = ResponseOf<Route>;
type LogQuery = QueryOf<Route>;

/**
 * What the audit screen asks for (empty filters are left out). `actorId`: who acted. `fromDay` and
 * `throughDay`: UTC days (YYYY-MM-DD), both included; sent as the API's range, `until` exclusive.
 */
export type AuditQuery = Required<Pick<LogQuery, 'page' | 'pageSize' | 'action' | 'targetType'>> & {
  actorId?: string;
  fromDay?: string;
  throughDay?: string;
};

/** The UTC day after a YYYY-MM-DD day (what is not a day is sent as typed: the server refuses it, naming it). */
export function dayAfter(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(t) ? new Date(t + 86_400_000).toISOString().slice(0, 10) : day;
}

export const auditApi = {
  list: (q: AuditQuery) => {
    const p: LogQuery = { page: q.page, pageSize: q.pageSize };
    if (q.action.trim()) p.action = q.action.trim();
    if (q.targetType.trim()) p.targetType = q.targetType.trim();
    if (q.actorId?.trim()) p.actorId = q.actorId.trim();
    if (q.fromDay) p.since = q.fromDay;
    if (q.throughDay) p.until = dayAfter(q.throughDay);
    return api.get<AuditLog>('admin/get-audit-log', { searchParams: p });
  },
};
