import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/db.ts';
import { migrate } from '../../core/migrate.ts';
import { buildSeedCities, seedLocations } from './locations.seed.ts';
import { slugify } from './locations.data.ts';

const place = (cityId: number, name: string, adminCode: string, population: number) => ({
  cityId,
  name,
  country: 'US',
  adminCode,
  population,
  loc: { coordinates: [-70, 40] as [number, number] },
});

describe('seedLocations', () => {
  it('loads the 51 states and every US city of 1,000+ people, quickly, once', () => {
    const { sqlite, db } = openDatabase(':memory:');
    migrate(sqlite);
    // CPU time, not wall time: the seed is synchronous, and on a busy machine (test files run in
    // parallel) wall time mostly measures waiting for a core.
    const cpu0 = process.cpuUsage();
    const first = seedLocations(sqlite);
    const cpu = process.cpuUsage(cpu0);
    const ms = (cpu.user + cpu.system) / 1000;
    expect(first.states).toBe(51);
    expect(first.cities).toBeGreaterThan(16_000);
    // Budget: main.ts seeds on first start, and the tests' global setup seeds their template once a run.
    expect(ms).toBeLessThan(1000);

    const n = (q: string) => (sqlite.prepare(q).get() as { n: number }).n;
    expect(n('SELECT count(*) AS n FROM states')).toBe(51);
    expect(n('SELECT count(*) AS n FROM cities')).toBe(first.cities);
    expect(n('SELECT count(*) AS n FROM states s WHERE NOT EXISTS (SELECT 1 FROM cities c WHERE c.state_id = s.id)')).toBe(0);
    expect(n('SELECT count(*) AS n FROM (SELECT 1 FROM cities GROUP BY state_id, slug HAVING count(*) > 1)')).toBe(0);
    expect(n("SELECT count(*) AS n FROM cities WHERE slug NOT GLOB '[a-z0-9]*' OR slug GLOB '*[^a-z0-9-]*' OR population < 1000")).toBe(0);
    expect(n('SELECT count(*) AS n FROM states WHERE enabled = 0') + n('SELECT count(*) AS n FROM cities WHERE enabled = 0')).toBe(0);

    expect(sqlite.prepare("SELECT id, name, code, slug, country_code FROM states WHERE code = 'DC'").get()).toEqual({
      id: 'dc',
      name: 'District of Columbia',
      code: 'DC',
      slug: 'district-of-columbia',
      country_code: 'US',
    });
    const nyc = sqlite.prepare("SELECT name, slug, latitude, longitude FROM cities WHERE state_id = 'ny' ORDER BY population DESC LIMIT 1").get() as Record<
      string,
      number | string
    >;
    expect(nyc).toMatchObject({ name: 'New York City', slug: 'new-york-city' });
    expect(nyc.latitude).toBeCloseTo(40.7, 0);
    expect(nyc.longitude).toBeCloseTo(-74, 0);

    expect(seedLocations(sqlite)).toEqual({ states: 0, cities: 0 });
    expect(n('SELECT count(*) AS n FROM cities')).toBe(first.cities);
    void db.destroy();
  });

  it('keeps the plain slug for the largest namesake and suffixes the others by population', () => {
    const cities = buildSeedCities([
      place(1, 'Springfield', 'IL', 5000),
      place(2, 'Springfield', 'IL', 116000),
      place(3, 'Springfield', 'IL', 2000),
      place(4, 'Springfield', 'MA', 150000),
      place(5, 'Springfield 2', 'IL', 1500), // its natural slug is taken by then
      place(6, 'Tiny', 'IL', 999),
      place(7, 'Toronto', 'ON', 2_000_000),
      { ...place(8, 'Paris', 'TX', 25000), country: 'FR' },
    ]);
    const slugOf = Object.fromEntries(cities.map((c) => [c.id, `${c.stateId}/${c.slug}`]));
    expect(slugOf).toEqual({ 2: 'il/springfield', 1: 'il/springfield-2', 3: 'il/springfield-3', 5: 'il/springfield-2-2', 4: 'ma/springfield' });
  });

  it('makes ASCII slugs', () => {
    expect(slugify('Cañon City')).toBe('canon-city');
    expect(slugify("Coeur d'Alene")).toBe('coeur-d-alene');
    expect(slugify('‘Ewa Beach')).toBe('ewa-beach');
    expect(slugify('District of Columbia')).toBe('district-of-columbia');
    expect(slugify('‘‘')).toBe('place');
  });
});
