import type Database from 'better-sqlite3';

// The public read path's statements and place names: the cache that prepares each statement once
// per app, and the in-process cache of places. The reads themselves extend it:
// listings.search.repository.ts (search, the change feed) and listings.repository.ts (ads, places, lists).
//
// These are the hottest queries of the product, so they are plain SQL on better-sqlite3 statements
// prepared once per app (Kysely compiles and re-prepares every call, which halves a point read's
// throughput), all on the read-only connection.

// Every bound value is written CAST(? AS TEXT) or CAST(? AS INTEGER), except the search words
// (MATCH) and the search's numbers (json_each). SQLite (3.54) reads the value bound to a bare `?`
// in LIMIT or OFFSET, or in an equality while it chooses how to order the rows, to plan with it,
// and then re-prepares the statement on every run: a listing page's statement was compiled again
// for each read, 15–20 µs of a 25–30 µs read (`node` on the benchmark's database: a city's cards
// 29.3 → 10.5 µs, the change log 12.4 → 2.2 µs). Behind a CAST the planner sees an expression it
// cannot read, the plan is the same (the same index, read the same way) and is kept.
export const TEXT = 'CAST(? AS TEXT)';
export const INT = 'CAST(? AS INTEGER)';

export interface Place {
  id: string;
  name: string;
  slug: string;
  code?: string;
}

export class PublicStatements {
  readonly sqlite: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();
  private readonly places = new Map<string, Place>();

  /** Reads through `reader`: the read-only connection (committed rows only). */
  constructor(reader: Database.Database) {
    this.sqlite = reader;
  }

  protected stmt(key: string, sql: () => string): Database.Statement {
    let s = this.cache.get(key);
    if (!s) this.cache.set(key, (s = this.sqlite.prepare(sql())));
    return s;
  }

  /** The statements prepared so far, by key, with their SQL (tests check how they bind values and what plans they get). */
  prepared(): { key: string; source: string }[] {
    return [...this.cache].map(([key, s]) => ({ key, source: s.source }));
  }

  place(kind: 'state' | 'city', id: string): Place {
    const key = `${kind}:${id}`;
    let p = this.places.get(key);
    if (!p) {
      const sql = kind === 'state' ? `SELECT id, name, slug, code FROM states WHERE id = ${TEXT}` : `SELECT id, name, slug FROM cities WHERE id = ${TEXT}`;
      p = (this.stmt(`place:${kind}`, () => sql).get(id) as Place | undefined) ?? { id, name: '', slug: '' };
      this.places.set(key, p);
    }
    return p;
  }
}
