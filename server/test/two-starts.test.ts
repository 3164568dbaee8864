import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createDatabaseFile } from './ledger-property/file-app.ts';
import { US_STATES } from '../modules/locations/locations.data.ts';
import { startMainOnce } from './harness.ts';

// Two server processes starting together on one database file, as README "Two server processes
// on one file are supported" allows (two instances behind a load balancer, or a restart overlapping
// the old process): both serve. Who reaches a race first varies from start to start, so each test
// starts a pair several times, each on a new folder.

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');

const startServer = async (dir: string, env: Record<string, string>) => {
  const r = await startMainOnce(dir, env, 40_000);
  return { ...r, err: r.err.slice(-600) };
};

/**
 * Starts two servers together on one DATA_DIR that `prepare` made, `rounds` times (each on a new
 * DATA_DIR: who reaches the race first varies from start to start); what each start came to, until
 * a start fails.
 */
async function startPairs(prepare: (dir: string) => void, env: Record<string, string>, rounds = 3) {
  const seen: { served: boolean; code: number | null; err: string; masters?: number; states?: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-s6-start-'));
    try {
      prepare(dir);
      const pair = await Promise.all([startServer(dir, env), startServer(dir, env)]);
      seen.push(...pair.map((r) => ({ served: r.served, code: r.code, err: r.served ? '' : r.err })));
      const db = new Database(path.join(dir, 'data', 'xg.sqlite'), { readonly: true });
      const one = (q: string) => (db.prepare(q).get() as { n: number }).n;
      seen.push({
        served: true,
        code: 0,
        err: '',
        masters: one("SELECT count(*) AS n FROM user_roles WHERE role = 'MASTER_USER'"),
        states: one('SELECT count(*) AS n FROM states'),
      });
      db.close();
      if (pair.some((r) => !r.served)) break;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return seen;
}

describe('two server processes starting together on a fresh install', () => {
  // A database prepared with `npm run seed-locations` (migrated, no master), two instances started
  // with the same MASTER_EMAIL / MASTER_PASSWORD: both see "no master yet" (ensureMaster counts,
  // hashes, then inserts); the slower one's insert finds the e-mail taken and leaves theirs
  // standing (its start died on the Conflict).
  it('both serve, and there is one master account', async () => {
    const env = { JWT_SECRET: 'j'.repeat(40), MASTER_EMAIL: 'boss@example.com', MASTER_PASSWORD: 'a long master password 1' };
    const seen = await startPairs((dir) => {
      fs.mkdirSync(path.join(dir, 'data'), { mode: 0o700 });
      createDatabaseFile(path.join(dir, 'data', 'xg.sqlite')); // migrated and seeded, as `npm run seed-locations` leaves it
    }, env);
    expect(seen.filter((r) => !r.served)).toEqual([]);
    expect(seen.filter((r) => r.masters !== undefined).map((r) => r.masters)).toEqual([1, 1, 1]);
  }, 240_000);

  // `npm run create-user -- --role MASTER_USER` makes the first master (it migrates, it does not
  // load places); two instances started together both find the states table empty, and the slower
  // one asks again under the write lock (its inserts broke the unique keys and its start died).
  it('both serve after create-user made the master, and the places are loaded once', async () => {
    const env = { JWT_SECRET: 'j'.repeat(40), SEED_LOCATIONS: '1' };
    const seen = await startPairs((dir) => {
      const args = ['--email', 'boss@example.com', '--password', 'a long master password 1', '--role', 'MASTER_USER'];
      execFileSync(NODE, [path.join(ROOT, 'scripts/create-user.ts'), ...args], {
        cwd: dir,
        env: { PATH: process.env.PATH!, NODE_ENV: 'development', DATA_DIR: path.join(dir, 'data'), ...env },
        stdio: 'ignore',
      });
    }, env);
    expect(seen.filter((r) => !r.served)).toEqual([]);
    expect(seen.filter((r) => r.states !== undefined).map((r) => [r.masters, r.states])).toEqual([
      [1, US_STATES.length],
      [1, US_STATES.length],
      [1, US_STATES.length],
    ]);
  }, 240_000);
});
