import { sql } from 'kysely';
import type Database from 'better-sqlite3';
import type { Executor } from '../../core/db.ts';
import type { HealthStatus } from '../../../contract/api/health.ts';
import { countPending as countPendingEdits } from '../ads/ads.revisions.ts';
import type { MailLocale } from '../../core/mail-templates.ts';

export interface NewCheckRow {
  name: string;
  status: HealthStatus;
  message: string;
  says_json: string | null;
  duration_ms: number;
  checked_at: string;
}

export async function insertChecks(db: Executor, rows: NewCheckRow[]) {
  return db.insertInto('health_checks').values(rows).returningAll().execute();
}

/** The latest result of each check (one row per name). */
export function latestByName(db: Executor, names?: readonly string[]) {
  let newest = db
    .selectFrom('health_checks')
    .select(sql<number>`max(id)`.as('id'))
    .groupBy('name');
  if (names) newest = newest.where('name', 'in', names);
  return db.selectFrom('health_checks').selectAll().where('id', 'in', newest).execute();
}

export async function listChecks(db: Executor, o: { name?: string; offset: number; limit: number }) {
  let base = db.selectFrom('health_checks');
  if (o.name) base = base.where('name', '=', o.name);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(o.limit).offset(o.offset).execute(),
    base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export function findCheck(db: Executor, id: number) {
  return db.selectFrom('health_checks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteCheck(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('health_checks').where('id', '=', id).execute();
}

/** Deletes results checked before `before`; how many. */
export async function purgeChecks(db: Executor, before: string): Promise<number> {
  const r = await db.deleteFrom('health_checks').where('checked_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Where failing checks are mailed: every approved admin and master, with the language each last used. */
export async function staffEmails(db: Executor): Promise<{ email: string; locale: MailLocale }[]> {
  const rows = await db
    .selectFrom('users')
    .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
    .select(['users.email', 'users.locale'])
    .distinct()
    .where('user_roles.role', 'in', ['ADMIN_USER', 'MASTER_USER'])
    .where('users.status', '=', 'approved')
    .where('users.deleted_at', 'is', null)
    .orderBy('users.email')
    .execute();
  return rows;
}

/**
 * An address staff e-mails go to (STAFF_EMAIL), with its language: that of the account with the
 * address, if one has it, else English.
 */
export async function staffAddress(db: Executor, email: string): Promise<{ email: string; locale: MailLocale }> {
  const r = await db.selectFrom('users').select('locale').where('email', '=', email).where('deleted_at', 'is', null).executeTakeFirst();
  return { email, locale: r?.locale ?? 'en' };
}

/** The admin overview's counts (reads of the ads and reports modules' tables, by their indexes). */
export async function overviewCounts(db: Executor) {
  const count = (table: 'ads' | 'reports', status: string) =>
    db
      .selectFrom(table)
      .select(sql<number>`count(*)`.as('n'))
      .where('status', '=', status as never)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  const [inReview, edits, openReports, failing] = await Promise.all([
    count('ads', 'in_review'),
    countPendingEdits(db), // edits of live ads wait in the same review queue (ads.review.service.ts pending)
    count('reports', 'open'),
    latestByName(db).then((rows) => rows.filter((r) => r.status === 'failing').length),
  ]);
  return { pendingAds: inReview + edits, openReports, failingChecks: failing };
}

/**
 * Whether the latest database or disk result is failing, read on the read-only connection (no wait
 * behind a write transaction). Throws when the database cannot be read at all.
 */
export function coreCheckFailing(reader: Database.Database): boolean {
  const row = reader
    .prepare(
      `SELECT count(*) AS n FROM health_checks
       WHERE id IN (SELECT max(id) FROM health_checks WHERE name IN ('database', 'disk') GROUP BY name) AND status = 'failing'`,
    )
    .get() as { n: number };
  return row.n > 0;
}

/**
 * Claims the alert e-mail of each failing check for one sender (`claim`): a check with no row, or
 * whose claim was taken at or before `staleBefore` and never sent (its sender died on the way).
 * The names this sender won: of two processes claiming at once, one wins each name.
 */
export async function claimAlerts(db: Executor, names: readonly string[], claim: string, at: string, staleBefore: string): Promise<string[]> {
  if (!names.length) return [];
  const rows = await db
    .insertInto('health_alerts')
    .values(names.map((name) => ({ name, claim, claimed_at: at, alerted_at: null })))
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ claim, claimed_at: at })
        .where('health_alerts.alerted_at', 'is', null)
        .where('health_alerts.claimed_at', '<=', staleBefore),
    )
    .returning('name')
    .execute();
  return rows.map((r) => r.name);
}

/** Records that staff were told about these checks, on the rows `claim` still holds. */
export async function markAlerted(db: Executor, claim: string, names: readonly string[], at: string): Promise<void> {
  if (!names.length) return;
  await db.updateTable('health_alerts').set({ alerted_at: at }).where('claim', '=', claim).where('name', 'in', names).where('alerted_at', 'is', null).execute();
}

/** Gives up the claim on these checks (their e-mail could not be sent): a later run claims them again. */
export async function releaseAlerts(db: Executor, claim: string, names: readonly string[]): Promise<void> {
  if (!names.length) return;
  await db.deleteFrom('health_alerts').where('claim', '=', claim).where('name', 'in', names).where('alerted_at', 'is', null).execute();
}

/** Forgets the alerts of checks that are ok again: their next failure is mailed. */
export async function clearAlerts(db: Executor, names: readonly string[]): Promise<void> {
  if (!names.length) return;
  await db.deleteFrom('health_alerts').where('name', 'in', names).execute();
}

/** The checks staff were told about, read on the read-only connection (answers while the writer is locked). */
export function alertedNames(reader: Database.Database): string[] {
  return (reader.prepare('SELECT name FROM health_alerts WHERE alerted_at IS NOT NULL').all() as { name: string }[]).map((r) => r.name);
}
