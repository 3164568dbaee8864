import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { AdStatus, ListingType } from './ads.tables.ts';

// The owner's own ads (My ads): counts and decisions as the owner sees them, page views, and the
// owner's changes: edits in place or as revisions, renewals, deletion.

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
