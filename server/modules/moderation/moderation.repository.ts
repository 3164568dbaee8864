import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { SearchStatus } from '../../../contract/api/ads.ts';
import { staffMatchAd, type StaffQuery } from './moderation.match.ts';
import type { HoldTarget } from './moderation.tables.ts';

// The moderation module reads every module's tables (ads, users, reports, wallets, invoices,
// sign-ins, audit) and writes only its own: legal_holds, held_ads, held_files, held_identity,
// photo_hashes, duplicate_flags.

/** An ad as staff search and the user page read it: live (ads) or kept under a hold (held_ads). */
export interface ModAdRow {
  id: string;
  owner_id: string;
  listing_type: string;
  title: string;
  phone: string;
  status: SearchStatus;
  photos_json: string;
  created_at: string;
  published_at: string | null;
  expires_at: string | null;
  rejection_reason: string | null;
  rejection_category: string | null;
  deleted_at: string | null;
  owner_email: string;
  owner_nickname: string;
  owner_status: 'pending' | 'approved' | 'suspended';
  owner_deleted_at: string | null;
  city_name: string | null;
  state_code: string | null;
  held: number;
}

/** Both kinds of ad in one shape: the live ones and the copies kept under a hold. */
const EVERY_AD = sql`(
  SELECT id, owner_id, listing_type, title, description, phone, status, photos_json, created_at, published_at, expires_at,
         rejection_reason, rejection_category, NULL AS deleted_at, city_id, state_id
  FROM ads
  UNION ALL
  SELECT id, owner_id, listing_type, title, description, phone, 'deleted', photos_json, created_at,
         json_extract(row_json, '$.published_at'), json_extract(row_json, '$.expires_at'),
         json_extract(row_json, '$.rejection_reason'), json_extract(row_json, '$.rejection_category'), deleted_at, city_id, state_id
  FROM held_ads
)`;

const HELD_AD = sql<number>`EXISTS (SELECT 1 FROM legal_holds l WHERE l.released_at IS NULL
  AND ((l.target_type = 'ad' AND l.target_id = a.id) OR (l.target_type = 'user' AND l.target_id = a.owner_id)))`;

const AD_COLUMNS = sql`a.id, a.owner_id, a.listing_type, a.title, a.phone, a.status, a.photos_json, a.created_at, a.published_at,
  a.expires_at, a.rejection_reason, a.rejection_category, a.deleted_at, u.email AS owner_email, u.nickname AS owner_nickname,
  u.status AS owner_status, u.deleted_at AS owner_deleted_at, c.name AS city_name, s.code AS state_code, ${HELD_AD} AS held`;

const FROM_ADS = sql`FROM ${EVERY_AD} a JOIN users u ON u.id = a.owner_id
  LEFT JOIN cities c ON c.id = a.city_id LEFT JOIN states s ON s.id = a.state_id`;

const SEARCH_COLUMNS = {
  id: 'a.id',
  title: 'a.title',
  description: 'a.description',
  phone: 'a.phone',
  ownerEmail: 'u.email',
  ownerNickname: 'u.nickname',
  ownerPhone: 'u.phone',
  ownerId: 'a.owner_id',
};

/**
 * Every ad in every status matching the search, newest first. The page's ids are chosen first and
 * only those ads are then read whole: live ads and kept copies are two ordered reads that SQLite
 * merges (MERGE (UNION ALL)), so a page without a search reads ads_created (or ads_status for one
 * status) up to the page and stops, instead of reading and sorting the million rows of the union
 * (10.8 s a page at 1,000,000 ads). A search reads the table once (NOT INDEXED: in an index's order
 * each of a million rows would be a random read) with the owner joined to each row; it also finds
 * an ad by its edits waiting or refused, and by its owner's sign-ins (staffMatchAd). The count
 * adds the two tables' counts; without a search, every ad has its owner (a foreign key), and a
 * kept copy's is asked.
 */
