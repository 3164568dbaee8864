import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { City, State } from '../../../contract/api/locations.ts';

/** What the API sends (contract/api/locations.ts). */
export type StateDto = State;
export type CityDto = City;

const STATE_COLUMNS = ['id', 'name', 'code', 'slug', 'country_code', 'enabled'] as const;
const CITY_COLUMNS = ['id', 'state_id', 'name', 'slug', 'population', 'latitude', 'longitude', 'enabled'] as const;

type StateRow = { id: string; name: string; code: string; slug: string; country_code: string; enabled: number };
type CityRow = { id: string; state_id: string; name: string; slug: string; population: number; latitude: number; longitude: number; enabled: number };

const toState = (r: StateRow): StateDto => ({ id: r.id, name: r.name, code: r.code, slug: r.slug, countryCode: r.country_code, enabled: r.enabled === 1 });
const toCity = (r: CityRow): CityDto => ({
  id: r.id,
  stateId: r.state_id,
  name: r.name,
  slug: r.slug,
  population: r.population,
  latitude: r.latitude,
  longitude: r.longitude,
  enabled: r.enabled === 1,
});

/** Every state, by name (disabled ones included: callers filter). */
export async function listStates(db: Executor): Promise<StateDto[]> {
  return (await db.selectFrom('states').select(STATE_COLUMNS).orderBy('name').execute()).map(toState);
}

/** A state by id ('ny'), code ('NY') or slug ('new-york'). */
export async function findState(db: Executor, idOrSlug: string): Promise<StateDto | null> {
  const key = idOrSlug.trim().toLowerCase();
  const row = await db
    .selectFrom('states')
    .select(STATE_COLUMNS)
    .where((eb) => eb.or([eb('id', '=', key), eb('slug', '=', key)]))
    .executeTakeFirst();
  return row ? toState(row) : null;
}

/** Every city of a state, largest first (disabled ones included: callers filter). */
export async function listCitiesOfState(db: Executor, stateId: string): Promise<CityDto[]> {
  const rows = await db.selectFrom('cities').select(CITY_COLUMNS).where('state_id', '=', stateId).orderBy('population', 'desc').orderBy('id').execute();
  return rows.map(toCity);
}

/** One page of a state's cities for staff, optionally filtered by name or slug. */
export async function pageCities(
  db: Executor,
  q: { stateId: string; query: string | null; offset: number; limit: number },
): Promise<{ cities: CityDto[]; total: number }> {
  let base = db.selectFrom('cities').where('state_id', '=', q.stateId);
  if (q.query) {
    const like = `%${q.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where(sql<boolean>`(name LIKE ${like} ESCAPE '\\' OR slug LIKE ${like} ESCAPE '\\')`);
  }
  const [rows, count] = await Promise.all([
    base.select(CITY_COLUMNS).orderBy('population', 'desc').orderBy('id').limit(q.limit).offset(q.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { cities: rows.map(toCity), total: Number(count.n) };
}

export async function citiesByIds(db: Executor, stateId: string, ids: string[]): Promise<CityDto[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('cities').select(CITY_COLUMNS).where('state_id', '=', stateId).where('id', 'in', ids).execute();
  return rows.map(toCity);
}

export async function setStateEnabled(db: Executor, stateId: string, enabled: boolean): Promise<void> {
  await db
    .updateTable('states')
    .set({ enabled: enabled ? 1 : 0 })
    .where('id', '=', stateId)
    .execute();
}

export async function setCitiesEnabled(db: Executor, stateId: string, ids: string[], enabled: boolean): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable('cities')
    .set({ enabled: enabled ? 1 : 0 })
    .where('state_id', '=', stateId)
    .where('id', 'in', ids)
    .execute();
}
