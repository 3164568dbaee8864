import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './db.ts';
import { migrate, readMigrations } from './migrate.ts';

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
});
