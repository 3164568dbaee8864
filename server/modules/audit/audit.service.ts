import type { Selectable } from 'kysely';
import type { AppDeps } from '../../core/deps.ts';
import type { CoreTables } from '../../core/schema.ts';
import type { SessionUser } from '../../core/auth.ts';
import { paging } from '../../core/http.ts';
import { Invalid } from '../../core/errors.ts';
import { isOwner } from '../../core/policy.ts';
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

/** A hold's snapshot with its reason (legal_hold.place) and its release note (legal_hold.release) blanked. */
const withoutHoldText = (v: unknown): unknown => withoutNote(v !== null && typeof v === 'object' && 'reason' in v ? { ...v, reason: '' } : v);

/** A row about a legal hold (placed or released). */
export const isHoldAction = (action: string): boolean => action.startsWith('legal_hold.');

/** The holds a hold row names: the one placed (`after.holdId`) or those released (`before.holdIds`). */
function holdIdsOf(r: AuditRow): string[] {
  const before = parse(r.before_json) as { holdIds?: unknown } | null;
  const after = parse(r.after_json) as { holdId?: unknown } | null;
  return [...(Array.isArray(before?.holdIds) ? before.holdIds : []), after?.holdId].filter((id): id is string => typeof id === 'string');
}

/** A day (its midnight) or a moment, in UTC: 2026-01-31, 2026-01-31T18:00Z, 2026-01-31T18:00:00.250Z. */
const UTC_DATE = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?Z)?$/;

/** An ISO 8601 UTC date of the query as the log stores its moments (toISOString), or 400 naming the field. */
function utcInstant(field: 'since' | 'until', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = UTC_DATE.exec(value);
  const at = m ? new Date(m[0].length === 10 ? `${m[0]}T00:00:00Z` : m[0]) : null;
  // Date rolls 2026-02-31 over to March 3: a day that does not exist is refused, not moved.
  if (!m || !at || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== m[1]) throw new Invalid(field, 'audit.date_invalid');
  return at.toISOString();
}

export class AuditService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  async list(
    actor: SessionUser,
    q: { page?: number; pageSize?: number; action?: string; targetType?: string; targetId?: string; actorId?: string; since?: string; until?: string },
  ) {
    const { pageSize, offset } = paging(q, 50);
    const from = utcInstant('since', q.since);
    const to = utcInstant('until', q.until);
    if (from !== undefined && to !== undefined && from >= to) throw new Invalid('until', 'audit.range_invalid');
    const { rows, total } = await repo.listAudit(this.deps.db, {
      action: q.action,
      targetType: q.targetType,
      targetId: q.targetId,
      actorId: q.actorId,
      from,
      to,
      limit: pageSize,
      offset,
    });
    // How another admin handled a report about the reader's own ad (its closing note) is not the
    // reader's to read, as the reports list and their user page hide it (reports.policy.ts). The
    // row stays: that staff acted on it is no secret.
    const owners = await repo.reportAdOwners(
      this.deps.db,
      rows.flatMap((r) => (r.target_type === 'report' && r.target_id ? [r.target_id] : [])),
    );
    const hidden = (r: (typeof rows)[number]) =>
      r.target_type === 'report' && r.target_id !== null && !can(actor, 'setStatus', { id: r.target_id, adOwnerId: owners.get(r.target_id) ?? null });
    // Likewise the reason of a legal hold on the reader's own account or ads, and its release note:
    // the holds list and their user page leave such holds out (moderation.service.ts holds()).
    const holdRows = rows.filter((r) => isHoldAction(r.action));
    const holdOwners = await repo.holdSubjects(this.deps.db, holdRows.flatMap(holdIdsOf));
    const ownHold = (r: (typeof rows)[number]) => isHoldAction(r.action) && holdIdsOf(r).some((id) => isOwner(actor, holdOwners.get(id)));
    const redaction = (r: (typeof rows)[number]) => (ownHold(r) ? withoutHoldText : hidden(r) ? withoutNote : undefined);
    const auditLog: AuditEntryView[] = rows.map((r) => toAuditEntry(r, redaction(r)));
    return { auditLog, total };
  }
}
