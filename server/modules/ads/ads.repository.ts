import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { AdStatus, ListingType } from './ads.tables.ts';

/** An ad with its state and city names (what every ad JSON needs). */
export function selectAds(db: Executor) {
  return db
    .selectFrom('ads')
    .innerJoin('states', 'states.id', 'ads.state_id')
    .innerJoin('cities', 'cities.id', 'ads.city_id')
    .selectAll('ads')
    .select(['states.name as state_name', 'states.slug as state_slug', 'cities.name as city_name', 'cities.slug as city_slug']);
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

/** The user's own ads in these statuses, newest first. */
export function listOwnAds(db: Executor, ownerId: string, statuses: readonly AdStatus[]) {
  return selectAds(db).where('ads.owner_id', '=', ownerId).where('ads.status', 'in', statuses).orderBy('ads.created_at', 'desc').orderBy('ads.id').execute();
}

/** Ads the user posted since `since` (deleted ones included): the post log, not the ads table. */
export async function countPostsSince(db: Executor, userId: string, since: string): Promise<number> {
  const r = await db
    .selectFrom('ad_post_log')
    .select(sql<number>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('posted_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Logs one post unless the user already has `max` since `since`; false when over the limit. One
 * statement, so the count and the insert cannot be split by another writer, even in another
 * process. Rows older than the window are pruned first: the log only ever holds one day per user.
 */
export async function logPostWithinLimit(db: Executor, p: { userId: string; adId: string; at: string; since: string; max: number }): Promise<boolean> {
  await db.deleteFrom('ad_post_log').where('user_id', '=', p.userId).where('posted_at', '<=', p.since).execute();
  const r = await sql`
    INSERT INTO ad_post_log (user_id, ad_id, posted_at)
    SELECT ${p.userId}, ${p.adId}, ${p.at}
    WHERE (SELECT count(*) FROM ad_post_log WHERE user_id = ${p.userId} AND posted_at > ${p.since}) < ${p.max}`.execute(db);
  return Number(r.numAffectedRows) === 1;
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
  a: {
    id: string;
    ownerId: string;
    listingType: ListingType;
    title: string;
    description: string;
    age: string;
    stateId: string;
    cityId: string;
    phone: string;
    photosJson: string;
    at: string;
  },
): Promise<void> {
  await db
    .insertInto('ads')
    .values({
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

const nextBumpSeq = sql<number>`(SELECT coalesce(max(bump_seq), 0) + 1 FROM ads)`;

/** in_review → approved: published and bumped now, expiring after the paid duration. */
export async function approve(db: Executor, id: string, at: string, expiresAt: string): Promise<boolean> {
  const r = await db
    .updateTable('ads')
    .set({ status: 'approved', published_at: at, bumped_at: at, bump_seq: nextBumpSeq, expires_at: expiresAt, rejection_reason: null, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'in_review')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function reject(db: Executor, id: string, reason: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('ads')
    .set({ status: 'rejected', rejection_reason: reason, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'in_review')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function bump(db: Executor, id: string, at: string): Promise<void> {
  await db.updateTable('ads').set({ bumped_at: at, bump_seq: nextBumpSeq, updated_at: at }).where('id', '=', id).execute();
}

export async function setOnline(db: Executor, id: string, online: boolean, at: string): Promise<void> {
  await db
    .updateTable('ads')
    .set({ online: online ? 1 : 0, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function setLocation(db: Executor, id: string, stateId: string, cityId: string, at: string): Promise<void> {
  await db.updateTable('ads').set({ state_id: stateId, city_id: cityId, updated_at: at }).where('id', '=', id).execute();
}

/** Staff disable (approved → disabled) or enable (disabled → approved, or expired when its time ran out). */
export async function setStaffStatus(db: Executor, id: string, status: 'approved' | 'disabled', at: string): Promise<boolean> {
  const r =
    status === 'disabled'
      ? await db.updateTable('ads').set({ status: 'disabled', updated_at: at }).where('id', '=', id).where('status', '=', 'approved').executeTakeFirst()
      : await db
          .updateTable('ads')
          .set({ status: sql<AdStatus>`CASE WHEN expires_at <= ${at} THEN 'expired' ELSE 'approved' END`, updated_at: at })
          .where('id', '=', id)
          .where('status', '=', 'disabled')
          .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** approved ads whose time ran out → expired; returns their ids and owners. */
export async function expireDue(db: Executor, at: string): Promise<{ id: string; owner_id: string }[]> {
  const due = await db.selectFrom('ads').select(['id', 'owner_id']).where('status', '=', 'approved').where('expires_at', '<=', at).execute();
  if (due.length) {
    await db.updateTable('ads').set({ status: 'expired', updated_at: at }).where('status', '=', 'approved').where('expires_at', '<=', at).execute();
    await refreshVisibility(
      db,
      due.map((d) => d.id),
    );
  }
  return due;
}

/**
 * Recomputes the public `visible` flag of the given ads from their status, online flag, owner and
 * place. Every change of one of those inputs made here is followed by this call in the same
 * transaction; changes made elsewhere (user status, enabled places) are covered by triggers.
 */
export async function refreshVisibility(db: Executor, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await sql`
      UPDATE ads SET visible = (
        status = 'approved' AND online = 1 AND bump_seq IS NOT NULL
        AND EXISTS (SELECT 1 FROM users u WHERE u.id = ads.owner_id AND u.status = 'approved' AND u.deleted_at IS NULL)
        AND EXISTS (SELECT 1 FROM cities c JOIN states s ON s.id = c.state_id WHERE c.id = ads.city_id AND c.enabled = 1 AND s.enabled = 1)
      ) WHERE id IN (${sql.join(chunk)})`.execute(db);
  }
}

export async function logScreening(
  db: Executor,
  s: { userId: string; adId: string | null; field: 'title' | 'description'; term: string; title: string; description: string; ip: string | null; at: string },
): Promise<void> {
  await db
    .insertInto('screening_log')
    .values({
      user_id: s.userId,
      ad_id: s.adId,
      field: s.field,
      term: s.term,
      title: s.title.slice(0, 500),
      description: s.description.slice(0, 6000),
      ip: s.ip,
      created_at: s.at,
    })
    .execute();
}

export async function listForStaff(db: Executor, o: { statuses: readonly AdStatus[]; order: 'queue' | 'published'; offset: number; limit: number }) {
  const base = db.selectFrom('ads').where('ads.status', 'in', o.statuses);
  let q = selectAdsWithOwner(db).where('ads.status', 'in', o.statuses);
  q =
    o.order === 'queue'
      ? // oldest payment first: the review queue is first come, first served; unpaid ones last
        q
          .orderBy(sql`ads.status = 'unpaid'`)
          .orderBy(sql`coalesce(ads.paid_at, ads.created_at)`)
          .orderBy('ads.id')
      : q.orderBy(sql`coalesce(ads.published_at, ads.created_at)`, 'desc').orderBy('ads.id');
  const [rows, total] = await Promise.all([q.limit(o.limit).offset(o.offset).execute(), base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()]);
  return { rows, total: Number(total.n) };
}

export async function listScreening(db: Executor, o: { offset: number; limit: number }) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('screening_log')
      .leftJoin('users', 'users.id', 'screening_log.user_id')
      .selectAll('screening_log')
      .select('users.email as user_email')
      .orderBy('screening_log.id', 'desc')
      .limit(o.limit)
      .offset(o.offset)
      .execute(),
    db
      .selectFrom('screening_log')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
