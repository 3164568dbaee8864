import type Database from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

// Prepared statements kept by SQL, for the writer's connection (db.ts) and the off-thread reads'
// worker (read-worker.ts). Type-only imports: the worker loads better-sqlite3 and this, no Kysely.

/** The most statements the writer keeps prepared (the distinct queries the app runs, with room for IN lists of many lengths). */
export const KEPT_STATEMENTS = 256;

/**
 * A connection as Kysely sees it, keeping its prepared statements by SQL (the least recently used
 * go first past `limit`). Kysely's driver prepares every query it runs, and preparing a write to
 * `ads` compiles its triggers' programs too: at a million ads 190 µs for an online/offline change
 * and 320 µs for the visibility update after it, ~1 ms of every flip spent compiling the same
 * statements on the event loop. SQLite prepares a kept statement again by itself when the schema
 * changed. One busy iterating (Kysely's stream()) is not handed out twice.
 */
export function keepingStatements(sqlite: Database.Database, limit = KEPT_STATEMENTS): SqliteDatabase & { readonly kept: number } {
  const kept = new Map<string, Database.Statement>();
  return {
    get kept() {
      return kept.size;
    },
    close: () => sqlite.close(),
    prepare(source: string) {
      const known = kept.get(source);
      kept.delete(source);
      const stmt = known && !known.busy ? known : sqlite.prepare(source);
      kept.set(source, stmt);
      if (kept.size > limit) kept.delete(kept.keys().next().value!);
      return stmt;
    },
  };
}
