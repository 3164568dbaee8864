import type { Executor } from '../../core/db.ts';

export interface AuditFilter {
  action?: string;
  targetType?: string;
  targetId?: string;
  limit: number;
  offset: number;
}

export async function listAudit(db: Executor, f: AuditFilter) {
  let base = db.selectFrom('audit_log');
  if (f.action) base = base.where('action', '=', f.action);
  if (f.targetType) base = base.where('target_type', '=', f.targetType);
  if (f.targetId) base = base.where('target_id', '=', f.targetId);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  // id breaks ties between rows written in the same millisecond (ids grow with insertion).
  const rows = await base.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute();
  return { rows, total: Number(total.n) };
}
