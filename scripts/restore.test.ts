import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { auditRows } from './backup.testkit.ts';
import { openDatabase } from '../server/core/db.ts';
import { migrate, readMigrations } from '../server/core/migrate.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const SECRETS = '{\n  "jwtSecret": "jwt-secret-of-the-backed-up-install-0123456789",\n  "webhookSecret": "webhook-secret-of-the-backed-up-install-012345"\n}\n';
const PHOTOS = ['ads/aaaaaaaaaaaaaaaaaaaaaaaa.webp', 'ads/bbbbbbbbbbbbbbbbbbbbbbbb.webp', 'avatars/cccccccccccccccccccccccc.webp'];
let tmp: string;
let source: string; // the backed-up install's DATA_DIR
let target: string; // the DATA_DIR restored into (not made yet)
let backup: string; // written by scripts/backup.ts
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-restore-'));
  source = path.join(tmp, 'source');
  target = path.join(tmp, 'target');
  backup = path.join(tmp, 'backups', 'xg-test.sqlite');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const run = (script: string, dataDir: string, ...args: string[]) =>
  spawnSync(NODE, [`scripts/${script}.ts`, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATA_DIR: dataDir } });
const restore = (...args: string[]) => run('restore', target, ...args);

/** An install as the server leaves it (WAL database, secrets, photos), and its backup by scripts/backup.ts. */
function backedUpInstall(opts: { rows?: number; migrations?: number } = {}) {
  fs.mkdirSync(source, { recursive: true });
  const live = openDatabase(path.join(source, 'xg.sqlite'), { readConnection: false });
  migrate(live.sqlite, opts.migrations === undefined ? undefined : readMigrations().slice(0, opts.migrations));
  const insert = live.sqlite.prepare("INSERT INTO audit_log (action, target_type, at, after_json) VALUES ('test', 'test', ?, ?)");
  live.sqlite.transaction(() => {
    for (let i = 0; i < (opts.rows ?? 500); i++) insert.run(String(i), 'x'.repeat(300));
  })();
  fs.writeFileSync(path.join(source, 'secrets.json'), SECRETS, { mode: 0o600 });
  for (const p of PHOTOS) {
    fs.mkdirSync(path.dirname(path.join(source, 'uploads', p)), { recursive: true });
    fs.writeFileSync(path.join(source, 'uploads', p), `photo ${p}`);
  }
  const r = run('backup', source, '--out', backup);
  live.sqlite.close();
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}

/** Every file under a folder, with its bytes: what a refused restore must leave as it was. */
const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((e) => e.isFile())
      .map((e) => {
        const p = path.join(e.parentPath, e.name);
        return [path.relative(dir, p), fs.readFileSync(p).toString('base64')];
      }),
  );
const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);

