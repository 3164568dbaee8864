import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { DB } from '../../core/schema.ts';
import type { AdStatus, RejectionCategory } from './ads.tables.ts';

// An ad's life once paid: approval or rejection, held terms, bumps, online and place, staff disable
// and enable, expiry, and the public `visible` flag each of those changes recomputes.

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
