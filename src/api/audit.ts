import { api } from './client';

export interface AuditEntry {
  id: string;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  at: string;
}

export interface AuditQuery {
  page: number;
  pageSize: number;
  action: string;
  targetType: string;
}

export const auditApi = {
  list: (q: AuditQuery) => {
    const p: Record<string, string | number> = { page: q.page, pageSize: q.pageSize };
    if (q.action.trim()) p.action = q.action.trim();
    if (q.targetType.trim()) p.targetType = q.targetType.trim();
    return api.get<{ auditLog: AuditEntry[]; total: number }>('admin/get-audit-log', { searchParams: p });
  },
};
