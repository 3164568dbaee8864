import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type Transaction } from 'kysely';
import type { DB } from './schema.ts';

export type Db = Kysely<DB>;
export type Trx = Transaction<DB>;
/** A Kysely handle or an open transaction: repositories take either. */
export type Executor = Db | Trx;

export interface Database_ {
  sqlite: Database.Database;
  db: Db;
  close(): Promise<void>;
}

/** Opens the SQLite file (or ':memory:', or an in-memory copy of a serialized database) with our pragmas. */
export function openDatabase(source: string | Buffer): Database_ {
  const sqlite = typeof source === 'string' ? new Database(source) : new Database(source);
  applyPragmas(sqlite, typeof source === 'string' && source !== ':memory:');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    sqlite,
    db,
    async close() {
      await db.destroy(); // closes the better-sqlite3 handle too
    },
  };
}

export function applyPragmas(sqlite: Database.Database, onDisk: boolean): void {
  if (onDisk) {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('mmap_size = 268435456'); // 256 MiB of the file read through the page cache, not read()
  }
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('cache_size = -65536'); // 64 MiB page cache
}

/** ISO-8601 UTC text is how every timestamp is stored: it sorts and compares as text. */
export function iso(d: Date): string {
  return d.toISOString();
}
