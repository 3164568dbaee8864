import { sql } from 'kysely';
import type Database from 'better-sqlite3';
import type { Executor } from '../../core/db.ts';
import type { PageLocale, PageViewSummary } from '../../../contract/api/analytics.ts';

export async function insertPageView(db: Executor, v: { path: string; locale: PageLocale; referrerHost: string | null; at: string }): Promise<void> {
  // The trigger of migration 0026 counts the view in the per-day tables in the same statement.
  await db.insertInto('page_views').values({ path: v.path, locale: v.locale, referrer_host: v.referrerHost, at: v.at }).execute();
}

/** The ad's owner (null when there is no such ad): whether a signed-in viewer of its page is its owner. */
export async function ownerOfAd(db: Executor, adId: string): Promise<string | null> {
  const row = await db.selectFrom('ads').select('owner_id').where('id', '=', adId).executeTakeFirst();
  return row?.owner_id ?? null;
}

/**
 * A window of at most this many views takes its top paths and ads from all its (day, path)
 * counters (there are fewer than its views); a longer one counts only the paths that can reach
 * the top (topByBound).
 */
export const ALL_ROWS_MAX_VIEWS = 20_000;

// Ad pages are /ad/<id>, /es/ad/<id>, /pt/ad/<id>: the id is what follows '/ad/'. GLOB, not LIKE:
// case matters (/AD/x is no ad page, only its 404).
const adPath = (path: string) => `(${path} GLOB '/ad/*' OR ${path} GLOB '/es/ad/*' OR ${path} GLOB '/pt/ad/*')`;
const AD_ID = `substr(path, instr(path, '/ad/') + 4)`;

type Ranked = { key: string; count: number };
type Bounded = Ranked & { bound: number };
/** SQLite's BINARY order of TEXT (its UTF-8 bytes), as ORDER BY path orders. */
const binary = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const byCountThenKey = (a: Ranked, b: Ranked) => b.count - a.count || binary(a.key, b.key);

/**
 * The staff's page-view figures, from the per-day counters of migration 0026 (kept by a trigger
 * on page_views), through the read-only connection: one read transaction, so that the figures
 * are of one moment, and the writer is never held.
 */
export class PageViewCounts {
  private readonly sqlite: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();
  private readonly allRowsMaxViews: number;
  private readonly firstRead: number;

  /** The options choose the way the top is found (tests take each way on a few views). */
  constructor(reader: Database.Database, opts: { allRowsMaxViews?: number; firstRead?: number } = {}) {
    this.sqlite = reader;
    this.allRowsMaxViews = opts.allRowsMaxViews ?? ALL_ROWS_MAX_VIEWS;
    this.firstRead = opts.firstRead ?? FIRST_READ;
  }

  private stmt(source: string): Database.Statement {
    let s = this.cache.get(source);
    if (!s) this.cache.set(source, (s = this.sqlite.prepare(source)));
    return s;
  }

  /** The statements prepared so far (tests check their plans). */
  prepared(): string[] {
    return [...this.cache.keys()];
  }

