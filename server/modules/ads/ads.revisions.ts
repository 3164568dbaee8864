import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { StaffAdDto, StoredPhoto } from './ads.dto.ts';
import { toStaffAd } from './ads.dto.ts';
import * as repo from './ads.repository.ts';
import { contentOf, recordVersion } from './ads.versions.ts';
import type { MarketTables } from './ads.tables.ts';
import { staffMatchAd, type StaffQuery } from '../moderation/moderation.match.ts';

export type RevisionRow = MarketTables['ad_revisions'];

export function findPendingRevision(db: Executor, id: string) {
  return db.selectFrom('ad_revisions').selectAll().where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
}

export function pendingRevisionOf(db: Executor, adId: string) {
  return db.selectFrom('ad_revisions').selectAll().where('ad_id', '=', adId).where('status', '=', 'pending').executeTakeFirst();
}

/** The latest revision of each of these ads, when it did not go live (pending or rejected); approved or superseded ones close it. */
export async function openRevisionsOf(db: Executor, adIds: string[]): Promise<Map<string, RevisionRow>> {
  if (!adIds.length) return new Map();
  const rows = await db
    .selectFrom('ad_revisions')
    .selectAll()
    .where('ad_id', 'in', adIds)
    .orderBy('ad_id')
    .orderBy('created_at')
    .orderBy(sql`rowid`)
    .execute();
  const latest = new Map<string, RevisionRow>();
  for (const r of rows) latest.set(r.ad_id, r);
  for (const [id, r] of latest) if (r.status !== 'pending' && r.status !== 'rejected') latest.delete(id);
  return latest;
}

/**
 * Pending revisions whose ad still exists: one left behind by a deleted ad (closed at deletion
 * since, but older databases may hold some) is neither counted nor listed, so paging stays true.
 */
const ofLiveAd = sql<boolean>`EXISTS (SELECT 1 FROM ads WHERE ads.id = ad_revisions.ad_id)`;

/**
 * The pending revisions the review queue lists; with a search, those whose ad staff search finds
 * (staffMatchAd: the live ad, its owner, the words and phone of its edits, its owner's sign-ins),
 * or the one whose id was typed (the queue shows an edit by its own id). A few thousand edits wait
 * at most, read by ad_revisions_status, each ad and owner by its key.
 */
function pendingRevisions(db: Executor, query: StaffQuery | null | undefined) {
  const pending = db.selectFrom('ad_revisions').where('ad_revisions.status', '=', 'pending');
  if (!query) return pending.where(ofLiveAd);
  const found = sql<boolean>`(ad_revisions.id = ${query.text} OR ${staffMatchAd(query, repo.STAFF_MATCH)})`;
  return pending.innerJoin('ads', 'ads.id', 'ad_revisions.ad_id').innerJoin('users', 'users.id', 'ads.owner_id').where(found);
}

export async function countPending(db: Executor, query?: StaffQuery | null): Promise<number> {
  const r = await pendingRevisions(db, query)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Pending revisions for the review queue, oldest first (with a search, those it finds: pendingRevisions):
 * each as the ad it would become, marked with revisionOf and the live content beside it.
 */
export async function pendingForStaff(db: Executor, o: { offset: number; limit: number; query?: StaffQuery | null }): Promise<StaffAdDto[]> {
  if (o.limit <= 0) return [];
  const revs = await pendingRevisions(db, o.query)
    .selectAll('ad_revisions')
    .orderBy('ad_revisions.created_at')
    .orderBy('ad_revisions.id')
    .limit(o.limit)
    .offset(o.offset)
    .execute();
  const out: StaffAdDto[] = [];
  for (const rev of revs) {
    const live = await repo.selectAdsWithOwner(db).where('ads.id', '=', rev.ad_id).executeTakeFirst();
    if (!live) continue;
    const place = await db
      .selectFrom('cities')
      .innerJoin('states', 'states.id', 'cities.state_id')
      .select(['states.name as state_name', 'states.slug as state_slug', 'cities.name as city_name', 'cities.slug as city_slug'])
      .where('cities.id', '=', rev.city_id)
      .executeTakeFirst();
    const proposed = toStaffAd({
      ...live,
      listing_type: rev.listing_type,
      title: rev.title,
      description: rev.description,
      age: rev.age,
      state_id: rev.state_id,
      city_id: rev.city_id,
      phone: rev.phone,
      photos_json: rev.photos_json,
      rates_json: rev.rates_json,
      incall: rev.incall,
      outcall: rev.outcall,
      availability_json: rev.availability_json,
      ...(place ?? {}),
    });
    // An edit never changes once made (another edit is another revision): its time is its version.
    out.push({ ...proposed, id: rev.id, revisionOf: rev.ad_id, previous: await contentOf(db, live), createdAt: rev.created_at, updatedAt: rev.created_at });
  }
  return out;
}

/** A move of the live ad carries its pending edit along: approving the edit later keeps the ad where its owner moved it. */
export async function moveRevision(trx: Executor, adId: string, stateId: string, cityId: string): Promise<void> {
  await trx.updateTable('ad_revisions').set({ state_id: stateId, city_id: cityId }).where('ad_id', '=', adId).where('status', '=', 'pending').execute();
}

/** Makes a pending revision the live ad (in the caller's transaction); returns the live photos no longer used. */
export async function applyRevision(trx: Executor, rev: RevisionRow, by: string, at: string): Promise<StoredPhoto[]> {
  const live = await trx.selectFrom('ads').select('photos_json').where('id', '=', rev.ad_id).executeTakeFirstOrThrow();
  await trx
    .updateTable('ads')
    .set({
      listing_type: rev.listing_type,
      title: rev.title,
      description: rev.description,
      age: rev.age,
      state_id: rev.state_id,
      city_id: rev.city_id,
      phone: rev.phone,
      photos_json: rev.photos_json,
      rates_json: rev.rates_json,
      incall: rev.incall,
      outcall: rev.outcall,
      availability_json: rev.availability_json,
      updated_at: at,
    })
    .where('id', '=', rev.ad_id)
    .execute();
  await trx.updateTable('ad_revisions').set({ status: 'approved', decided_at: at, decided_by: by }).where('id', '=', rev.id).execute();
  await repo.refreshVisibility(trx, [rev.ad_id]);
  await recordVersion(trx, rev.ad_id, 'revision_approved', at);
  return photosNotIn(live.photos_json, rev.photos_json);
}

/** Rejects a pending revision; returns its photos that the live ad does not use. */
export async function rejectRevision(trx: Executor, rev: RevisionRow, reason: string, by: string, at: string): Promise<StoredPhoto[]> {
  await trx
    .updateTable('ad_revisions')
    .set({ status: 'rejected', rejection_reason: reason, decided_at: at, decided_by: by })
    .where('id', '=', rev.id)
    .execute();
  const live = await trx.selectFrom('ads').select('photos_json').where('id', '=', rev.ad_id).executeTakeFirst();
  return photosNotIn(rev.photos_json, live?.photos_json ?? '[]');
}

/** The photos of `a` that `b` does not have (by stored path). */
export function photosNotIn(a: string, b: string): StoredPhoto[] {
  const keep = new Set((JSON.parse(b) as StoredPhoto[]).map((p) => p.path));
  return (JSON.parse(a) as StoredPhoto[]).filter((p) => !keep.has(p.path));
}
