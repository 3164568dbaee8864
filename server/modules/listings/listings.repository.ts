import type Database from 'better-sqlite3';
import { photosOf, type AdCoreRow, type PhotoDto } from '../ads/ads.dto.ts';
import type { ListingType } from '../ads/ads.tables.ts';
import { trackWrites, type WriteCounter } from '../../core/db.ts';

// The public read path. These are the hottest queries of the product, so they are plain SQL on
// better-sqlite3 statements prepared once per app (Kysely compiles and re-prepares every call,
// which halves a point read's throughput). Every query asks for `visible = 1` literally, so the
// planner can use the partial indexes of migration 0003 that hold visible ads only.

// Place names and slugs come from a small in-process cache (places are only ever enabled or
// disabled, never renamed), so an ad row is read from `ads` alone: for a one-row lookup SQLite's
// join planning costs about 30 µs, five times the lookup itself.
const AD_COLS = `a.id, a.listing_type, a.title, a.description, a.age, a.state_id, a.city_id, a.phone, a.photos_json, a.status,
  a.online, a.bumped_at, a.published_at, a.expires_at`;
/** Lists carry an excerpt of the description (cards show none; the detail has it all): a third of the bytes. */
export const EXCERPT_CHARS = 200;
const LIST_COLS = AD_COLS.replace(
  'a.description',
  `CASE WHEN length(a.description) > ${EXCERPT_CHARS} THEN substr(a.description, 1, ${EXCERPT_CHARS - 1}) || '…' ELSE a.description END AS description`,
);

type AdRowNoPlace = Omit<AdCoreRow, 'state_name' | 'state_slug' | 'city_name' | 'city_slug'>;

/** How long a remembered ads_public_version may be trusted when this connection wrote nothing. */
const VERSION_RECHECK_MS = 1000;

