import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openDatabase } from './db.ts';
import { migrate, readMigrations } from './migrate.ts';
import { freePort } from '../test/harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
let dataDir = '';
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A second server process starting on the same file: migrates, says how many it applied (or what it threw). */
const SECOND = `
import path from 'node:path';
import { openDatabase } from '${ROOT}/server/core/db.ts';
import { migrate } from '${ROOT}/server/core/migrate.ts';
const database = openDatabase(path.join(process.env.DATA_DIR, 'xg.sqlite'));
try {
  console.log(JSON.stringify({ applied: migrate(database.sqlite).length }));
} catch (e) {
  console.log(JSON.stringify({ error: e.message }));
}
await database.close();
`;

describe('migrate', () => {
  it('two processes starting together on a database that needs migrations: the one that waited applies none again', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-migrate-'));
    const first = openDatabase(path.join(dataDir, 'xg.sqlite'));
    // The first process is applying every migration (holding the write lock) ...
    first.sqlite.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    first.sqlite.exec('BEGIN IMMEDIATE');
    for (const m of readMigrations()) {
      first.sqlite.exec(m.sql);
      first.sqlite.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, 'x');
    }
    // ... when the second reads what is applied (nothing yet) and waits for the lock.
    const child = spawn(NODE, ['--input-type=module', '-e', SECOND], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir } });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    await new Promise((r) => setTimeout(r, 1000));
    first.sqlite.exec('COMMIT');
    await new Promise((r) => child.on('close', r));
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ applied: 0 });
    expect(migrate(first.sqlite)).toEqual([]);
    await first.close();
  }, 30_000);

  it('a second server starting while the first applies a migration longer than busy_timeout (5 s) waits for it and serves', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-migrate-'));
    const first = new Database(path.join(dataDir, 'xg.sqlite'));
    first.pragma('journal_mode = WAL');
    // The first process is upgrading: it holds the write lock, as a long migration does, until the
    // second has waited past its busy_timeout (it says so) or has died of it.
    first.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    first.exec('BEGIN IMMEDIATE');
    for (const m of readMigrations()) {
      first.exec(m.sql);
      first.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, 'x');
    }
    const port = await freePort();
    const child = spawn(NODE, ['server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        CRON: '0',
        SEED_LOCATIONS: '0',
        JWT_SECRET: 'j'.repeat(40),
      },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const exited = new Promise((r) => child.on('exit', r));
    try {
      for (const deadline = Date.now() + 20_000; !output.includes('applying migrations') && child.exitCode === null && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 100));
      first.exec('COMMIT');
      first.close();
      let serving = false;
      for (const deadline = Date.now() + 20_000; !serving && child.exitCode === null && Date.now() < deadline;) {
        serving = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (!serving) await new Promise((r) => setTimeout(r, 100));
      }
      expect({ serving, locked: /database is locked/.test(output), waitNotices: output.match(/applying migrations to this database/g)?.length ?? 0 }).toEqual({
        serving: true,
        locked: false,
        waitNotices: 1,
      });
    } finally {
      if (first.open) first.close();
      child.kill('SIGTERM');
      await exited;
    }
  }, 40_000);

  it("gives up, with SQLite's own error, on a write lock held past the wait, having said once that it waits", () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-migrate-'));
    const file = path.join(dataDir, 'xg.sqlite');
    const holder = new Database(file);
    holder.pragma('journal_mode = WAL');
    holder.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    holder.exec('BEGIN IMMEDIATE');
    const waiter = new Database(file);
    waiter.pragma('busy_timeout = 50');
    let notices = 0;
    try {
      expect(() => migrate(waiter, readMigrations(), { waitMs: 400, onWait: () => notices++ })).toThrow(/database is locked/);
      expect(notices).toBe(1);
    } finally {
      waiter.close();
      holder.close();
    }
  });
});