export async function searchAds(db: Executor, o: { query: StaffQuery | null; status?: SearchStatus; offset: number; limit: number }) {
  const match = o.query ? staffMatchAd(o.query, SEARCH_COLUMNS) : null;
  const live = o.status ? sql`a.status = ${o.status}` : sql`1 = 1`;
  const kept = o.status ? sql`'deleted' = ${o.status}` : sql`1 = 1`;
  const liveSource = match
    ? sql`ads AS a NOT INDEXED CROSS JOIN users u ON u.id = a.owner_id`
    : o.status
      ? sql`ads AS a INDEXED BY ads_status`
      : sql`ads AS a INDEXED BY ads_created`;
  const keptSource = sql`held_ads AS a JOIN users u ON u.id = a.owner_id`;
  const liveWhere = match ? sql`${live} AND ${match}` : live;
  const keptWhere = match ? sql`${kept} AND ${match}` : kept;
  const pageIds = sql`SELECT id FROM (
    SELECT a.id AS id, a.created_at AS created_at FROM ${liveSource} WHERE ${liveWhere}
    UNION ALL SELECT a.id, a.created_at FROM ${keptSource} WHERE ${keptWhere}
    ORDER BY created_at DESC, id LIMIT ${o.limit} OFFSET ${o.offset})`;
  const rows = await sql<ModAdRow>`SELECT ${AD_COLUMNS} ${FROM_ADS} WHERE a.id IN (${pageIds}) ORDER BY a.created_at DESC, a.id`.execute(db);
  // Without a condition, SQLite counts the table's rows from its b-tree's page counts (no INDEXED BY, no WHERE).
  const liveCount = match || o.status ? sql`SELECT count(*) FROM ${liveSource} WHERE ${liveWhere}` : sql`SELECT count(*) FROM ads`;
  const total = await sql<{ n: number }>`SELECT (${liveCount}) + (SELECT count(*) FROM ${keptSource} WHERE ${keptWhere}) AS n`.execute(db);
  return { rows: rows.rows, total: Number(total.rows[0].n) };
}

/** Every ad of one account (live and kept), newest first. */
export async function adsOfUser(db: Executor, userId: string, limit: number): Promise<ModAdRow[]> {
  return (await sql<ModAdRow>`SELECT ${AD_COLUMNS} ${FROM_ADS} WHERE a.owner_id = ${userId} ORDER BY a.created_at DESC, a.id LIMIT ${limit}`.execute(db)).rows;
}

/** Some ads by id (live or kept), for the reports screen and the duplicate flags. */
export async function adsById(db: Executor, ids: readonly string[]): Promise<ModAdRow[]> {
  if (!ids.length) return [];
  return (await sql<ModAdRow>`SELECT ${AD_COLUMNS} ${FROM_ADS} WHERE a.id IN (${sql.join([...ids])})`.execute(db)).rows;
}

/** The ids of every ad of an account, live or kept. */
export async function adIdsOfUser(db: Executor, userId: string): Promise<string[]> {
  const r = await sql<{ id: string }>`SELECT id FROM ads WHERE owner_id = ${userId} UNION SELECT id FROM held_ads WHERE owner_id = ${userId}`.execute(db);
  return r.rows.map((x) => x.id);
}

/** The owner of an ad, live or kept. */
export async function ownerOfAd(db: Executor, adId: string): Promise<string | undefined> {
  const r = await sql<{
    owner_id: string;
  }>`SELECT owner_id FROM ads WHERE id = ${adId} UNION ALL SELECT owner_id FROM held_ads WHERE id = ${adId} LIMIT 1`.execute(db);
  return r.rows[0]?.owner_id;
}

