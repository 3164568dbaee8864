-- US states (50 + DC) and their cities. Location ids are not secret (unlike users and ads), so
-- they are stable and readable: a state's id is its lowercase USPS code ('ny'), a city's id is its
-- GeoNames id. The same seed on any machine gives the same ids, so links and fixtures travel.
CREATE TABLE states (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  code TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  country_code TEXT NOT NULL DEFAULT 'US',
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1))
);
CREATE INDEX states_name ON states (name);

CREATE TABLE cities (
  id TEXT PRIMARY KEY,
  state_id TEXT NOT NULL REFERENCES states (id),
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  population INTEGER NOT NULL DEFAULT 0 CHECK (population >= 0),
  latitude REAL NOT NULL,
  longitude REAL NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1))
);
-- Slugs are unique within a state (the seed suffixes duplicates: 'springfield', 'springfield-2').
CREATE UNIQUE INDEX cities_state_slug ON cities (state_id, slug);
-- Lists of a state's cities come largest first.
CREATE INDEX cities_state_population ON cities (state_id, population DESC);
