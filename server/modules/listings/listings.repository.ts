import { photosOf, type AdCoreRow, type PhotoDto } from '../ads/ads.dto.ts';
import type { ListingType } from '../ads/ads.tables.ts';
import { LISTING_TOTAL_CAP } from '../../../contract/api/listings.ts';
import { PublicSearchReads } from './listings.search.repository.ts';
import { INT, TEXT, type Place } from './listings.statements.repository.ts';

// The public reads of ads and places: an ad's page, places by slug, the lists' cards and counts,
// the numbers per place, and the sitemap's reads. Statements prepared once
// (listings.statements.repository.ts); search and the change feed: listings.search.repository.ts.
//
// Lists read ads_cards (migration 0011): one row per public ad, clustered by city, listing type
// and bump order, holding the card JSON. A city page is one range of contiguous rows whose cards
// are joined into the answer by SQLite itself; other scopes (a state, a type, everything) and
// search reach the same rows through small indexes of that table.

// Place names and slugs come from a small in-process cache (places are only ever enabled or
// disabled, never renamed), so an ad row is read from `ads` alone: for a one-row lookup SQLite's
// join planning costs about 30 µs, five times the lookup itself.
// phone_verified (the "Phone verified" badge) is one primary-key lookup of the owner.
const AD_COLS = `a.id, a.listing_type, a.title, a.description, a.age, a.state_id, a.city_id, a.phone, a.photos_json, a.status,
  a.online, a.bumped_at, a.published_at, a.expires_at, a.rates_json, a.incall, a.outcall, a.availability_json,
  EXISTS (SELECT 1 FROM users u WHERE u.id = a.owner_id AND u.phone = a.phone AND u.phone_verified_at IS NOT NULL) AS phone_verified`;

type AdRowNoPlace = Omit<AdCoreRow, 'state_name' | 'state_slug' | 'city_name' | 'city_slug'>;

/** Listings never count past this many ads (nor serve pages beyond it): a total says at most "10,000+". */
export const LISTING_COUNT_CAP = LISTING_TOTAL_CAP;

export interface DetailRow extends AdCoreRow {
  owner_id: string;
  visible: number;
  /** 1 while its paid term waits for its owner's approval or its place to open (ads.lifecycle.repository.ts startHeldTerms). */
  term_held: number;
}

/** Which public ads a list holds: one city, one state or all, of one listing type or all. */
export interface ListingScope {
  stateId?: string;
  cityId?: string;
  listingType?: ListingType;
}

export interface AggregateRow {
  state_id: string;
  state_slug: string;
  state_name: string;
  city_id: string;
  city_slug: string;
  city_name: string;
  n: number;
}

export class PublicReads extends PublicSearchReads {
  // Parsed photo lists of recently shown ads: hot ads are shown over and over.
  private readonly photoCache = new Map<string, PhotoDto[]>();

  private withPlace<T extends AdRowNoPlace>(r: T): T & AdCoreRow {
    const s = this.place('state', r.state_id);
    const c = this.place('city', r.city_id);
    let photos = this.photoCache.get(r.photos_json);
    if (!photos) {
      if (this.photoCache.size >= 5000) this.photoCache.clear();
      this.photoCache.set(r.photos_json, (photos = photosOf(r.photos_json)));
    }
    return Object.assign(r, { state_name: s.name, state_slug: s.slug, city_name: c.name, city_slug: c.slug, photos });
  }

  adById(id: string): DetailRow | undefined {
    const r = this.stmt('detail', () => `SELECT ${AD_COLS}, a.owner_id, a.visible, a.term_held FROM ads a WHERE a.id = ${TEXT}`).get(id) as
      (AdRowNoPlace & { owner_id: string; visible: number; term_held: number }) | undefined;
    return r && this.withPlace(r);
  }

