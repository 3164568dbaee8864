import type Database from 'better-sqlite3';

/** Loads states and cities when the tables are empty. Returns how many cities were inserted. */
export function seedLocations(_sqlite: Database.Database): { states: number; cities: number } {
  return { states: 0, cities: 0 }; // built by the locations module
}
