import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { auditRows } from './backup.testkit.ts';
import { migrate } from '../server/core/migrate.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
let dataDir: string;
let live: Database.Database;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-backup-'));
  // Stands in for the running server: a WAL database with an open connection.
  live = new Database(path.join(dataDir, 'xg.sqlite'));
  live.pragma('journal_mode = WAL');
  live.pragma('wal_autocheckpoint = 0'); // keep the rows in the WAL, where a plain file copy would miss them
  migrate(live);
  const insert = live.prepare("INSERT INTO audit_log (action, target_type, at) VALUES ('test', 'test', ?)");
  live.transaction(() => {
    for (let i = 0; i < 500; i++) insert.run(String(i));
  })();
});
afterEach(() => {
  live.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const env = () => ({ ...process.env, DATA_DIR: dataDir });
const run = (...args: string[]) => spawnSync(NODE, ['scripts/backup.ts', ...args], { cwd: ROOT, encoding: 'utf8', env: env() });

describe('scripts/backup.ts', () => {
  it('--help prints the usage', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: npm run backup/);
  });

  it('writes a consistent copy to DATA_DIR/backups while the database is open, including rows still in the WAL', () => {
    expect(fs.statSync(path.join(dataDir, 'xg.sqlite-wal')).size).toBeGreaterThan(0);
    const r = run();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const files = fs.readdirSync(path.join(dataDir, 'backups'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^xg-\d{4}-\d\d-\d\dT[\d-]+Z\.sqlite$/);
    expect(auditRows(path.join(dataDir, 'backups', files[0]))).toBe(500);
  });

  it('keeps the copy to the server user alone: the file 0600 in a 0700 backups folder (an older, open one is closed)', () => {
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), '{"jwtSecret":"x"}\n', { mode: 0o600 });
    const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);
    expect(run().status).toBe(0);
    const dir = path.join(dataDir, 'backups');
    const copies = () => fs.readdirSync(dir).filter((f) => f.endsWith('.sqlite'));
    expect([mode(dir), ...fs.readdirSync(dir).map((f) => mode(path.join(dir, f)))]).toEqual(['700', '600', '600']);
    fs.chmodSync(dir, 0o755); // made by an older version
    expect(run().status).toBe(0);
    expect(mode(dir)).toBe('700');
    expect(copies().map((f) => mode(path.join(dir, f)))).toEqual(['600', '600']);
    const out = path.join(dataDir, 'elsewhere', 'copy.sqlite');
    expect(run('--out', out).status).toBe(0);
    expect(mode(out)).toBe('600');
    expect(auditRows(out)).toBe(500);
  });

  it('honours --out, never overwrites, and fails without a database', async () => {
    const out = path.join(dataDir, 'elsewhere', 'copy.sqlite');
    // A writer keeps going while the backup runs: the copy holds a whole number of transactions.
    const child = spawn(NODE, ['scripts/backup.ts', '--out', out], { cwd: ROOT, env: env() });
    const insert = live.prepare("INSERT INTO audit_log (action, target_type, at) VALUES ('more', 'test', 'x')");
    live.transaction(() => {
      for (let i = 0; i < 100; i++) insert.run();
    })();
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(0);
    expect([500, 600]).toContain(auditRows(out));

    const again = run('--out', out);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists/);

    const bad = run('--nope');
    expect(bad.status).toBe(2);
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-empty-'));
    const none = spawnSync(NODE, ['scripts/backup.ts'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATA_DIR: empty } });
    fs.rmSync(empty, { recursive: true, force: true });
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/No database/);
  });

  it('finishes on a busy database: a 40 MB file the server writes to every 10 ms', async () => {
    const fill = live.prepare("INSERT INTO audit_log (action, target_type, at, after_json) VALUES ('fill', 'test', 'x', ?)");
    live.transaction(() => {
      for (let i = 0; i < 12_000; i++) fill.run('x'.repeat(3000));
    })();
    live.pragma('wal_checkpoint(TRUNCATE)');
    const write = live.prepare("INSERT INTO audit_log (action, target_type, at) VALUES ('pageview', 'test', 'x')");
    const writer = setInterval(() => write.run(), 10);
    const out = path.join(dataDir, 'busy.sqlite');
    const child = spawn(NODE, ['scripts/backup.ts', '--out', out], { cwd: ROOT, env: env() });
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(killer);
    clearInterval(writer);
    expect(status).toBe(0); // null: killed after 20 s, still starting over
    expect(auditRows(out)).toBeGreaterThanOrEqual(12_500);
  }, 60_000);

  /** Stored photos as the server writes them, and what else may lie in the folder. */
  const PHOTOS = ['ads/aaaaaaaaaaaaaaaaaaaaaaaa.webp', 'ads/bbbbbbbbbbbbbbbbbbbbbbbb.webp', 'avatars/cccccccccccccccccccccccc.webp'];
  function uploads() {
    const root = path.join(dataDir, 'uploads');
    for (const p of PHOTOS) {
      fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
      fs.writeFileSync(path.join(root, p), `photo ${p}`);
    }
    fs.writeFileSync(path.join(root, 'ads', 'dddddddddddddddddddddddd.webp.tmp'), 'half written'); // a post in progress
    fs.writeFileSync(path.join(root, 'README.txt'), 'an operator note');
    return root;
  }
  const listing = (dir: string) =>
    (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort();

  it('puts the photos beside the copy, hard-linked into a 0700 folder, stored uploads only; --no-uploads leaves them out', () => {
    const root = uploads();
    const out = path.join(dataDir, 'elsewhere', 'copy.sqlite');
    const r = run('--out', out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Put 3 upload files into .*copy\.uploads: 3 hard-linked \(no space taken\), 0 copied/);
    const copy = path.join(dataDir, 'elsewhere', 'copy.uploads');
    expect((fs.statSync(copy).mode & 0o777).toString(8)).toBe('700');
    expect(listing(copy)).toEqual([...PHOTOS].sort());
    for (const p of PHOTOS) expect(fs.statSync(path.join(copy, p)).ino).toBe(fs.statSync(path.join(root, p)).ino);
    // Removed from DATA_DIR (its ad deleted), the photo stays in the backup.
    fs.rmSync(path.join(root, PHOTOS[0]));
    expect(fs.readFileSync(path.join(copy, PHOTOS[0]), 'utf8')).toBe(`photo ${PHOTOS[0]}`);

    const again = run('--out', path.join(dataDir, 'elsewhere', 'copy.sqlite'));
    expect(again.status).toBe(1);
    const without = run('--out', path.join(dataDir, 'elsewhere', 'bare.sqlite'), '--no-uploads');
    expect(without.status).toBe(0);
    expect(fs.readdirSync(path.join(dataDir, 'elsewhere')).sort()).toEqual(['bare.sqlite', 'copy.sqlite', 'copy.uploads']);
    // A folder of that name already there: refused before anything is written.
    fs.mkdirSync(path.join(dataDir, 'elsewhere', 'taken.uploads'));
    const taken = run('--out', path.join(dataDir, 'elsewhere', 'taken.sqlite'));
    expect(taken.status).toBe(1);
    expect(taken.stderr).toMatch(/taken\.uploads already exists/);
    expect(fs.existsSync(path.join(dataDir, 'elsewhere', 'taken.sqlite'))).toBe(false);
  });

  it('walks the photos before and after copying the database: one added meanwhile and one deleted meanwhile are both in the copy', async () => {
    const root = uploads();
    // The database locked (as a long write would) holds the backup between its two walks.
    live.close();
    const blocker = new Database(path.join(dataDir, 'xg.sqlite'));
    blocker.pragma('locking_mode = EXCLUSIVE');
    blocker.exec('BEGIN EXCLUSIVE; COMMIT');
    const copy = path.join(dataDir, 'copy.uploads');
    const child = spawn(NODE, ['scripts/backup.ts', '--out', path.join(dataDir, 'copy.sqlite')], { cwd: ROOT, env: env() });
    const status = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const deadline = Date.now() + 4000; // the backup waits 5 s for the lock
      // Placed under the folder's temporary name until the copy is checked.
      while (!PHOTOS.every((p) => fs.existsSync(path.join(`${copy}.partial`, p)))) {
        if (Date.now() > deadline) throw new Error('the photos were not copied before the database');
        await new Promise((r) => setTimeout(r, 20));
      }
      fs.rmSync(path.join(root, PHOTOS[1]));
      fs.writeFileSync(path.join(root, 'ads', 'eeeeeeeeeeeeeeeeeeeeeeee.webp'), 'posted meanwhile');
    } finally {
      blocker.close();
    }
    expect(await status).toBe(0);
    expect(listing(copy)).toEqual([...PHOTOS, 'ads/eeeeeeeeeeeeeeeeeeeeeeee.webp'].sort());
    live = new Database(path.join(dataDir, 'xg.sqlite')); // for afterEach
  });

  it('copies the photos when the backup is on another filesystem', (ctx) => {
    const other = '/dev/shm';
    if (!fs.existsSync(other) || fs.statSync(other).dev === fs.statSync(dataDir).dev) ctx.skip();
    uploads();
    const dir = fs.mkdtempSync(path.join(other, 'xg-backup-'));
    try {
      const r = run('--out', path.join(dir, 'copy.sqlite'));
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/0 hard-linked \(no space taken\), 3 copied \(\d+ bytes\)/);
      expect(listing(path.join(dir, 'copy.uploads'))).toEqual([...PHOTOS].sort());
      for (const p of PHOTOS) expect(fs.readFileSync(path.join(dir, 'copy.uploads', p), 'utf8')).toBe(`photo ${p}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads DATA_DIR from a .env file in the working directory, as the server does', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-dotenv-'));
    try {
      fs.writeFileSync(path.join(dir, '.env'), `DATA_DIR=${dataDir}\n`);
      const { DATA_DIR: _unset, ...rest } = process.env;
      const r = spawnSync(NODE, [path.join(ROOT, 'scripts/backup.ts'), '--out', path.join(dataDir, 'from-env.sqlite')], {
        cwd: dir,
        encoding: 'utf8',
        env: rest,
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(auditRows(path.join(dataDir, 'from-env.sqlite'))).toBe(500);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a backup stopped halfway', () => {
  // A timer's deadline (systemd, cron's `timeout`), a deploy or Ctrl-C can stop a backup before it
  // ends. The copy, its photos and its secrets are written under <name>.partial and renamed only
  // once checked, and a SIGTERM removes them: nothing named like a finished backup is left, which
  // rotation ("keep the last 7") would keep and an operator could restore.
  it('leaves nothing named like a finished backup, nor partial files, when stopped by SIGTERM', async () => {
    // Large enough (45 MB, 200 photos) that the run is still going when it is stopped.
    const fill = live.prepare("INSERT INTO audit_log (action, target_type, at, after_json) VALUES ('fill', 'test', 'x', ?)");
    live.transaction(() => {
      for (let i = 0; i < 15_000; i++) fill.run('x'.repeat(3000));
    })();
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ jwtSecret: 'j'.repeat(40), webhookSecret: 'w'.repeat(40) }), { mode: 0o600 });
    const ads = path.join(dataDir, 'uploads', 'ads');
    fs.mkdirSync(ads, { recursive: true });
    for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(ads, `${String(i).padStart(24, 'a')}.webp`), `photo ${i}`);
    const backups = path.join(dataDir, 'backups');
    const child = spawn(NODE, ['scripts/backup.ts'], { cwd: ROOT, env: env() });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Stopped as soon as it has started writing (its photos folder is made before the database copy).
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (child.exitCode !== null || (fs.existsSync(backups) && fs.readdirSync(backups).some((f) => f.includes('.uploads')))) {
          clearInterval(t);
          resolve();
        }
      }, 2);
    });
    expect(child.exitCode).toBe(null); // still running: stopped halfway
    child.kill('SIGTERM');
    const status = await closed;
    expect(fs.readdirSync(backups), stderr).toEqual([]);
    expect(status).toBe(1);
    expect(stderr).toMatch(/Backup stopped by SIGTERM/);
    // The next run is not hindered by the one stopped, and leaves only finished names.
    expect(run().status).toBe(0);
    expect(fs.readdirSync(backups).filter((f) => f.endsWith('.partial'))).toEqual([]);
  }, 60_000);
});