  /**
   * Why staff rejected an ad (null when they did not): for its owner's and staff's view only, so
   * the public read's statement (adById, the hot path) stays as it is.
   */
  rejectionReason(id: string): string | null {
    const r = this.stmt('rejection', () => `SELECT rejection_reason AS reason FROM ads WHERE id = ${TEXT}`).get(id) as { reason: string | null } | undefined;
    return r?.reason ?? null;
  }

  /** True for an ad that was published and has since been deleted (its page answers 410). */
  isGone(id: string): boolean {
    return this.stmt('gone', () => `SELECT 1 FROM ads_gone WHERE id = ${TEXT}`).get(id) !== undefined;
  }

  stateBySlug(slug: string): { id: string; name: string; enabled: number } | undefined {
    return this.stmt('state', () => `SELECT id, name, enabled FROM states WHERE slug = ${TEXT}`).get(slug) as
      { id: string; name: string; enabled: number } | undefined;
  }

  cityBySlug(stateId: string, slug: string): { id: string; name: string; enabled: number } | undefined {
    return this.stmt('city', () => `SELECT id, name, enabled FROM cities WHERE state_id = ${TEXT} AND slug = ${TEXT}`).get(stateId, slug) as
      { id: string; name: string; enabled: number } | undefined;
  }

  /** Enabled states, by name (the public list of states). */
  enabledStates(): Place[] {
    return this.stmt('states', () => 'SELECT id, name, slug, code FROM states WHERE enabled = 1 ORDER BY name').all() as Place[];
  }

  /**
   * The cards of one page of a list, newest bump first, joined into one JSON array body by SQLite
   * ('' when there are none). Ads whose time ran out are left out even before expire-ads hides them.
   */
  cards(scope: ListingScope, now: string, limit: number, offset: number): { json: string; n: number } {
    const { key, where, args } = scopeWhere(scope);
    const r = this.stmt(
      `cards:${key}`,
      () =>
        `SELECT coalesce(group_concat(card, ','), '') AS json, count(*) AS n FROM (
           SELECT card FROM ads_cards WHERE ${where} AND expires_at > ${TEXT} ORDER BY bump_seq DESC LIMIT ${INT} OFFSET ${INT})`,
    ).get(...args, now, limit, offset) as { json: string; n: number };
    return r;
  }

  /**
   * The number of public ads of a scope, from the trigger-kept counters (ads_public_counts):
   * O(cities), whatever the number of ads. Ads whose time ran out stay counted until expire-ads
   * runs; the caller takes those off (ExpiryWindow).
   */
  count(scope: ListingScope): number {
    const { key, where, args } = scopeWhere(scope);
    return (this.stmt(`count:${key}`, () => `SELECT coalesce(sum(n), 0) AS n FROM ads_public_counts WHERE n > 0 AND ${where}`).get(...args) as { n: number }).n;
  }

  /** Cities with public ads of a type, in one state or all (trigger-kept counters). */
  aggregate(listingType: ListingType, stateId?: string): AggregateRow[] {
    const sql = (where: string) =>
      `SELECT x.state_id, s.slug AS state_slug, s.name AS state_name, x.city_id, c.slug AS city_slug, c.name AS city_name, x.n
       FROM ads_public_counts x JOIN states s ON s.id = x.state_id JOIN cities c ON c.id = x.city_id
       WHERE ${where} AND x.n > 0 ORDER BY s.name, x.n DESC, c.name`;
    return stateId
      ? (this.stmt('aggregate-state', () => sql(`x.state_id = ${TEXT} AND x.listing_type = ${TEXT}`)).all(stateId, listingType) as AggregateRow[])
      : (this.stmt('aggregate', () => sql(`x.listing_type = ${TEXT}`)).all(listingType) as AggregateRow[]);
  }

  /** States with public ads of a type as counted (trigger-kept counters, summed over their cities), in no order: the service sorts them after taking off the ads whose time ran out. */
  stateCountsOfType(listingType: ListingType): { id: string; slug: string; name: string; n: number }[] {
    return this.stmt(
      'state-counts-of-type',
      () =>
        `SELECT s.id, s.slug, s.name, x.n FROM (SELECT state_id, sum(n) AS n FROM ads_public_counts WHERE listing_type = ${TEXT} GROUP BY state_id) x
       JOIN states s ON s.id = x.state_id WHERE x.n > 0`,
    ).all(listingType) as { id: string; slug: string; name: string; n: number }[];
  }

