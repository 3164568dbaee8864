/** Kysely's view of migration 0002. `enabled` is SQLite's 0/1. */
export interface LocationsTables {
  states: {
    id: string; // lowercase USPS code, e.g. 'ny'
    name: string;
    code: string; // 'NY'
    slug: string; // 'new-york'
    country_code: string;
    enabled: number;
  };
  cities: {
    id: string; // GeoNames id
    state_id: string;
    name: string;
    slug: string;
    population: number;
    latitude: number;
    longitude: number;
    enabled: number;
  };
}
