import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { DB } from '../../core/schema.ts';
import type { AdStatus, ListingType, RejectionCategory } from './ads.tables.ts';
import { staffMatchAd, type StaffQuery } from '../moderation/moderation.match.ts';

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

/**
 * An ad's status as its owner sees it at `now`: an approved ad past its expiry is expired already
 * (the hourly expiry job may not have run yet), unless its term is held: it has not started, so
 * it cannot have run out (startHeldTerms). ISO times compare as text.
 */
const ownerStatus = (now: string) =>
  sql<AdStatus>`CASE WHEN ads.status = 'approved' AND ads.term_held = 0 AND ads.expires_at <= ${now} THEN 'expired' ELSE ads.status END`;

/** How many of the user's ads are in each status as the owner sees it (ownerStatus), and how many of them the public sees now (`visible`). */
export async function countOwnAds(db: Executor, ownerId: string, now: string): Promise<{ status: AdStatus; n: number; online: number }[]> {
  const rows = await db
    .selectFrom('ads')
    .select([ownerStatus(now).as('s'), sql<number>`count(*)`.as('n'), sql<number>`sum(ads.visible = 1)`.as('online')])
    .where('ads.owner_id', '=', ownerId)
    .groupBy('s')
    .execute();
  return rows.map((r) => ({ status: r.s, n: Number(r.n), online: Number(r.online ?? 0) }));
}

/**
 * The latest decisions on the user's ads, newest first, at most `limit` of both kinds together:
 * - one per ad as it stands now: approved (when it was published), rejected (when staff did it:
 *   nothing else changes such an ad without changing its status), disabled (when staff last took
 *   it down, from the audit log: an edit of it approved afterwards moves updated_at), expired
 *   (when its time ran out);
 * - staff's decisions on its edits (ad_revisions), edit_approved or edit_rejected, when they
 *   decided, with the ad's title as it is now. A superseded or pending edit is no decision, and the
 *   edits of a deleted ad (its row gone) go with it.
 * `rejection_reason` is the ad's, or the edit's for an edit.
 */
export async function latestOwnDecisions(db: Executor, ownerId: string, now: string, limit: number) {
  const status = ownerStatus(now);
  const onAds = db
    .selectFrom('ads')
    .select(['ads.id', 'ads.title', 'ads.rejection_reason'])
    .select(sql<DecisionEvent>`${status}`.as('event'))
    .select(
      sql<string>`CASE ${status}
        WHEN 'expired' THEN coalesce(ads.expires_at, ads.updated_at)
        WHEN 'approved' THEN coalesce(ads.published_at, ads.updated_at)
        WHEN 'disabled' THEN coalesce((SELECT max(l.at) FROM audit_log l WHERE l.target_type = 'ad' AND l.target_id = ads.id AND l.action = 'ad.disable'), ads.updated_at)
        ELSE ads.updated_at END`.as('at'),
    )
    .where('ads.owner_id', '=', ownerId)
    .where('ads.status', 'in', ['approved', 'rejected', 'disabled', 'expired']);
  const onEdits = db
    .selectFrom('ad_revisions')
    .innerJoin('ads', 'ads.id', 'ad_revisions.ad_id')
    .select(['ads.id', 'ads.title', 'ad_revisions.rejection_reason'])
    .select(sql<DecisionEvent>`CASE ad_revisions.status WHEN 'approved' THEN 'edit_approved' ELSE 'edit_rejected' END`.as('event'))
    // Set with the decision (applyRevision, rejectRevision).
    .select(sql<string>`ad_revisions.decided_at`.as('at'))
    .where('ads.owner_id', '=', ownerId)
    .where('ad_revisions.status', 'in', ['approved', 'rejected']);
  return onAds.unionAll(onEdits).orderBy('at', 'desc').orderBy('id').orderBy('event').limit(limit).execute();
}

/** What latestOwnDecisions says happened: the ad's status as its owner sees it, or a decision on an edit. */
export type DecisionEvent = AdStatus | 'edit_approved' | 'edit_rejected';

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
    details?: { ratesJson: string; incall: number; outcall: number; availabilityJson: string };
    at: string;
  },
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

const nextBumpSeq = sql<number>`(SELECT coalesce(max(bump_seq), 0) + 1 FROM ads)`;

