import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { AdStatus } from './ads.tables.ts';
import { staffMatchAd, type StaffQuery } from '../moderation/moderation.match.ts';

// The ad reads every part of the module shares, and the staff lists. The other concerns have their
// own files; they are re-exported here because the services read the repository as one namespace (repo.*).
export * from './ads.posting.repository.ts';
export * from './ads.lifecycle.repository.ts';
export * from './ads.manage.repository.ts';
export * from './ads.screening.repository.ts';

/**
 * An ad with its state and city names and whether its phone is its owner's verified phone (what
 * every ad JSON needs): one join on the owner's row, no query per ad.
 */
export function selectAds(db: Executor) {
  return (
    db
      .selectFrom('ads')
      .innerJoin('states', 'states.id', 'ads.state_id')
      .innerJoin('cities', 'cities.id', 'ads.city_id')
      .innerJoin('users as ad_owner', 'ad_owner.id', 'ads.owner_id')
      .selectAll('ads')
      .select(['states.name as state_name', 'states.slug as state_slug', 'cities.name as city_name', 'cities.slug as city_slug'])
      .select(sql<number>`(ad_owner.phone_verified_at IS NOT NULL AND ad_owner.phone IS ads.phone)`.as('phone_verified'))
      // Whether the ad's city and state are both enabled: staff close places (my ads says so).
      .select(sql<number>`(cities.enabled = 1 AND states.enabled = 1)`.as('place_open'))
  );
}
export type AdRow = Awaited<ReturnType<ReturnType<typeof selectAds>['executeTakeFirstOrThrow']>>;

/** Staff lists also show who posted the ad. */
export function selectAdsWithOwner(db: Executor) {
  return selectAds(db)
    .innerJoin('users', 'users.id', 'ads.owner_id')
    .select(['users.email as owner_email', 'users.nickname as owner_nickname', 'users.status as owner_status']);
}
export type StaffAdRow = Awaited<ReturnType<ReturnType<typeof selectAdsWithOwner>['executeTakeFirstOrThrow']>>;

export function findAd(db: Executor, id: string) {
  return selectAds(db).where('ads.id', '=', id).executeTakeFirst();
}

