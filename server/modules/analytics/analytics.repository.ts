import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { PageLocale, PageViewSummary } from '../../../contract/api/analytics.ts';

export async function insertPageView(db: Executor, v: { path: string; locale: PageLocale; referrerHost: string | null; at: string }): Promise<void> {
  await db.insertInto('page_views').values({ path: v.path, locale: v.locale, referrer_host: v.referrerHost, at: v.at }).execute();
}

/** Views since a moment: the total, per UTC day, and the most viewed paths. */
export async function summarize(db: Executor, since: string, top: number): Promise<Omit<PageViewSummary, 'days'>> {
  const base = db.selectFrom('page_views').where('at', '>=', since);
  // Ad pages are /ad/<id>, /es/ad/<id>, /pt/ad/<id>: the id is what follows '/ad/'.
  const adId = sql<string>`substr(path, instr(path, '/ad/') + 4)`;
  const [total, byDay, topPaths, byLocale, topAds] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base
      .select([sql<string>`substr(at, 1, 10)`.as('day'), (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(sql`substr(at, 1, 10)`)
      .orderBy('day')
      .execute(),
    base
      .select(['path', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('path')
      .orderBy('count', 'desc')
      .orderBy('path')
      .limit(top)
      .execute(),
    base
      .select(['locale', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('locale')
      .orderBy('locale')
      .execute(),
    base
      // GLOB, not LIKE: case matters (/AD/x is no ad page, only its 404).
      .where(sql<boolean>`(path GLOB '/ad/*' OR path GLOB '/es/ad/*' OR path GLOB '/pt/ad/*')`)
      .leftJoin('ads', (join) => join.on('ads.id', '=', adId))
      .select([adId.as('ad_id'), 'ads.title', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(adId)
      .orderBy('count', 'desc')
      .orderBy('ad_id')
      .limit(top)
      .execute(),
  ]);
  return {
    total: Number(total.n),
    byDay: byDay.map((r) => ({ day: r.day, count: Number(r.count) })),
    topPaths: topPaths.map((r) => ({ path: r.path, count: Number(r.count) })),
    byLocale: byLocale.map((r) => ({ locale: r.locale, count: Number(r.count) })),
    topAds: topAds.map((r) => ({ adId: r.ad_id, title: r.title ?? null, count: Number(r.count) })),
  };
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
