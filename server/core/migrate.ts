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
 * How long a process starting waits for another one applying migrations on the same file: far
 * above the longest migration (0013/0014 take 14-16 s at a million ads), so an upgrade's second
 * process waits and starts instead of dying with "database is locked" after busy_timeout (5 s).
 */
export const MIGRATION_WAIT_MS = 10 * 60_000;

export interface MigrateOptions {
  /** Told once, when another process holds the write lock longer than busy_timeout. */
  onWait?: () => void;
  waitMs?: number;
}

const waitNotice = () => console.warn('Another process is applying migrations to this database: waiting for it to finish.');

/**
 * Applies pending forward-only migrations, each in one transaction with its bookkeeping row.
 * Refuses to run on a database that has a migration this code does not know (newer than the code).
 * Waits (up to MIGRATION_WAIT_MS) while another process holds the write lock, as one applying
 * migrations does; it then finds them applied.
 */
export function migrate(sqlite: Database.Database, migrations = readMigrations(), options: MigrateOptions = {}): string[] {
  const { onWait = waitNotice, waitMs = MIGRATION_WAIT_MS } = options;
  let told = false;
  const waiting = () => {
    if (!told) onWait();
    told = true;
  };
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
    if (takingTheLock(() => apply.immediate(), waiting, waitMs)) ran.push(m.name);
  }
  return ran;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `write` again while it fails with SQLITE_BUSY: each try waits busy_timeout for the write
 * lock, so a process applying a long migration elsewhere is waited for, not raced. Any other error,
 * or a lock held past `waitMs`, is thrown.
 */
function takingTheLock<T>(write: () => T, onWait: () => void, waitMs: number): T {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return write();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() >= deadline) throw e;
      onWait();
      Atomics.wait(pause, 0, 0, 50); // a connection without busy_timeout would otherwise spin
    }
  }
}
