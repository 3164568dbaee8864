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
