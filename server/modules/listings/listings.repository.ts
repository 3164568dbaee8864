import type Database from 'better-sqlite3';
import type { AdCoreRow } from '../ads/ads.dto.ts';
import type { ListingType } from '../ads/ads.tables.ts';

// The public read path. These are the hottest queries of the product, so they are plain SQL on
// better-sqlite3 statements prepared once per app (Kysely compiles and re-prepares every call,
// which halves a point read's throughput). Every query asks for `visible = 1` literally, so the
// planner can use the partial indexes of migration 0003 that hold visible ads only.

const AD_COLS = `a.id, a.listing_type, a.title, a.description, a.age, a.state_id, s.name AS state_name, s.slug AS state_slug,
  a.city_id, c.name AS city_name, c.slug AS city_slug, a.phone, a.photos_json, a.status, a.online, a.bumped_at, a.published_at, a.expires_at`;
const FROM_ADS = 'FROM ads a JOIN states s ON s.id = a.state_id JOIN cities c ON c.id = a.city_id';

/** Search never counts past this many matches: the total says "1000" and pages stop at 50 of 20. */
export const SEARCH_COUNT_CAP = 1000;

export interface DetailRow extends AdCoreRow {
  owner_id: string;
  visible: number;
}

export interface ListingFilter {
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

export class PublicReads {
  private readonly sqlite: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();

  constructor(sqlite: Database.Database) {
    this.sqlite = sqlite;
  }

  private stmt(key: string, sql: () => string): Database.Statement {
    let s = this.cache.get(key);
    if (!s) this.cache.set(key, (s = this.sqlite.prepare(sql())));
    return s;
  }

  adById(id: string): DetailRow | undefined {
    return this.stmt('detail', () => `SELECT ${AD_COLS}, a.owner_id, a.visible ${FROM_ADS} WHERE a.id = ?`).get(id) as DetailRow | undefined;
  }

  stateBySlug(slug: string): { id: string; enabled: number } | undefined {
    return this.stmt('state', () => 'SELECT id, enabled FROM states WHERE slug = ?').get(slug) as { id: string; enabled: number } | undefined;
  }

  cityBySlug(stateId: string, slug: string): { id: string; enabled: number } | undefined {
    return this.stmt('city', () => 'SELECT id, enabled FROM cities WHERE state_id = ? AND slug = ?').get(stateId, slug) as { id: string; enabled: number } | undefined;
  }

  private where(f: ListingFilter): { key: string; sql: string; args: string[] } {
    const parts = ['a.visible = 1'];
    const args: string[] = [];
    let key = '';
    if (f.cityId) (parts.push('a.city_id = ?'), args.push(f.cityId), (key += 'c'));
    else if (f.stateId) (parts.push('a.state_id = ?'), args.push(f.stateId), (key += 's'));
    if (f.listingType) (parts.push('a.listing_type = ?'), args.push(f.listingType), (key += 't'));
    parts.push('a.expires_at > ?');
    return { key, sql: parts.join(' AND '), args };
  }

  /** Visible, unexpired ads, newest bump first. */
  listing(f: ListingFilter, now: string, limit: number, offset: number): AdCoreRow[] {
    const w = this.where(f);
    return this.stmt(`list:${w.key}`, () => `SELECT ${AD_COLS} ${FROM_ADS} WHERE ${w.sql} ORDER BY a.bump_seq DESC LIMIT ? OFFSET ?`)
      .all(...w.args, now, limit, offset) as AdCoreRow[];
  }

  listingCount(f: ListingFilter, now: string): number {
    const w = this.where(f);
    return (this.stmt(`count:${w.key}`, () => `SELECT count(*) AS n FROM ads a WHERE ${w.sql}`).get(...w.args, now) as { n: number }).n;
  }

  /**
   * Full-text matches in bump order. ads_fts holds visible ads only and its rowid is the ad's
   * bump_seq, so FTS5 walks its index newest-bump-first and stops after one page: no ranking of
   * every match, whatever the word.
   */
  search(match: string, now: string, limit: number, offset: number): AdCoreRow[] {
    return this.stmt('search', () =>
      `SELECT ${AD_COLS} FROM ads_fts f JOIN ads a ON a.bump_seq = f.rowid JOIN states s ON s.id = a.state_id JOIN cities c ON c.id = a.city_id
       WHERE ads_fts MATCH ? AND a.visible = 1 AND a.expires_at > ? ORDER BY f.rowid DESC LIMIT ? OFFSET ?`,
    ).all(match, now, limit, offset) as AdCoreRow[];
  }

  searchCount(match: string, now: string): number {
    return (this.stmt('search-count', () =>
      `SELECT count(*) AS n FROM (SELECT 1 FROM ads_fts f JOIN ads a ON a.bump_seq = f.rowid
       WHERE ads_fts MATCH ? AND a.visible = 1 AND a.expires_at > ? LIMIT ${SEARCH_COUNT_CAP})`,
    ).get(match, now) as { n: number }).n;
  }

  /** Bumped by triggers whenever the public set changes: read-side caches compare it. */
  version(): number {
    return (this.stmt('version', () => 'SELECT v FROM ads_public_version WHERE id = 1').get() as { v: number }).v;
  }

  aggregate(listingType: ListingType, now: string): AggregateRow[] {
    return this.stmt('aggregate', () =>
      `SELECT a.state_id, s.slug AS state_slug, s.name AS state_name, a.city_id, c.slug AS city_slug, c.name AS city_name, count(*) AS n
       FROM ads a JOIN states s ON s.id = a.state_id JOIN cities c ON c.id = a.city_id
       WHERE a.visible = 1 AND a.listing_type = ? AND a.expires_at > ?
       GROUP BY a.city_id ORDER BY s.name, n DESC, c.name`,
    ).all(listingType, now) as AggregateRow[];
  }

  typeCounts(now: string): { listing_type: ListingType; n: number }[] {
    return this.stmt('type-counts', () =>
      'SELECT listing_type, count(*) AS n FROM ads a WHERE a.visible = 1 AND a.expires_at > ? GROUP BY listing_type',
    ).all(now) as { listing_type: ListingType; n: number }[];
  }

  stateCounts(now: string): { id: string; slug: string; name: string; n: number }[] {
    return this.stmt('state-counts', () =>
      `SELECT s.id, s.slug, s.name, x.n FROM (SELECT state_id, count(*) AS n FROM ads a WHERE a.visible = 1 AND a.expires_at > ? GROUP BY state_id) x
       JOIN states s ON s.id = x.state_id ORDER BY x.n DESC, s.name`,
    ).all(now) as { id: string; slug: string; name: string; n: number }[];
  }
}
