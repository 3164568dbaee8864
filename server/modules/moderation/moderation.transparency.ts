import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { Transparency, TransparencyMonth } from '../../../contract/api/moderation.ts';

/** The transparency report covers this many calendar months, the current one included. */
export const TRANSPARENCY_MONTHS = 12;

const CATEGORIES = ['underage_suspected', 'trafficking_suspected', 'prohibited_content', 'spam', 'misleading', 'other', 'uncategorized'] as const;
type Category = (typeof CATEGORIES)[number];

/** The first instant of the month `back` months before the month of `now` (UTC), and its key. */
function monthStart(now: Date, back: number): { key: string; iso: string } {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  return { key: d.toISOString().slice(0, 7), iso: d.toISOString() };
}

function emptyMonth(month: string): TransparencyMonth {
  return {
    month,
    adsReviewed: 0,
    adsApproved: 0,
    adsRejected: 0,
    rejectedByCategory: Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>,
    adsDisabled: 0,
    adsDisabledAfterReport: 0,
    reportsByKind: { ad: 0, trafficking: 0 },
    lawEnforcementRequests: 0,
    accountsSuspended: 0,
  };
}

/**
 * What we remove, per month, computed from the records themselves (counts only, no personal data):
 * - reviewed, approved, rejected: staff decisions in the audit log (ad.approve, ad.reject), a
 *   rejection by the category it was given (older rejections: uncategorized);
 * - disabled: distinct ads staff disabled (ad.disable); after a report: of those, ads someone
 *   reported before the moment they were disabled;
 * - reports received: ad reports and trafficking tips; law-enforcement requests on their own;
 * - accounts suspended: distinct accounts a master set to suspended (user.status).
 * Newest month first.
 */
export async function computeTransparency(db: Executor, now: Date): Promise<Transparency> {
  const months = Array.from({ length: TRANSPARENCY_MONTHS }, (_, i) => monthStart(now, i));
  const since = months[months.length - 1].iso;
  const byMonth = new Map(months.map((m) => [m.key, emptyMonth(m.key)]));
  const month = (key: string) => byMonth.get(key);

  const decisions = await sql<{ m: string; action: string; category: string | null; n: number }>`
    SELECT substr(at, 1, 7) AS m, action, json_extract(after_json, '$.category') AS category, count(*) AS n
    FROM audit_log WHERE at >= ${since} AND action IN ('ad.approve', 'ad.reject')
    GROUP BY m, action, category`.execute(db);
  for (const r of decisions.rows) {
    const row = month(r.m);
    if (!row) continue;
    const n = Number(r.n);
    if (r.action === 'ad.approve') row.adsApproved += n;
    else {
      row.adsRejected += n;
      const c = (CATEGORIES as readonly string[]).includes(r.category ?? '') ? (r.category as Category) : 'uncategorized';
      row.rejectedByCategory[c] += n;
    }
    row.adsReviewed += n;
  }

  const disabled = await sql<{ m: string; n: number; reported: number }>`
    SELECT substr(a.at, 1, 7) AS m, count(DISTINCT a.target_id) AS n,
      count(DISTINCT CASE WHEN EXISTS (SELECT 1 FROM reports r WHERE r.ad_id = a.target_id AND r.created_at <= a.at) THEN a.target_id END) AS reported
    FROM audit_log a WHERE a.at >= ${since} AND a.action = 'ad.disable'
    GROUP BY m`.execute(db);
  for (const r of disabled.rows) {
    const row = month(r.m);
    if (!row) continue;
    row.adsDisabled = Number(r.n);
    row.adsDisabledAfterReport = Number(r.reported);
  }

  const reports = await sql<{ m: string; kind: string; n: number }>`
    SELECT substr(created_at, 1, 7) AS m, kind, count(*) AS n FROM reports
    WHERE created_at >= ${since} AND kind IN ('ad', 'trafficking', 'law_enforcement')
    GROUP BY m, kind`.execute(db);
  for (const r of reports.rows) {
    const row = month(r.m);
    if (!row) continue;
    if (r.kind === 'law_enforcement') row.lawEnforcementRequests = Number(r.n);
    else row.reportsByKind[r.kind as 'ad' | 'trafficking'] = Number(r.n);
  }

  const suspended = await sql<{ m: string; n: number }>`
    SELECT substr(at, 1, 7) AS m, count(DISTINCT target_id) AS n FROM audit_log
    WHERE at >= ${since} AND action = 'user.status' AND json_extract(after_json, '$.status') = 'suspended'
      AND json_extract(before_json, '$.status') IS NOT 'suspended'
    GROUP BY m`.execute(db);
  for (const r of suspended.rows) {
    const row = month(r.m);
    if (row) row.accountsSuspended = Number(r.n);
  }

  return { generatedAt: now.toISOString(), months: [...byMonth.values()] };
}

/** What the figures are computed from, cheaply: they change only when one of these moves (or the month turns). */
export async function transparencyVersion(db: Executor, now: Date): Promise<string> {
  const r = await sql<{ audit: number | null; reports: number | null }>`
    SELECT (SELECT max(id) FROM audit_log) AS audit, (SELECT max(rowid) FROM reports) AS reports`.execute(db);
  return `${now.toISOString().slice(0, 7)}:${r.rows[0].audit ?? 0}:${r.rows[0].reports ?? 0}`;
}