/**
 * in_review → approved: published and bumped now, expiring after the paid duration; its term held
 * when its owner's account is not approved (startHeldTerms).
 */
export async function approve(db: Executor, id: string, at: string, expiresAt: string): Promise<boolean> {
  const held = sql<number>`(SELECT u.status <> 'approved' FROM users u WHERE u.id = ads.owner_id)`;
  const r = await db
    .updateTable('ads')
    .set({
      status: 'approved',
      published_at: at,
      bumped_at: at,
      bump_seq: nextBumpSeq,
      expires_at: expiresAt,
      term_held: held,
      rejection_reason: null,
      updated_at: at,
    })
    .where('id', '=', id)
    .where('status', '=', 'in_review')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * An ad approved while its owner's account is not approved (pending, suspended) shows nowhere
 * (PRODUCT §2): its paid term is held (term_held) and starts when the owner is approved, whole, at
 * the top of its listings, as if approved now; one that ran out while hidden comes back. Each keeps
 * the span it was paid for (renewals meanwhile are laid end to end: AdManageService.renew). Only
 * held terms start: an owner set back to pending and approved again does not revive ads that ran.
 * A term never starts where the ad shows nowhere: one whose city or state is disabled stays held
 * until its place is enabled again (startHeldTermsIn) or it moves to an open one (startHeldTermsOf).
 */
export async function startHeldTerms(db: Executor, ownerId: string, at: string): Promise<StartedTerms> {
  const started = await startHeld(db, db.selectFrom('ads').where('owner_id', '=', ownerId), at);
  // The rest held (never published, nothing paid for) holds nothing more; those in a closed place wait for it.
  await db.updateTable('ads').set({ term_held: 0 }).where('owner_id', '=', ownerId).where('term_held', '=', 1).where(placeOpen).execute();
  return started;
}

/** The held terms of these ads start, when their owner is approved and their place open (an ad moved: AdService.move). */
export function startHeldTermsOf(db: Executor, ids: readonly string[], at: string): Promise<StartedTerms> {
  if (!ids.length) return Promise.resolve({ showing: [], offline: [] });
  return startHeld(db, db.selectFrom('ads').where('id', 'in', ids).where(ownerApproved), at);
}

/**
 * The held terms of approved owners' ads in a state (or in some of its cities) start, those whose
 * place is now open: staff enabled it again (LocationsService.setStatus). Read by the partial
 * indexes of approved ads by city and state, and by ads_status for the few disabled ones; an ad
 * held is never stored as expired (expireDue).
 */
export async function startHeldTermsIn(db: Executor, stateId: string, cityIds: readonly string[] | undefined, at: string): Promise<StartedTerms> {
  const inPlace = (status: AdStatus) => {
    let q = db.selectFrom('ads').where('status', '=', status).where('state_id', '=', stateId);
    if (cityIds) q = q.where('city_id', 'in', cityIds);
    return q.where(ownerApproved);
  };
  const a = await startHeld(db, inPlace('approved'), at);
  const b = await startHeld(db, inPlace('disabled'), at);
  return { showing: [...a.showing, ...b.showing], offline: [...a.offline, ...b.offline] };
}

/** Which started terms show now (visible), and which do not because their owner set them offline. Staff-disabled ones are in neither. */
export interface StartedTerms {
  showing: string[];
  offline: string[];
}

const placeOpen = sql<boolean>`EXISTS (SELECT 1 FROM cities c JOIN states s ON s.id = c.state_id WHERE c.id = ads.city_id AND c.enabled = 1 AND s.enabled = 1)`;
const ownerApproved = sql<boolean>`EXISTS (SELECT 1 FROM users u WHERE u.id = ads.owner_id AND u.status = 'approved' AND u.deleted_at IS NULL)`;

async function startHeld(db: Executor, from: SelectQueryBuilder<DB, 'ads', object>, at: string): Promise<StartedTerms> {
  const held = await from
    .select(['id', 'status', 'published_at', 'expires_at'])
    .where('term_held', '=', 1)
    .where('status', 'in', ['approved', 'expired', 'disabled'])
    .where('published_at', 'is not', null)
    .where('expires_at', 'is not', null)
    .where(placeOpen)
    .orderBy('bump_seq') // they start in the order they had, the newest on top
    .execute();
  const started: string[] = [];
  for (const ad of held) {
    const paidMs = Date.parse(ad.expires_at!) - Date.parse(ad.published_at!);
    if (!(paidMs > 0)) continue;
    const expiresAt = new Date(Date.parse(at) + paidMs).toISOString();
    // One staff disabled meanwhile starts its term too, and stays disabled: its days run as any
    // disabled ad's do, and staff enabling it find them (it lost them all, coming back expired).
    const disabled = ad.status === 'disabled';
    await db
      .updateTable('ads')
      .set({
        status: disabled ? 'disabled' : 'approved',
        published_at: at,
        bumped_at: at,
        bump_seq: nextBumpSeq,
        expires_at: expiresAt,
        term_held: 0,
        updated_at: at,
      })
      .where('id', '=', ad.id)
      .execute();
    if (!disabled) started.push(ad.id);
  }
  await refreshVisibility(db, started);
  const shown = started.length ? await db.selectFrom('ads').select(['id', 'visible']).where('id', 'in', started).execute() : [];
  const visible = new Set(shown.filter((r) => r.visible === 1).map((r) => r.id));
  return { showing: started.filter((id) => visible.has(id)), offline: started.filter((id) => !visible.has(id)) };
}

export async function reject(db: Executor, id: string, reason: string, category: RejectionCategory, at: string): Promise<boolean> {
  const r = await db
    .updateTable('ads')
    .set({ status: 'rejected', rejection_reason: reason, rejection_category: category, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'in_review')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function bump(db: Executor, id: string, at: string): Promise<void> {
  await db.updateTable('ads').set({ bumped_at: at, bump_seq: nextBumpSeq, updated_at: at }).where('id', '=', id).execute();
}

/**
 * Online or offline: not a change of the ad (updated_at stays): a reviewer's approval names the
 * version seen by its updated_at, and a rejection is dated by it.
 */
export async function setOnline(db: Executor, id: string, online: boolean): Promise<void> {
  await db
    .updateTable('ads')
    .set({ online: online ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}

export async function setLocation(db: Executor, id: string, stateId: string, cityId: string, at: string): Promise<void> {
  await db.updateTable('ads').set({ state_id: stateId, city_id: cityId, updated_at: at }).where('id', '=', id).execute();
}

/**
 * Staff disable (approved or expired → disabled) or enable (disabled → approved, or expired when its
 * time ran out; a held term has not run, whatever its nominal end: approved, still held).
 */
export async function setStaffStatus(db: Executor, id: string, status: 'approved' | 'disabled', at: string): Promise<boolean> {
  const r =
    status === 'disabled'
      ? await db
          .updateTable('ads')
          .set({ status: 'disabled', updated_at: at })
          .where('id', '=', id)
          .where('status', 'in', ['approved', 'expired'])
          .executeTakeFirst()
      : await db
          .updateTable('ads')
          .set({ status: sql<AdStatus>`CASE WHEN expires_at <= ${at} AND term_held = 0 THEN 'expired' ELSE 'approved' END`, updated_at: at })
          .where('id', '=', id)
          .where('status', '=', 'disabled')
          .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * approved ads whose time ran out → expired; returns their ids and owners. A held term has not
 * started (startHeldTerms): it cannot run out, whatever its nominal end.
 */
export async function expireDue(db: Executor, at: string): Promise<{ id: string; owner_id: string }[]> {
  const due = await db
    .selectFrom('ads')
    .select(['id', 'owner_id'])
    .where('status', '=', 'approved')
    .where('expires_at', '<=', at)
    .where('term_held', '=', 0)
    .execute();
  if (due.length) {
    await db
      .updateTable('ads')
      .set({ status: 'expired', updated_at: at })
      .where('status', '=', 'approved')
      .where('expires_at', '<=', at)
      .where('term_held', '=', 0)
      .execute();
    await refreshVisibility(
      db,
      due.map((d) => d.id),
    );
  }
  return due;
}

/** One ad whose term ran out, stored as expired now (as expireDue would at its next run). */
export async function expireRanOut(db: Executor, id: string, at: string): Promise<void> {
  const r = await db
    .updateTable('ads')
    .set({ status: 'expired', updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'approved')
    .where('expires_at', '<=', at)
    .where('term_held', '=', 0)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows)) await refreshVisibility(db, [id]);
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

/** The text cut to `n` UTF-16 units, never between the halves of an emoji (a lone half is stored as U+FFFD). */
const cutText = (text: string, n: number) => (/[\ud800-\udbff]/.test(text.charAt(n - 1)) ? text.slice(0, n - 1) : text.slice(0, n));

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
      title: cutText(s.title, 500),
      description: cutText(s.description, 6000),
      ip: s.ip,
      created_at: s.at,
    })
    .execute();
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

/** The editable content of an ad (an edit in place). */
export interface AdContentWrite {
  listingType: ListingType;
  title: string;
  description: string;
  age: string;
  stateId: string;
  cityId: string;
  phone: string;
  photosJson: string;
  details: { ratesJson: string; incall: number; outcall: number; availabilityJson: string };
}

const contentColumns = (c: AdContentWrite) => ({
  listing_type: c.listingType,
  title: c.title,
  description: c.description,
  age: c.age,
  state_id: c.stateId,
  city_id: c.cityId,
  phone: c.phone,
  photos_json: c.photosJson,
  rates_json: c.details.ratesJson,
  incall: c.details.incall,
  outcall: c.details.outcall,
  availability_json: c.details.availabilityJson,
});

/**
 * Changes an ad in place while it is in the given status. A rejected ad goes back to the cart:
 * unpaid, its rejection and payment cleared, its next payment a new attempt (its refund was made).
 */
export async function updateContent(db: Executor, id: string, status: AdStatus, c: AdContentWrite, at: string): Promise<boolean> {
  const backToCart = status === 'rejected';
  const r = await db
    .updateTable('ads')
    .set((eb) => ({
      ...contentColumns(c),
      updated_at: at,
      ...(backToCart
        ? {
            status: 'unpaid' as const,
            rejection_reason: null,
            rejection_category: null,
            price_cents: null,
            duration_days: null,
            paid_wallet_id: null,
            paid_at: null,
            pay_attempt: eb('pay_attempt', '+', 1),
          }
        : {}),
    }))
    .where('id', '=', id)
    .where('status', '=', status)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A new pending revision of a live ad; the pending one it replaces (if any) becomes 'superseded'. */
export async function insertRevision(db: Executor, r: { id: string; adId: string; ownerId: string; content: AdContentWrite; at: string }) {
  const earlier = await db
    .selectFrom('ad_revisions')
    .select(['id', 'photos_json'])
    .where('ad_id', '=', r.adId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (earlier) await db.updateTable('ad_revisions').set({ status: 'superseded', decided_at: r.at }).where('id', '=', earlier.id).execute();
  await db
    .insertInto('ad_revisions')
    .values({ id: r.id, ad_id: r.adId, owner_id: r.ownerId, status: 'pending', ...contentColumns(r.content), created_at: r.at })
    .execute();
  return earlier ?? null;
}

/** Renews a running or expired ad: its new end, approved again, visible when everything else allows. */
export async function renew(db: Executor, id: string, expiresAt: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('ads')
    .set({ status: 'approved', expires_at: expiresAt, renewed_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', 'in', ['approved', 'expired'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Deletes an own ad (any status); its pending edit is closed. */
export async function deleteAd(db: Executor, ownerId: string, id: string, at: string): Promise<boolean> {
  await db.updateTable('ad_revisions').set({ status: 'superseded', decided_at: at }).where('ad_id', '=', id).where('status', '=', 'pending').execute();
  const r = await db.deleteFrom('ads').where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Page views of these ads' pages (every language) since `since30`, and since `since7`. */
export async function viewsOf(db: Executor, adIds: string[], since7: string, since30: string): Promise<Map<string, { views7: number; views30: number }>> {
  const out = new Map<string, { views7: number; views30: number }>();
  if (!adIds.length) return out;
  const paths = adIds.flatMap((id) => [`/ad/${id}`, `/es/ad/${id}`, `/pt/ad/${id}`]);
  const rows = await db
    .selectFrom('page_views')
    .select(['path', sql<number>`sum(at >= ${since7})`.as('v7'), sql<number>`count(*)`.as('v30')])
    .where('path', 'in', paths)
    .where('at', '>=', since30)
    .groupBy('path')
    .execute();
  for (const r of rows) {
    const id = r.path.split('/').pop()!;
    const v = out.get(id) ?? { views7: 0, views30: 0 };
    v.views7 += Number(r.v7);
    v.views30 += Number(r.v30);
    out.set(id, v);
  }
  return out;
}
