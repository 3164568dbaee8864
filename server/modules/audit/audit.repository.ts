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

/** Whose ad each report names (the ad live, or a copy kept under a legal hold), in one query; null when no ad or none left. */
export async function reportAdOwners(db: Executor, reportIds: readonly string[]): Promise<Map<string, string | null>> {
  if (!reportIds.length) return new Map();
  const rows = await db
    .selectFrom('reports')
    .leftJoin('ads', 'ads.id', 'reports.ad_id')
    .leftJoin('held_ads', 'held_ads.id', 'reports.ad_id')
    .select(['reports.id', (eb) => eb.fn.coalesce('ads.owner_id', 'held_ads.owner_id').as('owner_id')])
    .where('reports.id', 'in', [...reportIds])
    .execute();
  return new Map(rows.map((r) => [r.id, r.owner_id]));
}