  /** Views on `sinceDay` (YYYY-MM-DD, UTC) and after: the total, per day, the most viewed paths and ads, per language. */
  summarize(sinceDay: string, top: number): Omit<PageViewSummary, 'days' | 'today'> {
    return this.sqlite.transaction(() => {
      const byDay = this.stmt('SELECT day, sum(n) AS count FROM page_view_days WHERE day >= ? GROUP BY day ORDER BY day').all(sinceDay) as {
        day: string;
        count: number;
      }[];
      const byLocale = this.stmt('SELECT locale, sum(n) AS count FROM page_view_days WHERE day >= ? GROUP BY locale ORDER BY locale').all(sinceDay) as {
        locale: PageLocale;
        count: number;
      }[];
      const total = byDay.reduce((s, d) => s + d.count, 0);
      let topPaths: Ranked[];
      let topAds: Ranked[];
      if (total <= this.allRowsMaxViews) {
        topPaths = this.stmt('SELECT path AS key, sum(n) AS count FROM page_view_paths WHERE day >= ? GROUP BY path ORDER BY count DESC, key LIMIT ?').all(
          sinceDay,
          top,
        ) as Ranked[];
        topAds = this.stmt(
          `SELECT ${AD_ID} AS key, sum(n) AS count FROM page_view_paths WHERE day >= ? AND ${adPath('path')} GROUP BY key ORDER BY count DESC, key LIMIT ?`,
        ).all(sinceDay, top) as Ranked[];
      } else {
        // A path's views in the window: its days in the window, or (a window of more than half the
        // views kept) its total less its days before the window, whichever are fewer rows; a day
        // at a time, by the primary key (day, path).
        const kept = Number(this.stmt('SELECT coalesce(sum(n), 0) FROM page_view_days').pluck().get());
        const count = (paths: string) =>
          total * 2 <= kept
            ? `(SELECT coalesce(sum(p.n), 0) FROM page_view_paths p WHERE p.path IN (${paths}) AND p.day IN (SELECT day FROM page_view_days WHERE day >= @since))`
            : `c.bound - (SELECT coalesce(sum(p.n), 0) FROM page_view_paths p WHERE p.path IN (${paths}) AND p.day IN (SELECT day FROM page_view_days WHERE day < @since))`;
        // The candidates are materialized first: their counts are read for them only.
        const paths = (which: string) =>
          this.stmt(`WITH c AS MATERIALIZED (SELECT path AS key, n AS bound FROM page_view_path_totals ${which})
            SELECT key, bound, ${count('c.key')} AS count FROM c`);
        const adTotals = `SELECT ${AD_ID} AS key, sum(n) AS bound FROM page_view_path_totals WHERE ${adPath('path')} GROUP BY key`;
        const ads = (which: string) =>
          this.stmt(`WITH c AS MATERIALIZED (${adTotals} ${which})
            SELECT key, bound, ${count(`'/ad/' || c.key, '/es/ad/' || c.key, '/pt/ad/' || c.key`)} AS count FROM c`);
        topPaths = topByBound(
          (limit) => paths('ORDER BY n DESC LIMIT @n').all({ since: sinceDay, n: limit }) as Bounded[],
          (least) => paths('WHERE n >= @n').all({ since: sinceDay, n: least }) as Bounded[],
          top,
          this.firstRead,
        );
        topAds = topByBound(
          (limit) => ads('ORDER BY bound DESC LIMIT @n').all({ since: sinceDay, n: limit }) as Bounded[],
          (least) => ads('HAVING bound >= @n').all({ since: sinceDay, n: least }) as Bounded[],
          top,
          this.firstRead,
        );
      }
      const titles = new Map(
        (
          this.stmt('SELECT id, title FROM ads WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(topAds.map((a) => a.key))) as {
            id: string;
            title: string;
          }[]
        ).map((a) => [a.id, a.title]),
      );
      return {
        total,
        byDay,
        topPaths: topPaths.map((r) => ({ path: r.key, count: r.count })),
        byLocale,
        topAds: topAds.map((r) => ({ adId: r.key, title: titles.get(r.key) ?? null, count: r.count })),
      };
    })();
  }
}

/** How many of the most viewed keys overall are counted first, to learn how many views the top needs. */
const FIRST_READ = 64;

/**
 * The `top` keys with the most views in the window (ties by key), each key known with its views
 * overall (`bound`: never fewer than in the window) and in the window. The most viewed keys
 * overall are counted first: the top's last count among them is at most the true top's last, so
 * a key with fewer views overall than it can neither enter nor tie, and only the keys with at
 * least that many are counted (none more when the first read already held them all).
 */
export function topByBound(mostOverall: (limit: number) => Bounded[], atLeast: (least: number) => Bounded[], top: number, firstRead = FIRST_READ): Ranked[] {
  const first = mostOverall(firstRead);
  const counts = first
    .map((r) => r.count)
    .filter((c) => c > 0)
    .sort((a, b) => b - a);
  const least = counts.length >= top ? counts[top - 1] : 1;
  const complete = first.length < firstRead || first[first.length - 1].bound < least;
  return (complete ? first : atLeast(least))
    .filter((r) => r.count > 0)
    .map((r) => ({ key: r.key, count: r.count }))
    .sort(byCountThenKey)
    .slice(0, top);
}

/**
 * Deletes up to `limit` page views made before `before` (the oldest first, by the `at` index);
 * how many. Small batches, each its own statement: the writer is never held for long.
 */
export async function purgePageViews(db: Executor, before: string, limit: number): Promise<number> {
  const r = await db
    .deleteFrom('page_views')
    .where('id', 'in', db.selectFrom('page_views').select('id').where('at', '<', before).orderBy('at').limit(limit))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Deletes up to `limit` per-day counters (migration 0026) of days before `beforeDay` (YYYY-MM-DD),
 * the oldest first; how many. The path totals follow by trigger.
 */
export async function purgePageViewCounts(db: Executor, beforeDay: string, limit: number): Promise<number> {
  const paths = await sql`DELETE FROM page_view_paths WHERE (day, path) IN
    (SELECT day, path FROM page_view_paths WHERE day < ${beforeDay} ORDER BY day LIMIT ${limit})`.execute(db);
  const n = Number(paths.numAffectedRows ?? 0);
  if (n >= limit) return n;
  const days = await sql`DELETE FROM page_view_days WHERE (day, locale) IN
    (SELECT day, locale FROM page_view_days WHERE day < ${beforeDay} ORDER BY day LIMIT ${limit - n})`.execute(db);
  return n + Number(days.numAffectedRows ?? 0);
}