  typeCounts(): { listing_type: ListingType; n: number }[] {
    return this.stmt('type-counts', () => 'SELECT listing_type, sum(n) AS n FROM ads_public_counts GROUP BY listing_type').all() as {
      listing_type: ListingType;
      n: number;
    }[];
  }

  stateCounts(): { id: string; slug: string; name: string; n: number }[] {
    return this.stmt(
      'state-counts',
      () =>
        `SELECT s.id, s.slug, s.name, x.n FROM (SELECT state_id, sum(n) AS n FROM ads_public_counts GROUP BY state_id) x
       JOIN states s ON s.id = x.state_id WHERE x.n > 0 ORDER BY x.n DESC, s.name`,
    ).all() as { id: string; slug: string; name: string; n: number }[];
  }

  /** Every (state, city, listing type) with public ads as counted (ads whose time ran out included), for the sitemap. */
  placesWithAds(): { stateSlug: string; citySlug: string; cityId: string; listingType: ListingType; n: number }[] {
    return this.stmt(
      'places-with-ads',
      () =>
        `SELECT s.slug AS stateSlug, c.slug AS citySlug, c.id AS cityId, x.listing_type AS listingType, x.n FROM ads_public_counts x
         JOIN cities c ON c.id = x.city_id JOIN states s ON s.id = x.state_id
         WHERE x.n > 0 AND c.enabled = 1 AND s.enabled = 1 ORDER BY s.slug, c.slug, x.listing_type`,
    ).all() as { stateSlug: string; citySlug: string; cityId: string; listingType: ListingType; n: number }[];
  }

  /**
   * One slice of a state's public ads in bump order, oldest bump first, for the sitemap: the id and
   * when its page last changed: its last bump, or a later change of the ad (an approved edit, a
   * move; ads.updated_at, which a bump moves too), read from `ads` by primary key for the slice's
   * rows only. The offset walks the state's part of a small index (bump numbers only), never the
   * cards: the deepest slice of the largest state (California, 140,000 ads of a million) takes
   * ~10 ms warm, ~50 ms cold.
   */
  stateAdsSlice(stateId: string, nowIso: string, limit: number, offset: number): { id: string; at: string | null }[] {
    return this.stmt(
      'state-ads-slice',
      () =>
        `SELECT x.id, nullif(max(coalesce(x.bumped, ''), coalesce(a.updated_at, '')), '') AS at FROM (
           SELECT card ->> 'id' AS id, card ->> 'bumpedAt' AS bumped, bump_seq FROM ads_cards
           WHERE bump_seq IN (SELECT bump_seq FROM ads_cards INDEXED BY ads_cards_state WHERE state_id = ${TEXT} ORDER BY bump_seq LIMIT ${INT} OFFSET ${INT})
             AND expires_at > ${TEXT}
         ) x LEFT JOIN ads a ON a.id = x.id ORDER BY x.bump_seq`,
    ).all(stateId, limit, offset, nowIso) as { id: string; at: string | null }[];
  }
}

function scopeWhere(scope: ListingScope): { key: string; where: string; args: string[] } {
  const parts: string[] = [];
  const args: string[] = [];
  let key = '';
  if (scope.cityId) {
    parts.push(`city_id = ${TEXT}`);
    args.push(scope.cityId);
    key += 'c';
  } else if (scope.stateId) {
    parts.push(`state_id = ${TEXT}`);
    args.push(scope.stateId);
    key += 's';
  }
  if (scope.listingType) {
    parts.push(`listing_type = ${TEXT}`);
    args.push(scope.listingType);
    key += 't';
  }
  return { key, where: parts.length ? parts.join(' AND ') : '1', args };
}