/** A page of the user's own ads in these statuses, newest first, and how many there are (of one ad only, with `adId`). */
export async function pageOwnAds(db: Executor, ownerId: string, o: { statuses: readonly AdStatus[]; offset: number; limit: number; adId?: string }) {
  let q = selectAds(db).where('ads.owner_id', '=', ownerId).where('ads.status', 'in', o.statuses);
  let base = db.selectFrom('ads').where('owner_id', '=', ownerId).where('status', 'in', o.statuses);
  if (o.adId !== undefined) {
    q = q.where('ads.id', '=', o.adId);
    base = base.where('id', '=', o.adId);
  }
  const [rows, total] = await Promise.all([
    q.orderBy('ads.created_at', 'desc').orderBy('ads.id').limit(o.limit).offset(o.offset).execute(),
    base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** The columns of a staff search (moderation.match.ts) in selectAdsWithOwner's names. */
export const STAFF_MATCH = {
  id: 'ads.id',
  title: 'ads.title',
  description: 'ads.description',
  phone: 'ads.phone',
  ownerEmail: 'users.email',
  ownerNickname: 'users.nickname',
  ownerPhone: 'users.phone',
  ownerId: 'ads.owner_id',
};

/** The statuses of the approved-ads screen, as migration 0025's partial index ads_staff_published names them. */
const PUBLISHED_STATUSES: readonly AdStatus[] = ['approved', 'disabled', 'expired'];
/** Every status an ad can have (the CHECK constraint of ads.status, migration 0003). */
const AD_STATUSES: readonly AdStatus[] = ['unpaid', 'in_review', 'approved', 'rejected', 'disabled', 'expired'];

/**
 * A page of ads for the staff lists and how many there are. The page's ids are chosen first, from
 * an index alone, and only those 20–100 ads are then read whole with their places and owners
 * (a deep page used to join four tables for every row it skipped). Each read names its index
 * (INDEXED BY): the planner's statistics, when the database has any, may be older than the mix of
 * statuses (the 1M-ad seed analyzes a table where every ad is approved, and then the pending list
 * scanned the million ads), and the choice must not depend on them.
 * - approved screen, no search: one ordered read of ads_staff_published per status, which SQLite
 *   merges and stops after the page (MERGE (UNION ALL), no sort);
 * - review queue: ads_status (a few thousand ads in review), sorted;
 * - approved screen with a search: one pass over the table (NOT INDEXED; reading a million ads in
 *   an index's order costs a random read each), the owner joined to each row.
 * A search matches what staff search does (staffMatchAd): the ad, its owner, its edits waiting or
 * refused and its owner's sign-ins, the last two each one subquery read once per search.
 * The count needs no owner without a search: ads.owner_id is a foreign key, every ad has one.
 */
export async function listForStaff(
  db: Executor,
  o: { statuses: readonly AdStatus[]; order: 'queue' | 'published'; offset: number; limit: number; query?: StaffQuery | null },
) {
  const statuses = [...new Set(o.statuses)].sort();
  if (!statuses.length) return { rows: [], total: 0 };
  const match = o.query ? staffMatchAd(o.query, STAFF_MATCH) : null;
  const inStatuses = sql`ads.status IN (${sql.join(statuses)})`;
  const queueOrder = sql`ads.status = 'unpaid', coalesce(ads.paid_at, ads.created_at), ads.id`;
  const publishedOrder = sql`coalesce(ads.published_at, ads.created_at) DESC, ads.id`;
  let pageIds: RawBuilder<{ id: string }>;
  if (!match && o.order === 'published' && statuses.every((s) => PUBLISHED_STATUSES.includes(s))) {
    const arms = statuses.map(
      (s) => sql`SELECT ads.id AS id, coalesce(ads.published_at, ads.created_at) AS k FROM ads INDEXED BY ads_staff_published
        WHERE ads.status IN ('approved', 'disabled', 'expired') AND ads.status = ${s}`,
    );
    pageIds = sql`SELECT id FROM (${sql.join(arms, sql` UNION ALL `)} ORDER BY k DESC, id LIMIT ${o.limit} OFFSET ${o.offset})`;
  } else {
    const source = match && o.order === 'published' ? sql`ads NOT INDEXED` : sql`ads INDEXED BY ads_status`;
    // CROSS JOIN keeps ads the outer loop: the planner otherwise walks every owner and reads their ads by ads_owner.
    pageIds = sql`SELECT ads.id FROM ${source} CROSS JOIN users WHERE users.id = ads.owner_id AND ${inStatuses}${match ? sql` AND ${match}` : sql``}
      ORDER BY ${o.order === 'queue' ? queueOrder : publishedOrder} LIMIT ${o.limit} OFFSET ${o.offset}`;
  }
  const count = match
    ? sql<{ n: number }>`SELECT count(*) AS n FROM ${o.order === 'published' ? sql`ads NOT INDEXED` : sql`ads INDEXED BY ads_status`} CROSS JOIN users
        WHERE users.id = ads.owner_id AND ${inStatuses} AND ${match}`
    : statuses.includes('approved')
      ? // Most ads are approved: every ad (SQLite counts the smallest index's entries, ~7 ms at 1M) less the few in the other
        // statuses ('' keeps that list from being empty: no ad has it).
        sql<{ n: number }>`SELECT (SELECT count(*) FROM ads) - (SELECT count(*) FROM ads INDEXED BY ads_status WHERE ads.status IN (${sql.join([
          ...AD_STATUSES.filter((s) => !statuses.includes(s)),
          '',
        ])})) AS n`
      : sql<{ n: number }>`SELECT count(*) AS n FROM ads INDEXED BY ads_status WHERE ${inStatuses}`;
  const q = selectAdsWithOwner(db).where('ads.id', 'in', sql<string>`(${pageIds})`);
  const rows = await (o.order === 'queue' ? q.orderBy(queueOrder) : q.orderBy(publishedOrder)).execute();
  const total = await count.execute(db);
  return { rows, total: Number(total.rows[0].n) };
}