/** Listings never count past this many ads (nor serve pages beyond it). */
export const LISTING_COUNT_CAP = 10_000;
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
  private readonly places = new Map<string, { name: string; slug: string }>();
  // Parsed photo lists of recently shown ads: hot ads are shown over and over.
  private readonly photoCache = new Map<string, PhotoDto[]>();
  private readonly writes: WriteCounter;
  private seen = { writes: -1, at: 0, version: 0 };
  /** Counts down: the versions handed out inside transactions, each one unique and negative. */
  private uncommitted = 0;

  private readonly writer: Database.Database;

  /** Reads through `reader` (committed rows only); learns of changes from the writer's count of writes. */
  constructor(reader: Database.Database, writer: Database.Database = reader) {
    this.sqlite = reader;
    this.writer = writer;
    this.writes = trackWrites(writer);
  }

  private stmt(key: string, sql: () => string): Database.Statement {
    let s = this.cache.get(key);
    if (!s) this.cache.set(key, (s = this.sqlite.prepare(sql())));
    return s;
  }

  private place(kind: 'state' | 'city', id: string): { name: string; slug: string } {
    const key = `${kind}:${id}`;
    let p = this.places.get(key);
    if (!p) {
      const sql = kind === 'state' ? 'SELECT name, slug FROM states WHERE id = ?' : 'SELECT name, slug FROM cities WHERE id = ?';
      p = (this.stmt(`place:${kind}`, () => sql).get(id) as { name: string; slug: string } | undefined) ?? { name: '', slug: '' };
      this.places.set(key, p);
    }
    return p;
  }

  private withPlace<T extends AdRowNoPlace>(r: T): T & AdCoreRow {
    const s = this.place('state', r.state_id);
    const c = this.place('city', r.city_id);
    let photos = this.photoCache.get(r.photos_json);
    if (!photos) {
      if (this.photoCache.size >= 20_000) this.photoCache.clear();
      this.photoCache.set(r.photos_json, (photos = photosOf(r.photos_json)));
    }
    return Object.assign(r, { state_name: s.name, state_slug: s.slug, city_name: c.name, city_slug: c.slug, photos });
  }

  adById(id: string): DetailRow | undefined {
    const r = this.stmt('detail', () => `SELECT ${AD_COLS}, a.owner_id, a.visible FROM ads a WHERE a.id = ?`).get(id) as
      (AdRowNoPlace & { owner_id: string; visible: number }) | undefined;
    return r && this.withPlace(r);
  }

  stateBySlug(slug: string): { id: string; enabled: number } | undefined {
    return this.stmt('state', () => 'SELECT id, enabled FROM states WHERE slug = ?').get(slug) as { id: string; enabled: number } | undefined;
  }

  cityBySlug(stateId: string, slug: string): { id: string; enabled: number } | undefined {
    return this.stmt('city', () => 'SELECT id, enabled FROM cities WHERE state_id = ? AND slug = ?').get(stateId, slug) as
      { id: string; enabled: number } | undefined;
  }

  private where(f: ListingFilter): { key: string; sql: string; args: string[] } {
    const parts = ['a.visible = 1'];
    const args: string[] = [];
    let key = '';
    if (f.cityId) {
      parts.push('a.city_id = ?');
      args.push(f.cityId);
      key += 'c';
    } else if (f.stateId) {
      parts.push('a.state_id = ?');
      args.push(f.stateId);
      key += 's';
    }
    if (f.listingType) {
      parts.push('a.listing_type = ?');
      args.push(f.listingType);
      key += 't';
    }
    parts.push('a.expires_at > ?');
    return { key, sql: parts.join(' AND '), args };
  }

  /** Visible, unexpired ads, newest bump first. */
  listing(f: ListingFilter, now: string, limit: number, offset: number): AdCoreRow[] {
    const w = this.where(f);
    const rows = this.stmt(`list:${w.key}`, () => `SELECT ${LIST_COLS} FROM ads a WHERE ${w.sql} ORDER BY a.bump_seq DESC LIMIT ? OFFSET ?`).all(
      ...w.args,
      now,
      limit,
      offset,
    ) as AdRowNoPlace[];
    return rows.map((r) => this.withPlace(r));
  }

  /**
   * The number of visible ads for a filter, from the trigger-kept counters (ads_public_counts)
   * instead of counting rows: O(cities), whatever the number of ads. An ad whose time ran out
   * leaves the counters when expire-ads runs (hourly), so the total may lead the list by that.
   */
  listingCount(f: ListingFilter): number {
    const parts = ['n > 0'];
    const args: string[] = [];
    if (f.cityId) {
      parts.push('city_id = ?');
      args.push(f.cityId);
    } else if (f.stateId) {
      parts.push('state_id = ?');
      args.push(f.stateId);
    }
    if (f.listingType) {
      parts.push('listing_type = ?');
      args.push(f.listingType);
    }
    const key = `${f.cityId ? 'c' : f.stateId ? 's' : ''}${f.listingType ? 't' : ''}`;
    const r = this.stmt(`count:${key}`, () => `SELECT coalesce(sum(n), 0) AS n FROM ads_public_counts WHERE ${parts.join(' AND ')}`).get(...args) as {
      n: number;
    };
    return r.n;
  }

  /**
   * Full-text matches in bump order, bounded: ads_fts holds visible ads only and its rowid is the
   * ad's bump_seq, so FTS5 walks its index newest bump first, with no ranking, and stops after
   * SEARCH_COUNT_CAP matches whatever the word. Returns their bump_seqs (the total is their number).
   */
  searchSeqs(match: string): number[] {
    return this.stmt('search', () => `SELECT rowid FROM ads_fts WHERE ads_fts MATCH ? ORDER BY rowid DESC LIMIT ${SEARCH_COUNT_CAP}`)
      .pluck()
      .all(match) as number[];
  }

  /** The page of a search, read by bump_seq (an ad whose time ran out before the hourly expire-ads job is left out). */
  adsBySeqs(seqs: number[], now: string): AdCoreRow[] {
    if (!seqs.length) return [];
    const rows = this.stmt(
      'by-seqs',
      () =>
        `SELECT ${LIST_COLS} FROM ads a WHERE a.bump_seq IN (SELECT value FROM json_each(?)) AND a.visible = 1 AND a.expires_at > ? ORDER BY a.bump_seq DESC`,
    ).all(JSON.stringify(seqs), now) as AdRowNoPlace[];
    return rows.map((r) => this.withPlace(r));
  }

  /**
   * Bumped by triggers whenever the public set changes: read-side caches compare it on every hit.
   * Reading it is a read transaction (file locks and a stat: ~10 µs, more than the rest of a cache
   * hit), so it is re-read only when it can have changed: after any write on this connection
   * (trackWrites' counter, kept in JavaScript: no SQLite call on a hit) or after
   * VERSION_RECHECK_MS (writers outside this process, e.g. a maintenance script).
   */
  version(): number {
    // Only when reads share the writer's connection (an in-memory database): inside a transaction
    // (a request served between two awaits of a service's transaction) the rows read are uncommitted. A rollback takes the version back and the
    // next real change brings it to the same number again, so a page cached under it would later
    // pass for current: such reads get a number no cache entry can ever match.
    if (this.sqlite === this.writer && this.writer.inTransaction) return --this.uncommitted;
    const writes = this.writes.n;
    const t = performance.now();
    if (writes === this.seen.writes && t - this.seen.at < VERSION_RECHECK_MS) return this.seen.version;
    const version = (this.stmt('version', () => 'SELECT v FROM ads_public_version WHERE id = 1').get() as { v: number }).v;
    this.seen = { writes, at: t, version };
    return version;
  }

  /** Cities with visible ads of a type (trigger-kept counters: an ad leaves them when expire-ads runs). */
  aggregate(listingType: ListingType): AggregateRow[] {
    return this.stmt(
      'aggregate',
      () =>
        `SELECT x.state_id, s.slug AS state_slug, s.name AS state_name, x.city_id, c.slug AS city_slug, c.name AS city_name, x.n
       FROM ads_public_counts x JOIN states s ON s.id = x.state_id JOIN cities c ON c.id = x.city_id
       WHERE x.listing_type = ? AND x.n > 0 ORDER BY s.name, x.n DESC, c.name`,
    ).all(listingType) as AggregateRow[];
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
}
