import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';

// The site module reads other modules' tables (states, cities, ads) only to name pages and list
// them in the sitemap. Each read first checks that the table exists, so the site keeps working
// on a database where that module has not been migrated yet.

export async function tableExists(db: Executor, name: string): Promise<boolean> {
  const r = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ${name}`.execute(db);
  return Number(r.rows[0]?.n ?? 0) > 0;
}

/** An enabled state by slug; undefined when absent or disabled. */
export async function findStateBySlug(db: Executor, slug: string): Promise<{ id: string; name: string } | undefined> {
  return db.selectFrom('states').select(['id', 'name']).where('slug', '=', slug).where('enabled', '=', 1).executeTakeFirst();
}

export async function findCityBySlug(db: Executor, stateId: string, slug: string): Promise<{ id: string; name: string } | undefined> {
  return db.selectFrom('cities').select(['id', 'name']).where('state_id', '=', stateId).where('slug', '=', slug).where('enabled', '=', 1).executeTakeFirst();
}

export async function enabledStateSlugs(db: Executor): Promise<string[]> {
  return (await db.selectFrom('states').select('slug').where('enabled', '=', 1).orderBy('slug').execute()).map((r) => r.slug);
}

/**
 * Every (state, city, listing type) with at least one publicly visible ad: approved, online,
 * not expired (`visible` also covers the owner's status and enabled places).
 */
export async function placesWithAds(db: Executor, now: string): Promise<Array<{ stateSlug: string; citySlug: string; listingType: string }>> {
  const rows = await db
    .selectFrom('ads as a')
    .innerJoin('cities as c', 'c.id', 'a.city_id')
    .innerJoin('states as s', 's.id', 'a.state_id')
    .select(['s.slug as stateSlug', 'c.slug as citySlug', 'a.listing_type as listingType'])
    .where('a.status', '=', 'approved')
    .where('a.online', '=', 1)
    .where('a.visible', '=', 1)
    .where('a.expires_at', '>', now)
    .where('c.enabled', '=', 1)
    .where('s.enabled', '=', 1)
    .distinct()
    .orderBy('s.slug')
    .orderBy('c.slug')
    .orderBy('a.listing_type')
    .execute();
  return rows;
}
