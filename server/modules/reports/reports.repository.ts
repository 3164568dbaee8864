import { sql, type Expression } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { ReportKind, ReportStatus } from './reports.tables.ts';

export interface ReportRow {
  id: string;
  kind: ReportKind;
  ad_id: string | null;
  message: string;
  contact: string | null;
  status: ReportStatus;
  ip_hash: string | null;
  created_at: string;
}

export async function insertReport(db: Executor, row: Omit<ReportRow, 'status'>): Promise<ReportRow> {
  await db.insertInto('reports').values(row).execute();
  return { ...row, status: 'open' };
}

/** The open report with exactly these fields, if any (a repeat of it is not filed again); found through the reports_ad index. */
export async function findOpenTwin(
  db: Executor,
  r: Pick<ReportRow, 'kind' | 'message' | 'contact'> & { ad_id: string; ip_hash: string },
): Promise<ReportRow | undefined> {
  return db
    .selectFrom('reports')
    .selectAll()
    .where('ad_id', '=', r.ad_id)
    .where('status', '=', 'open')
    .where('ip_hash', '=', r.ip_hash)
    .where('kind', '=', r.kind)
    .where('message', '=', r.message)
    .where('contact', 'is', r.contact) // IS: a null contact matches a null one
    .orderBy('created_at')
    .executeTakeFirst() as Promise<ReportRow | undefined>;
}

export async function findReport(db: Executor, id: string): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst() as Promise<ReportRow | undefined>;
}

export async function updateReportStatus(db: Executor, id: string, status: ReportStatus): Promise<void> {
  await db.updateTable('reports').set({ status }).where('id', '=', id).execute();
}

export interface ReportFilter {
  status?: ReportStatus;
  kind?: ReportKind;
  offset: number;
  limit: number;
}

/** Open urgent reports (trafficking, law enforcement) first, then newest first; open and closed alike unless filtered. */
export async function listReports(db: Executor, f: ReportFilter): Promise<{ rows: ReportRow[]; total: number }> {
  let q = db.selectFrom('reports');
  if (f.status) q = q.where('status', '=', f.status);
  if (f.kind) q = q.where('kind', '=', f.kind);
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy(sql`(status = 'open' AND kind IN ('trafficking', 'law_enforcement'))`, 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as ReportRow[], total: Number(count.n) };
}

/**
 * The owner the last stored version of an ad names (ad_versions outlive a deleted ad until its
 * account is erased), as a subquery on an ad id (a value, or a column of an outer query: the audit
 * log asks it of many reports at once).
 */
export const lastOwnerOfAdSql = (adId: Expression<string | null> | string) =>
  sql<string | null>`(SELECT owner_id FROM ad_versions WHERE ad_id = ${adId} ORDER BY id DESC LIMIT 1)`;

/** The owner the last stored version of an ad names (lastOwnerOfAdSql). */
export async function lastOwnerOfAd(db: Executor, adId: string): Promise<string | null> {
  const r = await sql<{ owner_id: string | null }>`SELECT ${lastOwnerOfAdSql(adId)} AS owner_id`.execute(db);
  return r.rows[0]?.owner_id ?? null;
}
