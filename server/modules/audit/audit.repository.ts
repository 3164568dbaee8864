import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import { lastOwnerOfAdSql } from '../reports/reports.repository.ts';

export interface AuditFilter {
  action?: string;
  targetType?: string;
  targetId?: string;
  /** Who acted (a user id). */
  actorId?: string;
  /** ISO instants (toISOString, as the log stores them): `from` inclusive, `to` exclusive. */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

/**
 * Every target type in the log, by skipping through audit_log_target from one type to the next
 * (a seek each: a dozen types among a million rows cost a dozen seeks, where DISTINCT walks them all).
 */
const LOGGED_TARGET_TYPES = sql`WITH RECURSIVE t(type) AS (
    SELECT min(target_type) FROM audit_log
    UNION ALL SELECT (SELECT min(target_type) FROM audit_log WHERE target_type > t.type) FROM t WHERE t.type IS NOT NULL
  ) SELECT type FROM t WHERE type IS NOT NULL`;

export async function listAudit(db: Executor, f: AuditFilter) {
  let base = db.selectFrom('audit_log');
  // With a target, the targets' index finds its few rows and the action only filters them (`+action`
  // keeps SQLite off the actions' index, which would walk every row of that action).
  if (f.action) base = f.targetId ? base.where(sql<boolean>`+action = ${f.action}`) : base.where('action', '=', f.action);
  if (f.targetType) base = base.where('target_type', '=', f.targetType);
  if (f.targetId) base = base.where('target_id', '=', f.targetId);
  // A target id without its type: the log's index of targets leads with the type, so the id alone
  // read the whole log (1.15 M rows: ~215 ms for the count and a page). Naming every type the log
  // holds lets SQLite look the id up under each, one seek a type (~0.06 ms).
  if (f.targetId && !f.targetType) base = base.where(sql<boolean>`target_type IN (${LOGGED_TARGET_TYPES})`);
  // One staff member's actions: audit_log_actor finds them; a range narrows them by audit_log_at.
  if (f.actorId) base = base.where('actor_id', '=', f.actorId);
  if (f.from) base = base.where('at', '>=', f.from);
  if (f.to) base = base.where('at', '<', f.to);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  // id breaks ties between rows written in the same millisecond (ids grow with insertion).
  const rows = await base.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute();
  return { rows, total: Number(total.n) };
}

/**
 * Whose ad each report names, in one query: the ad live, a copy kept under a legal hold, else (the
 * ad deleted) the owner its last stored version names, as the reports list reads it; null when no
 * ad or nothing of it is left.
 */
export async function reportAdOwners(db: Executor, reportIds: readonly string[]): Promise<Map<string, string | null>> {
  if (!reportIds.length) return new Map();
  const rows = await db
    .selectFrom('reports')
    .leftJoin('ads', 'ads.id', 'reports.ad_id')
    .leftJoin('held_ads', 'held_ads.id', 'reports.ad_id')
    .select(['reports.id', (eb) => eb.fn.coalesce('ads.owner_id', 'held_ads.owner_id', lastOwnerOfAdSql(eb.ref('reports.ad_id'))).as('owner_id')])
    .where('reports.id', 'in', [...reportIds])
    .execute();
  return new Map(rows.map((r) => [r.id, r.owner_id]));
}

/** Whose account each legal hold is on (the held ad's owner for an ad's), in one query. */
export async function holdSubjects(db: Executor, holdIds: readonly string[]): Promise<Map<string, string>> {
  if (!holdIds.length) return new Map();
  const rows = await db
    .selectFrom('legal_holds')
    .select(['id', 'user_id'])
    .where('id', 'in', [...new Set(holdIds)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.user_id]));
}
