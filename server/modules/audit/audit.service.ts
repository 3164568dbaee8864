import type { AppDeps } from '../../core/deps.ts';
import { paging } from '../../core/http.ts';
import type { AuditEntry } from '../../../contract/api/audit.ts';
import * as repo from './audit.repository.ts';

/** One entry as GET /api/admin/get-audit-log answers it (contract/api/audit.ts). */
export type AuditEntryView = AuditEntry;

const parse = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

export class AuditService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  async list(q: { page?: number; pageSize?: number; action?: string; targetType?: string; targetId?: string }) {
    const { pageSize, offset } = paging(q, 50);
    const { rows, total } = await repo.listAudit(this.deps.db, { action: q.action, targetType: q.targetType, targetId: q.targetId, limit: pageSize, offset });
    const auditLog: AuditEntryView[] = rows.map((r) => ({
      id: r.id,
      actorId: r.actor_id,
      actorEmail: r.actor_email,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      before: parse(r.before_json),
      after: parse(r.after_json),
      at: r.at,
    }));
    return { auditLog, total };
  }
}
