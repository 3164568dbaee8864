import { sql } from 'kysely';
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
 * Who owns or owned the ad a report names: its owner, live or kept (a legal hold), else, once it
 * is deleted, the owner its last version names (ad_versions outlive the ad until the account is
 * erased). A staff member who deletes their own reported ad stays its owner for the report.
 */
export async function ownerOfReportedAd(db: Executor, adId: string): Promise<string | null> {
  const r = await sql<{ owner_id: string }>`
    SELECT owner_id FROM (
      SELECT owner_id, 0 AS rank FROM ads WHERE id = ${adId}
      UNION ALL SELECT owner_id, 1 FROM held_ads WHERE id = ${adId}
      UNION ALL SELECT owner_id, 2 FROM (SELECT owner_id FROM ad_versions WHERE ad_id = ${adId} ORDER BY id DESC LIMIT 1)
    ) ORDER BY rank LIMIT 1`.execute(db);
  return r.rows[0]?.owner_id ?? null;
}
