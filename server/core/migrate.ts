import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../migrations/sqlite');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f, sql: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/**
 * The database has a migration this code does not know (after a rollback of the code, or a copy
 * from a newer install). Its own class so that the server and the commands print the one sentence
 * and exit, rather than crash with a stack trace around it.
 */
export class NewerDatabaseError extends Error {}

/**
 * Applies pending forward-only migrations, each in one transaction with its bookkeeping row.
 * Refuses to run on a database that has a migration this code does not know (newer than the code).
 */
export function migrate(sqlite: Database.Database, migrations = readMigrations()): string[] {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = sqlite.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number; name: string }[];
  const known = new Map(migrations.map((m) => [m.version, m]));
  const unknown = applied.filter((a) => !known.has(a.version));
  if (unknown.length) {
    throw new NewerDatabaseError(
      `The database is newer than this code (it has migration ${unknown.map((u) => u.name).join(', ')}). Upgrade the code before starting.`,
    );
  }
  const done = new Set(applied.map((a) => a.version));
  const ran: string[] = [];
  const isApplied = sqlite.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    // Asked again under the write lock: another process starting on the same file may have applied it meanwhile.
    const apply = sqlite.transaction(() => {
      if (isApplied.get(m.version)) return false;
      sqlite.exec(m.sql);
      sqlite.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
      return true;
    });
    if (apply.immediate()) ran.push(m.name);
  }
  return ran;
}
