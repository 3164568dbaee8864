import type { Selectable } from 'kysely';
import type { AppDeps } from '../../core/deps.ts';
import type { CoreTables } from '../../core/schema.ts';
import type { SessionUser } from '../../core/auth.ts';
import { paging } from '../../core/http.ts';
import { can } from '../reports/reports.policy.ts';
import type { AuditEntry } from '../../../contract/api/audit.ts';
import * as repo from './audit.repository.ts';

/** One entry as GET /api/admin/get-audit-log answers it (contract/api/audit.ts). */
export type AuditEntryView = AuditEntry;

const parse = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

type AuditRow = Selectable<CoreTables['audit_log']>;

/** An audit row as the API answers it (the audit log, a user's screen); `redact` may hide part of a snapshot. */
export function toAuditEntry(r: AuditRow, redact: (snapshot: unknown) => unknown = (v) => v): AuditEntryView {
  return {
    id: r.id,
    actorId: r.actor_id,
    actorEmail: r.actor_email,
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    before: redact(parse(r.before_json)),
    after: redact(parse(r.after_json)),
    at: r.at,
  };
}

/** A snapshot with its closing note blanked (report.status rows carry it in `after`). */
const withoutNote = (v: unknown): unknown => (v !== null && typeof v === 'object' && 'note' in v ? { ...v, note: '' } : v);

export class AuditService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  async list(actor: SessionUser, q: { page?: number; pageSize?: number; action?: string; targetType?: string; targetId?: string }) {
    const { pageSize, offset } = paging(q, 50);
    const { rows, total } = await repo.listAudit(this.deps.db, { action: q.action, targetType: q.targetType, targetId: q.targetId, limit: pageSize, offset });
    // How another admin handled a report about the reader's own ad (its closing note) is not the
    // reader's to read, as the reports list and their user page hide it (reports.policy.ts). The
    // row stays: that staff acted on it is no secret.
    const owners = await repo.reportAdOwners(
      this.deps.db,
      rows.flatMap((r) => (r.target_type === 'report' && r.target_id ? [r.target_id] : [])),
    );
    const hidden = (r: (typeof rows)[number]) =>
      r.target_type === 'report' && r.target_id !== null && !can(actor, 'setStatus', { id: r.target_id, adOwnerId: owners.get(r.target_id) ?? null });
    const auditLog: AuditEntryView[] = rows.map((r) => toAuditEntry(r, hidden(r) ? withoutNote : undefined));
    return { auditLog, total };
  }
}
