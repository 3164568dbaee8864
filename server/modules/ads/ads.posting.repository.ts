import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { AdContentWrite } from './ads.manage.repository.ts';

// Posting an ad: the daily post limit, its place, and the unpaid ad in the cart until it is paid
// (then in review) or deleted or purged as abandoned.

/**
 * Logs one post unless the user already has `max` since `since`; false when over the limit. One
 * statement, so the count and the insert cannot be split by another writer, even in another
 * process. Rows older than the window are pruned first: the log only ever holds one day per user.
 */
export async function logPostWithinLimit(
  db: Executor,
  p: { userId: string; adId: string; at: string; since: string; max: number; requestKey: string | null },
): Promise<boolean> {
  await db.deleteFrom('ad_post_log').where('user_id', '=', p.userId).where('posted_at', '<=', p.since).execute();
  // Tries of one request (its key) count once, and a try of a request that holds a place already
  // shares it: the one that stores the ad keeps its row, the others give theirs back (unlogPost).
  const r = await sql`
    INSERT INTO ad_post_log (user_id, ad_id, posted_at, request_key)
    SELECT ${p.userId}, ${p.adId}, ${p.at}, ${p.requestKey}
    WHERE (SELECT count(DISTINCT coalesce(request_key, ad_id)) FROM ad_post_log WHERE user_id = ${p.userId} AND posted_at > ${p.since}) < ${p.max}
       OR EXISTS (SELECT 1 FROM ad_post_log WHERE user_id = ${p.userId} AND posted_at > ${p.since} AND request_key = ${p.requestKey})`.execute(db);
  return Number(r.numAffectedRows) === 1;
}

/**
 * A post the screening refused keeps its row (refusals count, PRODUCT §11) but shares it with no
 * later try of its key: each try is new text for screening_log, so each takes a place of its own.
 */
export async function unsharePost(db: Executor, userId: string, adId: string): Promise<void> {
  await db.updateTable('ad_post_log').set({ request_key: null }).where('user_id', '=', userId).where('ad_id', '=', adId).execute();
}

/** Gives back the post-log row of a post that failed after taking it (logPostWithinLimit): only stored ads count. */
export async function unlogPost(db: Executor, userId: string, adId: string): Promise<void> {
  await db.deleteFrom('ad_post_log').where('user_id', '=', userId).where('ad_id', '=', adId).execute();
}

export function findPlace(db: Executor, stateId: string, cityId: string) {
  return db
    .selectFrom('cities')
    .innerJoin('states', 'states.id', 'cities.state_id')
    .select(['cities.id as city_id', 'cities.enabled as city_enabled', 'states.id as state_id', 'states.enabled as state_enabled'])
    .where('cities.id', '=', cityId)
    .where('states.id', '=', stateId)
    .executeTakeFirst();
}

export async function insertAd(
  db: Executor,
  a: Omit<AdContentWrite, 'details'> & { id: string; ownerId: string; details?: AdContentWrite['details']; at: string },
): Promise<void> {
  await db
    .insertInto('ads')
    .values({
      ...(a.details
        ? { rates_json: a.details.ratesJson, incall: a.details.incall, outcall: a.details.outcall, availability_json: a.details.availabilityJson }
        : {}),
      id: a.id,
      owner_id: a.ownerId,
      listing_type: a.listingType,
      title: a.title,
      description: a.description,
      age: a.age,
      state_id: a.stateId,
      city_id: a.cityId,
      phone: a.phone,
      photos_json: a.photosJson,
      created_at: a.at,
      updated_at: a.at,
    })
    .execute();
}

export async function deleteUnpaidAd(db: Executor, ownerId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('ads').where('id', '=', id).where('owner_id', '=', ownerId).where('status', '=', 'unpaid').executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/**
 * Up to `limit` unpaid ads posted and last changed before `before`, the oldest first (the
 * purge of abandoned carts). Read by ads_status (status, created_at), named so that old planner
 * statistics cannot send it through a million approved ads; updated_at is never before created_at,
 * so the index's range on created_at holds every answer.
 */
export async function staleUnpaidAds(db: Executor, before: string, limit: number): Promise<string[]> {
  const r = await sql<{ id: string }>`SELECT id FROM ads INDEXED BY ads_status
    WHERE status = 'unpaid' AND created_at < ${before} AND updated_at < ${before}
    ORDER BY created_at LIMIT ${limit}`.execute(db);
  return r.rows.map((row) => row.id);
}

/** The ad, while it is unpaid and was posted and last changed before `before`. */
export function findStaleUnpaidAd(db: Executor, id: string, before: string) {
  return db
    .selectFrom('ads')
    .select(['id', 'owner_id', 'photos_json'])
    .where('id', '=', id)
    .where('status', '=', 'unpaid')
    .where('created_at', '<', before)
    .where('updated_at', '<', before)
    .executeTakeFirst();
}

/** unpaid → in_review, recording what was paid and from where; false when the ad was not unpaid. */
export async function markPaid(db: Executor, id: string, p: { priceCents: number; durationDays: number; walletId: string; at: string }): Promise<boolean> {
  const r = await db
    .updateTable('ads')
    .set({ status: 'in_review', price_cents: p.priceCents, duration_days: p.durationDays, paid_wallet_id: p.walletId, paid_at: p.at, updated_at: p.at })
    .where('id', '=', id)
    .where('status', '=', 'unpaid')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