/** Another install in `target`: its own database (some rows still in its WAL, as a crash leaves them), secrets and a photo. */
function existingInstall() {
  fs.mkdirSync(path.join(target, 'uploads', 'ads'), { recursive: true });
  const db = new Database(path.join(target, 'xg.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  migrate(db);
  db.exec("INSERT INTO audit_log (action, target_type, at) VALUES ('old', 'test', '1'), ('old', 'test', '2'), ('old', 'test', '3')");
  // Copied while open, as a server killed mid-way leaves them: the rows are in the -wal alone.
  const crashed = path.join(tmp, 'crashed');
  fs.mkdirSync(crashed);
  for (const f of ['xg.sqlite', 'xg.sqlite-wal']) fs.copyFileSync(path.join(target, f), path.join(crashed, f));
  db.close();
  for (const f of ['xg.sqlite', 'xg.sqlite-wal']) fs.copyFileSync(path.join(crashed, f), path.join(target, f));
  fs.writeFileSync(
    path.join(target, 'secrets.json'),
    '{"jwtSecret":"another-install-jwt-secret-0123456789","webhookSecret":"another-install-webhook-0123456789"}\n',
    {
      mode: 0o600,
    },
  );
  fs.writeFileSync(path.join(target, 'uploads', 'ads', 'dddddddddddddddddddddddd.webp'), 'a photo of the other install');
}

describe('scripts/restore.ts', () => {
  it('--help prints the usage; a missing --from or an unknown option is a usage error', () => {
    const help = restore('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: npm run restore -- --from/);
    expect(restore().status).toBe(2);
    expect(restore('--from', backup, '--nope').status).toBe(2);
    const none = restore('--from', path.join(tmp, 'none.sqlite'));
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/No backup file/);
  });

  it('restores a backup into a new DATA_DIR: a single 0600 file the app opens, with the same rows, its secrets and its photos', async () => {
    backedUpInstall();
    const r = restore('--from', backup);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/no migration to apply/);
    expect(fs.readdirSync(target).sort()).toEqual(['secrets.json', 'uploads', 'xg.sqlite']); // no -wal, -shm or temporary file
    expect(mode(path.join(target, 'xg.sqlite'))).toBe('600');
    const database = openDatabase(path.join(target, 'xg.sqlite'));
    try {
      expect(migrate(database.sqlite)).toEqual([]);
      expect((database.reader.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }).n).toBe(500);
    } finally {
      await database.close();
    }
    expect(fs.readFileSync(path.join(target, 'secrets.json'), 'utf8')).toBe(SECRETS);
    expect(mode(path.join(target, 'secrets.json'))).toBe('600');
    expect(r.stdout).toMatch(/Restored the secrets/);
    for (const p of PHOTOS) expect(fs.readFileSync(path.join(target, 'uploads', p), 'utf8')).toBe(`photo ${p}`);
    expect(r.stdout).toMatch(/Photos: 3 added/);
  });

  it('restores a backup of an older version, and says which migrations the server applies at start', () => {
    backedUpInstall({ migrations: readMigrations().length - 2 });
    const r = restore('--from', backup);
    expect(r.status).toBe(0);
    const pending = readMigrations()
      .slice(-2)
      .map((m) => m.name);
    expect(r.stdout).toContain(`it applies the 2 migrations newer than the backup (${pending.join(', ')})`);
    const db = new Database(path.join(target, 'xg.sqlite'));
    try {
      expect(migrate(db)).toEqual(pending);
    } finally {
      db.close();
    }
  });

  it('refuses while a server runs on the DATA_DIR, even with --force, and while one runs on a database deleted under it', async () => {
    backedUpInstall();
    expect(restore('--from', backup).status).toBe(0);
    const server = spawn(NODE, ['server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', DATA_DIR: target, PORT: '0', HOST: '127.0.0.1', SEED_LOCATIONS: '0', CRON: '0', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const onData = (d: Buffer) => {
          output += String(d);
          if (output.includes('is serving on')) resolve();
        };
        server.stdout.on('data', onData);
        server.stderr.on('data', onData);
        server.once('exit', () => reject(new Error(`the server exited:\n${output}`)));
      });
      const before = snapshot(target);
      const plain = restore('--from', backup);
      expect(plain.status).toBe(1);
      expect(plain.stderr).toMatch(fs.existsSync('/proc/locks') ? /A process has .*xg\.sqlite open/ : /xg\.sqlite exists/);
      const r = restore('--from', backup, '--force');
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/A process has .*xg\.sqlite open .*Stop it/);
      expect(fs.readdirSync(target).filter((f) => f.includes('before-restore') || f.includes('restoring'))).toEqual([]);
      expect(snapshot(target)['xg.sqlite']).toBe(before['xg.sqlite']);
      if (fs.existsSync('/proc/locks')) {
        // Deleted under the running server: no file to lock, but the server still holds its -shm.
        fs.rmSync(path.join(target, 'xg.sqlite'));
        const deleted = restore('--from', backup, '--force');
        expect(deleted.status).toBe(1);
        expect(deleted.stderr).toMatch(/xg\.sqlite-shm open: a server running on a database deleted under it/);
        expect(fs.existsSync(path.join(target, 'xg.sqlite'))).toBe(false);
      }
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
    // Stopped, it holds nothing: the -wal/-shm it left beside the deleted file go aside, kept.
    const r = restore('--from', backup, '--force');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(auditRows(path.join(target, 'xg.sqlite'))).toBe(500);
    expect(fs.readdirSync(target).filter((f) => /^xg\.sqlite-(wal|shm)$/.test(f))).toEqual([]);
  }, 30_000);

  it('refuses over an existing database without --force, changing nothing; with --force keeps the old one aside, its WAL rows folded in', () => {
    backedUpInstall();
    existingInstall();
    const before = snapshot(target);
    const refused = restore('--from', backup);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/xg\.sqlite exists\. --force replaces it/);
    expect(refused.stderr).toMatch(/secrets\.json differs/);
    expect(snapshot(target)).toEqual(before);

    const r = restore('--from', backup, '--force');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const files = fs.readdirSync(target).sort();
    const aside = files.filter((f) => /^xg\.sqlite\.before-restore-[\dT-]+Z$/.test(f));
    expect(aside).toHaveLength(1);
    expect(files.filter((f) => /^xg\.sqlite(-wal|-shm|-journal)?$/.test(f))).toEqual(['xg.sqlite']);
    expect(auditRows(path.join(target, aside[0]))).toBe(3); // the old database, whole
    expect(auditRows(path.join(target, 'xg.sqlite'))).toBe(500);
    const oldSecrets = files.filter((f) => f.startsWith('secrets.json.before-restore-'));
    expect(oldSecrets).toHaveLength(1);
    expect(fs.readFileSync(path.join(target, oldSecrets[0]), 'utf8')).toMatch(/another-install-jwt-secret/);
    expect(fs.readFileSync(path.join(target, 'secrets.json'), 'utf8')).toBe(SECRETS);
  });

  it('refuses a file that is not a SQLite database, fails the integrity check, is not ours or is newer than the code, changing nothing', () => {
    backedUpInstall({ rows: 2000 });
    existingInstall();
    const before = snapshot(target);
    const bad = (name: string, bytes: Buffer) => {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, bytes);
      return file;
    };
    const good = fs.readFileSync(backup);
    const corrupt = Buffer.from(good);
    const page = 4096; // the last pages hold the audit rows written last; the schema still reads
    for (let i = 100; i < page; i++) corrupt[corrupt.length - 3 * page + i] = (i * 7) & 0xff;
    const foreign = path.join(tmp, 'foreign.sqlite');
    const other = new Database(foreign);
    other.exec('CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES (1)');
    other.close();
    const newer = bad('newer.sqlite', good);
    const db = new Database(newer);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future.sql', 'x')").run();
    db.close();
    const cases: [string, RegExp][] = [
      [bad('text.sqlite', Buffer.from('not a database at all\n'.repeat(300))), /not a usable SQLite database/],
      [bad('corrupt.sqlite', corrupt), /fails PRAGMA integrity_check/],
      [foreign, /not a database of this application/],
      [newer, /newer than this code \(it has migration 9999_future\.sql\)/],
    ];
    for (const [file, message] of cases) {
      const r = restore('--from', file, '--force');
      expect(r.stderr).toMatch(message);
      expect(r.status).toBe(1);
      expect(snapshot(target)).toEqual(before);
    }
  });

  it('puts the photos back beside those already there, deleting or replacing none, hard-linked on one filesystem', () => {
    backedUpInstall();
    fs.mkdirSync(path.join(target, 'uploads', 'ads'), { recursive: true });
    fs.writeFileSync(path.join(target, 'uploads', 'ads', 'dddddddddddddddddddddddd.webp'), 'uploaded since');
    fs.writeFileSync(path.join(target, 'uploads', PHOTOS[0]), 'already there');
    const r = restore('--from', backup);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Photos: 2 added .*\(2 hard-linked, 0 copied\), 1 there already/);
    expect(snapshot(path.join(target, 'uploads'))).toEqual({
      [PHOTOS[0]]: Buffer.from('already there').toString('base64'),
      [PHOTOS[1]]: Buffer.from(`photo ${PHOTOS[1]}`).toString('base64'),
      [PHOTOS[2]]: Buffer.from(`photo ${PHOTOS[2]}`).toString('base64'),
      'ads/dddddddddddddddddddddddd.webp': Buffer.from('uploaded since').toString('base64'),
    });
    const uploadsCopy = backup.replace(/\.sqlite$/, '.uploads');
    expect(fs.statSync(path.join(target, 'uploads', PHOTOS[1])).ino).toBe(fs.statSync(path.join(uploadsCopy, PHOTOS[1])).ino);
  });

  it('secrets: the same ones are left as they are; with none beside the backup the current file is kept', () => {
    backedUpInstall();
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'secrets.json'), SECRETS.replace(/\n/g, ' '), { mode: 0o600 }); // the same keys, written otherwise
    const same = restore('--from', backup);
    expect(same.status).toBe(0);
    expect(same.stdout).toMatch(/are the backup's already/);
    expect(fs.readdirSync(target).filter((f) => f.startsWith('secrets'))).toEqual(['secrets.json']);

    fs.rmSync(backup.replace(/\.sqlite$/, '.secrets.json'));
    fs.writeFileSync(path.join(target, 'secrets.json'), '{"jwtSecret":"another-install-jwt-secret-0123456789"}\n');
    const none = restore('--from', backup, '--force');
    expect(none.status).toBe(0);
    expect(none.stdout).toMatch(/No xg-test\.secrets\.json beside the backup: kept/);
    expect(fs.readFileSync(path.join(target, 'secrets.json'), 'utf8')).toMatch(/another-install/);
  });

  // Run as root (`sudo npm run restore`), what restore makes goes to the server's user, the owner of
  // the database replaced (else of DATA_DIR): a root-owned 0600 xg.sqlite is one the server cannot open.
  const SERVICE = 65534; // nobody: the service user
  const notRoot = process.getuid?.() !== 0;

  it.skipIf(notRoot)(
    'run as root over an install of the service user, --force leaves a database the server, as that user, starts on',
    async () => {
      fs.chmodSync(tmp, 0o755);
      fs.mkdirSync(target, { mode: 0o700 });
      fs.chownSync(target, SERVICE, SERVICE);
      const first = await startServer(target, SERVICE);
      expect(first.serving, first.output).toBe(true);
      const b = run('backup', target, '--out', backup); // the operator's cron, as root, while it runs
      expect(b.status, b.stderr).toBe(0);
      await first.stop();
      expect(fs.statSync(path.join(target, 'xg.sqlite')).uid).toBe(SERVICE);
      const r = restore('--from', backup, '--force');
      expect(r.status, r.stderr).toBe(0);
      const again = await startServer(target, SERVICE);
      await again.stop();
      const db = fs.statSync(path.join(target, 'xg.sqlite'));
      expect({
        serving: again.serving,
        owner: [db.uid, db.gid],
        mode: mode(path.join(target, 'xg.sqlite')),
        error: again.output.match(/SQLITE_\w+|EACCES/)?.[0] ?? null,
      }).toEqual({
        serving: true,
        owner: [SERVICE, SERVICE],
        mode: '600',
        error: null,
      });
    },
    60_000,
  );

  it.skipIf(notRoot)('run as root into an empty DATA_DIR of the service user, gives it the database, the secrets and every photo and folder it adds', () => {
    backedUpInstall(); // made by root: its photos are root's
    fs.mkdirSync(target, { mode: 0o700 });
    fs.chownSync(target, SERVICE, SERVICE);
    const r = restore('--from', backup);
    expect(r.status, r.stderr).toBe(0);
    const owners = Object.fromEntries(
      (fs.readdirSync(target, { recursive: true, withFileTypes: true }) as fs.Dirent[]).map((e) => {
        const st = fs.lstatSync(path.join(e.parentPath, e.name));
        return [path.relative(target, path.join(e.parentPath, e.name)), `${st.uid}:${st.gid}`];
      }),
    );
    const paths = ['secrets.json', 'uploads', 'uploads/ads', 'uploads/avatars', ...PHOTOS.map((p) => `uploads/${p}`), 'xg.sqlite'];
    expect(owners).toEqual(Object.fromEntries(paths.map((p) => [p, `${SERVICE}:${SERVICE}`])));
    expect(mode(path.join(target, 'secrets.json'))).toBe('600');
    // A backup with no photo in it: no uploads/ made, nothing to give.
    const uploadsCopy = backup.replace(/\.sqlite$/, '.uploads');
    fs.rmSync(uploadsCopy, { recursive: true });
    fs.mkdirSync(uploadsCopy);
    const bare = path.join(tmp, 'bare');
    fs.mkdirSync(bare, { mode: 0o700 });
    fs.chownSync(bare, SERVICE, SERVICE);
    const r2 = run('restore', bare, '--from', backup);
    expect(r2.status, r2.stderr).toBe(0);
    expect(fs.statSync(path.join(bare, 'xg.sqlite')).uid).toBe(SERVICE);
  });
});

/** server/main.ts on `dataDir` as the user `uid`; resolves once it serves or has exited. */
async function startServer(dataDir: string, uid: number): Promise<{ serving: boolean; output: string; stop: () => Promise<void> }> {
  const child = spawn(NODE, ['server/main.ts'], {
    cwd: ROOT,
    uid,
    gid: uid,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_LOCATIONS: '0',
      CRON: '0',
      LOG_LEVEL: 'warn',
      MASTER_EMAIL: 'master@example.com',
      MASTER_PASSWORD: 'master-password-123',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const serving = await new Promise<boolean>((resolve) => {
    const onData = (d: Buffer) => {
      output += String(d);
      if (output.includes('is serving on')) resolve(true);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => resolve(false));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { serving, output, stop };
}
