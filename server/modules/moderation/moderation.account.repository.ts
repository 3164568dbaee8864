import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';

// An account's records as staff read them: the user page's lists (moderation.user.ts) and the
// evidence file (moderation.export.ts), which reads every row of each.

export function findUser(db: Executor, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The ids of every ad of an account, live or kept. */
export async function adIdsOfUser(db: Executor, userId: string): Promise<string[]> {
  const r = await sql<{ id: string }>`SELECT id FROM ads WHERE owner_id = ${userId} UNION SELECT id FROM held_ads WHERE owner_id = ${userId}`.execute(db);
  return r.rows.map((x) => x.id);
}

export async function rolesOf(db: Executor, userId: string) {
  return (await db.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute()).map((r) => r.role);
}

export function walletsOf(db: Executor, userId: string) {
  return db.selectFrom('wallets').select(['id', 'wallet_type', 'balance_cents', 'created_at']).where('user_id', '=', userId).orderBy('created_at').execute();
}

export function ledgerOf(db: Executor, userId: string, limit: number) {
  return db
    .selectFrom('ledger_entries')
    .innerJoin('wallets', 'wallets.id', 'ledger_entries.wallet_id')
    .select([
      'ledger_entries.id',
      'ledger_entries.wallet_id',
      'wallets.wallet_type',
      'ledger_entries.amount_cents',
      'ledger_entries.kind',
      'ledger_entries.reference',
      'ledger_entries.idempotency_key',
      'ledger_entries.created_at',
    ])
    .where('wallets.user_id', '=', userId)
    .orderBy('ledger_entries.id', 'desc')
    .limit(limit)
    .execute();
}

export function invoicesOf(db: Executor, userId: string, limit: number) {
  return db
    .selectFrom('invoices')
    .select(['id', 'btcpay_id', 'provider', 'wallet_id', 'amount_cents', 'status', 'additional_status', 'created_at', 'expires_at', 'credited_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

export function signInsOf(db: Executor, userId: string, limit: number) {
  return db
    .selectFrom('sign_ins')
    .select(['at', 'ip', 'user_agent', 'success', 'failure'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Reports about these ads, newest first. */
export async function reportsAbout(db: Executor, adIds: readonly string[], limit: number) {
  if (!adIds.length) return [];
  return db
    .selectFrom('reports')
    .selectAll()
    .where('ad_id', 'in', [...adIds])
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * The ids of every ad the account ever had: live, kept, and deleted ones, known by their edits and
 * stored versions (no foreign key: kept when the ad is deleted, as eraseFromAudit reads them); a
 * subquery, each part read through its owner index, however many ads the account had.
 */
function everAdIdsOf(userId: string) {
  return sql<string>`(SELECT id FROM ads WHERE owner_id = ${userId}
    UNION SELECT id FROM held_ads WHERE owner_id = ${userId}
    UNION SELECT ad_id FROM ad_revisions WHERE owner_id = ${userId}
    UNION SELECT ad_id FROM ad_versions WHERE owner_id = ${userId})`;
}

/** The ids of every ad the account ever had (everAdIdsOf): the reports about them stay its history. */
export async function everAdIdsOfUser(db: Executor, userId: string): Promise<string[]> {
  const r = await sql<{ id: string }>`SELECT id FROM ${everAdIdsOf(userId)}`.execute(db);
  return r.rows.map((x) => x.id);
}

/**
 * Staff actions on the account, on its ads and on its invoices, newest first. An ad its owner
 * deleted counts: a takedown stays part of the account's history (a repeat offender's).
 */
export async function auditAbout(db: Executor, userId: string, limit: number) {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('target_type', '=', 'user'), eb('target_id', '=', userId)]),
        // Simulated payments and credits that went back on: invoice rows name BTCPay's invoice id
        // (the one staff see and webhooks carry), not our order id.
        eb.and([
          eb('target_type', '=', 'invoice'),
          eb(
            'target_id',
            'in',
            eb.selectFrom('invoices').select('invoices.btcpay_id').where('invoices.user_id', '=', userId).where('invoices.btcpay_id', 'is not', null),
          ),
        ]),
        eb.and([eb('target_type', '=', 'ad'), eb('target_id', 'in', everAdIdsOf(userId))]),
        // How staff handled the reports about those ads (a closing note is kept only here).
        eb.and([
          eb('target_type', '=', 'report'),
          eb('target_id', 'in', eb.selectFrom('reports').select('reports.id').where('reports.ad_id', 'in', everAdIdsOf(userId))),
        ]),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function screeningOf(db: Executor, userId: string, limit: number) {
  return db
    .selectFrom('screening_log')
    .leftJoin('users', 'users.id', 'screening_log.user_id')
    .selectAll('screening_log')
    .select('users.email as user_email')
    .where('screening_log.user_id', '=', userId)
    .orderBy('screening_log.id', 'desc')
    .limit(limit)
    .execute();
}

// ---- legal holds ----------------------------------------------------------------------------

export type HoldRow = Awaited<ReturnType<typeof holdsOfUser>>[number];

export function holdsOfUser(db: Executor, userId: string) {
  return db.selectFrom('legal_holds').selectAll().where('user_id', '=', userId).orderBy('placed_at', 'desc').orderBy('id').execute();
}

// ---- evidence --------------------------------------------------------------------------------

/** Every stored version (ad_versions) and every edit (ad_revisions, whatever became of it) of these ads, oldest first. */
export async function adHistory(db: Executor, ids: readonly string[]) {
  if (!ids.length) return { versions: [], revisions: [] };
  const versions = await db
    .selectFrom('ad_versions')
    .selectAll()
    .where('ad_id', 'in', [...ids])
    .orderBy('id')
    .execute();
  const revisions = await db
    .selectFrom('ad_revisions')
    .selectAll()
    .where('ad_id', 'in', [...ids])
    .orderBy('created_at')
    .orderBy(sql`rowid`) // made in the same millisecond: in the order they were made (ids are random)
    .execute();
  return { versions, revisions };
}

/** The rows of ads as they are (every column), live ones and kept copies, for the evidence file. */
export async function adRecords(db: Executor, ids: readonly string[]) {
  if (!ids.length) return { live: [], held: [] };
  const live = await db
    .selectFrom('ads')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  const held = await db
    .selectFrom('held_ads')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  return { live, held };
}

/** A held account's changes of e-mail and nickname (held_identity), oldest first. */
export function identityHistoryOf(db: Executor, userId: string) {
  return db.selectFrom('held_identity').select(['field', 'old_value', 'new_value', 'changed_at']).where('user_id', '=', userId).orderBy('id').execute();
}

/** The files a hold kept for the account (held_files: its replaced pictures), oldest first. */
export function heldFilesOf(db: Executor, userId: string) {
  return db.selectFrom('held_files').select(['path', 'created_at']).where('user_id', '=', userId).orderBy('created_at').orderBy('path').execute();
}

export function screeningLogOf(db: Executor, userId: string) {
  return db.selectFrom('screening_log').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export function flagsAbout(db: Executor, adIds: readonly string[]) {
  if (!adIds.length) return Promise.resolve([]);
  return db
    .selectFrom('duplicate_flags')
    .selectAll()
    .where('ad_id', 'in', [...adIds])
    .orderBy('ad_id')
    .execute();
}
