import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';

const ROOT = path.resolve(import.meta.dirname, '..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-seed-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('scripts/seed-locations.ts', () => {
  it('--help prints the usage', () => {
    const r = spawnSync(NODE, ['scripts/seed-locations.ts', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: npm run seed-locations/);
  });

  it('reads DATA_DIR from a .env file in the working directory, as the server does', () => {
    const configured = path.join(dir, 'configured-data');
    fs.writeFileSync(path.join(dir, '.env'), `DATA_DIR=${configured}\n`);
    const { DATA_DIR: _unset, ...rest } = process.env;
    const r = spawnSync(NODE, [path.join(ROOT, 'scripts/seed-locations.ts')], { cwd: dir, encoding: 'utf8', env: rest });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(path.join(configured, 'xg.sqlite'));
    expect(fs.existsSync(path.join(dir, 'data'))).toBe(false);
    const db = new Database(path.join(configured, 'xg.sqlite'), { readonly: true });
    try {
      expect((db.prepare('SELECT count(*) AS n FROM states').get() as { n: number }).n).toBe(51);
    } finally {
      db.close();
    }
  }, 60_000);

  // After a rollback of the code, or on a copy from a newer install: the one sentence of the
  // refusal (upgrade the code) and exit 1, never Node's uncaught-exception dump around it.
  it('refuses a database newer than the code in one sentence, exit 1, no stack trace', () => {
    const db = new Database(path.join(dir, 'xg.sqlite'));
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(9999, '9999_from_the_future.sql', 'x');
    db.close();
    const r = spawnSync(NODE, ['scripts/seed-locations.ts'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATA_DIR: dir } });
    expect({ status: r.status, stderr: r.stderr.trim() }).toEqual({
      status: 1,
      stderr: 'The database is newer than this code (it has migration 9999_from_the_future.sql). Upgrade the code before starting.',
    });
  });
});