export function findUser(db: Executor, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
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

/** The note of a report's latest recorded decision (its report.status audit row), if it had one. */
export async function lastReportNote(db: Executor, reportId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('audit_log')
    .select(sql<string | null>`json_extract(after_json, '$.note')`.as('note'))
    .where('target_type', '=', 'report')
    .where('target_id', '=', reportId)
    .where('action', '=', 'report.status')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.note ?? undefined;
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

/**
 * The accounts linked to this one, as (user_id, reason) rows of a `found` CTE: sharing a phone
 * (duplicate flags, a live ad with one of its ads' phones, or one of their ads with its verified
 * phone) or a near-identical photo (flags); with `ips`, also a network it signed in from
 * successfully: an IPv4 address, or an IPv6 /64 (sign_ins.ip_key), one subscriber's as for every
 * per-IP limit.
 */
const linkedAccountsCte = (userId: string, ips: boolean) => sql`
    WITH mine AS (SELECT id FROM ads WHERE owner_id = ${userId} UNION SELECT id FROM held_ads WHERE owner_id = ${userId}),
    found AS (
      SELECT other_owner_id AS user_id, kind AS reason FROM duplicate_flags WHERE ad_id IN (SELECT id FROM mine)
      UNION SELECT owner_id, 'phone' FROM ads WHERE phone IN (SELECT phone FROM ads WHERE owner_id = ${userId}) AND owner_id != ${userId}
      UNION SELECT owner_id, 'phone' FROM ads
        WHERE phone = (SELECT phone FROM users WHERE id = ${userId} AND phone_verified_at IS NOT NULL) AND owner_id != ${userId}
      ${
        ips
          ? sql`UNION SELECT s2.user_id, 'ip' FROM sign_ins s1 JOIN sign_ins s2 ON s2.ip_key = s1.ip_key AND s2.user_id != s1.user_id AND s2.success = 1
        WHERE s1.user_id = ${userId} AND s1.success = 1`
          : sql``
      }
    )`;

/** Other accounts related to this one (the staff user page): linkedAccountsCte, networks included. */
export async function relatedAccounts(db: Executor, userId: string, limit: number) {
  const r = await sql<{ id: string; email: string; nickname: string; reason: 'phone' | 'photo' | 'ip' }>`
    ${linkedAccountsCte(userId, true)}
    SELECT u.id, u.email, u.nickname, f.reason FROM found f JOIN users u ON u.id = f.user_id WHERE u.id != ${userId}
    ORDER BY u.email LIMIT ${limit * 3}`.execute(db);
  const byUser = new Map<string, { id: string; email: string; nickname: string; reasons: ('phone' | 'photo' | 'ip')[] }>();
  for (const row of r.rows) {
    const u = byUser.get(row.id) ?? { id: row.id, email: row.email, nickname: row.nickname, reasons: [] };
    if (!u.reasons.includes(row.reason)) u.reasons.push(row.reason);
    byUser.set(row.id, u);
  }
  return [...byUser.values()].slice(0, limit).map((u) => ({ ...u, reasons: (['phone', 'photo', 'ip'] as const).filter((x) => u.reasons.includes(x)) }));
}

/**
 * The accounts the product links to this one by a phone or a photo (linkedAccountsCte), for the
 * conflict-of-interest rule: staff review no ad of such an account (ads.review.service.ts), as they
 * review none of their own. Not by network: staff share an office's or a VPN's address with
 * providers who have nothing to do with them, and that alone must not stop their work.
 */
export async function accountsLinkedTo(db: Executor, userId: string): Promise<Set<string>> {
  const r = await sql<{ user_id: string }>`
    ${linkedAccountsCte(userId, false)}
    SELECT DISTINCT user_id FROM found WHERE user_id != ${userId}`.execute(db);
  return new Set(r.rows.map((x) => x.user_id));
}

// ---- legal holds ----------------------------------------------------------------------------

export type HoldRow = Awaited<ReturnType<typeof holdsOfUser>>[number];

export function holdsOfUser(db: Executor, userId: string) {
  return db.selectFrom('legal_holds').selectAll().where('user_id', '=', userId).orderBy('placed_at', 'desc').orderBy('id').execute();
}

/** Holds, newest first; `exceptUserId` leaves out those on that account (or its ads). */
export async function listHolds(db: Executor, o: { active?: boolean; exceptUserId?: string; offset: number; limit: number }) {
  let q = db.selectFrom('legal_holds');
  if (o.exceptUserId !== undefined) q = q.where('user_id', '!=', o.exceptUserId);
  if (o.active === true) q = q.where('released_at', 'is', null);
  if (o.active === false) q = q.where('released_at', 'is not', null);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('placed_at', 'desc').orderBy('id').limit(o.limit).offset(o.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function insertHold(
  db: Executor,
  h: { id: string; targetType: HoldTarget; targetId: string; userId: string; reason: string; by: { id: string; email: string }; at: string },
) {
  await db
    .insertInto('legal_holds')
    .values({
      id: h.id,
      target_type: h.targetType,
      target_id: h.targetId,
      user_id: h.userId,
      reason: h.reason,
      placed_by: h.by.id,
      placed_by_email: h.by.email,
      placed_at: h.at,
    })
    .execute();
  return db.selectFrom('legal_holds').selectAll().where('id', '=', h.id).executeTakeFirstOrThrow();
}

export function activeHoldsOn(db: Executor, targetType: HoldTarget, targetId: string) {
  return db
    .selectFrom('legal_holds')
    .selectAll()
    .where('target_type', '=', targetType)
    .where('target_id', '=', targetId)
    .where('released_at', 'is', null)
    .execute();
}

export async function releaseHolds(db: Executor, ids: readonly string[], by: { id: string; email: string }, note: string, at: string): Promise<void> {
  await db
    .updateTable('legal_holds')
    .set({ released_at: at, released_by: by.email, released_by_id: by.id, release_note: note })
    .where('id', 'in', [...ids])
    .where('released_at', 'is', null)
    .execute();
}

// ---- duplicate flags ------------------------------------------------------------------------

export function flagsOf(db: Executor, adIds: readonly string[]) {
  return db
    .selectFrom('duplicate_flags')
    .innerJoin('users', 'users.id', 'duplicate_flags.other_owner_id')
    .select([
      'duplicate_flags.ad_id',
      'duplicate_flags.other_ad_id',
      'duplicate_flags.kind',
      'duplicate_flags.distance',
      'users.id as other_owner_id',
      'users.email as other_owner_email',
      'users.nickname as other_owner_nickname',
    ])
    .where('duplicate_flags.ad_id', 'in', [...adIds])
    .orderBy('duplicate_flags.ad_id')
    .orderBy('duplicate_flags.kind')
    .orderBy('duplicate_flags.other_ad_id')
    .execute();
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
