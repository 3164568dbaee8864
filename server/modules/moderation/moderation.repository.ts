import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { SearchStatus } from '../../../contract/api/ads.ts';
import { staffMatchAd, type StaffQuery } from './moderation.match.ts';
import type { HoldTarget } from './moderation.tables.ts';

// The moderation module reads every module's tables (ads, users, reports, wallets, invoices,
// sign-ins, audit) and writes only its own: legal_holds, held_ads, held_files, held_identity,
// photo_hashes, duplicate_flags. This file: ads as staff read them, placing and releasing holds,
// duplicate flags. An account's records are in moderation.account.repository.ts, the accounts
// linked to one in moderation.linked.repository.ts.

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

/** The owner of an ad, live or kept. */
export async function ownerOfAd(db: Executor, adId: string): Promise<string | undefined> {
  const r = await sql<{
    owner_id: string;
  }>`SELECT owner_id FROM ads WHERE id = ${adId} UNION ALL SELECT owner_id FROM held_ads WHERE id = ${adId} LIMIT 1`.execute(db);
  return r.rows[0]?.owner_id;
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

// ---- legal holds ----------------------------------------------------------------------------

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
