import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { commandArgs, usageError } from './cli.ts';
import { GENERATED_KEYS_FILE } from '../server/core/secrets.ts';
import { loadDotEnv } from '../server/core/dotenv.ts';
import { readMigrations } from '../server/core/migrate.ts';
import { checkDataDir } from '../server/core/config.ts';
import { nothingPlaced, placeUploads } from './uploads-files.ts';

const HELP = `Usage: npm run restore -- --from <backup.sqlite> [--force]

Puts a copy written by npm run backup back as DATA_DIR/xg.sqlite (DATA_DIR defaults to ./data), with
the secrets (<name>.secrets.json) and the photos (<name>.uploads/) found beside it. Stop the server
first: the command refuses while any process has the database open.

- The backup is checked first (PRAGMA integrity_check, and that it is this application's database,
  no newer than this code); a refused backup changes nothing.
- An existing database is replaced only with --force, and is then kept as
  xg.sqlite.before-restore-<UTC timestamp> (with its -wal, if any): never deleted.
- The secrets are put in place when DATA_DIR has none; different ones are replaced only with
  --force, the old file kept as secrets.json.before-restore-<UTC timestamp>.
- Photos not in DATA_DIR/uploads are added (hard-linked on the same filesystem, else copied); none
  is deleted or replaced.
- Run as root (sudo), it gives what it makes the owner of the database it replaces (else of
  DATA_DIR), so the server's user can open it.

Start the server afterwards: it applies the migrations newer than the backup.

Exit codes: 0 restored, 1 failed or refused (nothing changed unless said), 2 bad arguments.`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const args = commandArgs(HELP, { from: { type: 'string' }, force: { type: 'boolean', default: false } });
if (!args.from) usageError(HELP, '--from <backup.sqlite> is required.');

loadDotEnv(); // the same DATA_DIR as the server
const dataDir = path.resolve(process.env.DATA_DIR?.trim() || './data');
const dataDirProblem = checkDataDir(dataDir); // as the server refuses it: one line, not mkdir's stack
if (dataDirProblem) fail(dataDirProblem);
const target = path.join(dataDir, 'xg.sqlite');
const from = path.resolve(args.from);
const base = from.replace(/\.sqlite$/, '');
const secretsFrom = `${base}.${GENERATED_KEYS_FILE}`;
const secretsTarget = path.join(dataDir, GENERATED_KEYS_FILE);
const uploadsFrom = `${base}.uploads`;
const uploadsTarget = path.join(dataDir, 'uploads');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const aside = `${target}.before-restore-${stamp}`;
const SIDE_FILES = ['-wal', '-shm', '-journal'];
const errorCode = (e: unknown) => (e as NodeJS.ErrnoException).code ?? '';

// 1. The backup: a whole SQLite file, of this application, no newer than this code.
if (!fs.statSync(from, { throwIfNoEntry: false })?.isFile()) fail(`No backup file at ${from}.`);
if (fs.existsSync(target) && fs.realpathSync(from) === fs.realpathSync(target)) fail(`${from} is the database itself; restore from a backup.`);
const pending = checkBackup(from);

// 2. DATA_DIR: nothing may have the database open, nothing is replaced without --force.
const refusals: string[] = [];
let lock: Database.Database | null = null;
const inUse = `A process has ${target} open (the server, or a backup running). Stop it, then restore. Nothing was changed.`;
if (fs.existsSync(target)) {
  if (args.force) {
    // Opened only to replace it: opening folds a -wal left by a crash into it.
    const held = lockExclusively(target);
    if (held === 'busy') fail(inUse);
    lock = held === 'not a database' ? null : held;
  } else {
    if (heldFiles([target])?.length) fail(inUse);
    refusals.push(`${target} exists. --force replaces it and keeps it as ${path.basename(aside)}.`);
  }
} else {
  // A server still running on a database deleted under it holds its -shm (and has no file to lock
  // above); one stopped since leaves -wal/-shm that nothing holds, moved aside below.
  const stale = SIDE_FILES.map((s) => target + s).filter((f) => fs.existsSync(f));
  const held = stale.length ? heldFiles(stale) : [];
  if (held === null && !args.force) {
    refusals.push(
      `${stale.join(' and ')} without ${path.basename(target)}: a server may still be running on a database deleted under it (stop it), ` +
        `or one left them. --force keeps them aside as ${path.basename(aside)}-….`,
    );
  } else if (held?.length) {
    fail(`A process has ${held.join(' and ')} open: a server running on a database deleted under it. Stop it, then restore. Nothing was changed.`);
  }
}
const secretsBackup = fs.existsSync(secretsFrom) ? readSecrets(secretsFrom) : null;
const secretsCurrent = fs.existsSync(secretsTarget) ? fs.readFileSync(secretsTarget, 'utf8') : null;
const secretsDiffer = secretsBackup !== null && secretsCurrent !== null && !sameSecrets(secretsBackup, secretsCurrent);
if (secretsDiffer && !args.force) {
  refusals.push(
    `${secretsTarget} differs from ${secretsFrom}: sessions signed with the one do not verify with the other. ` +
      `--force puts the backup's in place and keeps the current file as ${GENERATED_KEYS_FILE}.before-restore-${stamp}.`,
  );
}
if (refusals.length) {
  lock?.close();
  fail(`Refused (nothing was changed):\n - ${refusals.join('\n - ')}`);
}

// 3. The database: copied beside the target, made a single self-contained file, then put in place.
// Run as root, everything made here goes to the server's user, the owner of what is replaced: a
// root-owned 0600 xg.sqlite is one the server cannot open (it would not start: SQLITE_CANTOPEN).
const owner = process.getuid?.() === 0 ? ownerOf([target, dataDir, path.dirname(dataDir)]) : null;
const giveOwner = (file: string) => {
  if (owner) fs.lchownSync(file, owner.uid, owner.gid);
};
if (!fs.existsSync(dataDir)) {
  fs.mkdirSync(dataDir, { recursive: true });
  giveOwner(dataDir);
}
const tmp = path.join(dataDir, `xg.sqlite.restoring-${stamp}`);
try {
  const fd = fs.openSync(tmp, 'wx', 0o600); // made 0600 before any data is in it, as backup does
  try {
    if (owner) fs.fchownSync(fd, owner.uid, owner.gid); // the backup below writes into this file, which keeps its owner
  } finally {
    fs.closeSync(fd);
  }
  const source = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await source.backup(tmp, { progress: () => 2 ** 31 - 1 }); // in one step: nothing writes to a backup
  } finally {
    source.close();
  }
  const copy = new Database(tmp);
  copy.pragma('journal_mode = DELETE');
  copy.close();
} catch (e) {
  fs.rmSync(tmp, { force: true });
  lock?.close();
  fail(`Restore failed: ${(e as Error).message}. The database in ${dataDir} was left in place.`);
}
// Held until now, so no server could start on the old file while the copy was made. Closing the
// last connection folds its -wal into it; whatever is left beside it goes aside with it.
lock?.close();
const movedAside: string[] = [];
for (const suffix of ['', ...SIDE_FILES]) {
  if (!fs.existsSync(target + suffix)) continue;
  fs.renameSync(target + suffix, aside + suffix);
  movedAside.push(path.basename(aside + suffix));
}
fs.renameSync(tmp, target);
fs.chmodSync(target, 0o600);
if (movedAside.length) console.log(`Kept what was there aside, in ${dataDir}: ${movedAside.join(', ')}.`);
console.log(`Restored ${from} to ${target} (${fs.statSync(target).size} bytes).`);

// 4. Secrets and photos.
try {
  if (secretsBackup === null) {
    console.log(
      secretsCurrent === null
        ? `No ${path.basename(secretsFrom)} beside the backup: the server generates new secrets at start (unless JWT_SECRET and BTCPAY_WEBHOOK_SECRET are set); sessions signed before will not verify.`
        : `No ${path.basename(secretsFrom)} beside the backup: kept ${secretsTarget} as it is.`,
    );
  } else if (secretsCurrent !== null && !secretsDiffer) {
    console.log(`The secrets in ${secretsTarget} are the backup's already.`);
  } else {
    if (secretsDiffer) {
      const old = `${secretsTarget}.before-restore-${stamp}`;
      fs.renameSync(secretsTarget, old);
      console.log(`Kept the previous secrets as ${old}.`);
    }
    const secretsTmp = `${secretsTarget}.restoring-${stamp}`;
    fs.copyFileSync(secretsFrom, secretsTmp, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(secretsTmp, 0o600);
    giveOwner(secretsTmp);
    fs.renameSync(secretsTmp, secretsTarget);
    console.log(`Restored the secrets to ${secretsTarget}: sessions signed before the backup verify again.`);
  }
  if (fs.statSync(uploadsFrom, { throwIfNoEntry: false })?.isDirectory()) {
    const files = nothingPlaced();
    placeUploads(uploadsFrom, uploadsTarget, files);
    if (owner) ownUploads(uploadsTarget, owner);
    console.log(
      `Photos: ${files.linked + files.copied} added to ${uploadsTarget} (${files.linked} hard-linked, ${files.copied} copied), ${files.present} there already.`,
    );
  } else {
    console.log(
      `No ${path.basename(uploadsFrom)}/ beside the backup (made with --no-uploads, by an older version, or with no uploads to copy): photos not in ${uploadsTarget} will be missing.`,
    );
  }
} catch (e) {
  fail(`Restore failed after the database was put in place: ${(e as Error).message}`);
}
console.log(
  pending.length
    ? `Start the server: it applies the ${pending.length} migration${pending.length === 1 ? '' : 's'} newer than the backup (${pending.join(', ')}).`
    : 'Start the server: the backup is at this version of the schema, no migration to apply.',
);

/** Refuses (exit 1) anything but a whole database of this application; returns the migrations the server will apply to it. */
function checkBackup(file: string): string[] {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const problems = (db.pragma('integrity_check(20)') as { integrity_check: string }[]).map((r) => r.integrity_check);
    if (problems.join() !== 'ok') fail(`${file} fails PRAGMA integrity_check: ${problems.join('; ')}. Nothing was changed.`);
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    const applied = hasTable ? (db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number; name: string }[]) : [];
    const known = readMigrations();
    const byVersion = new Map(known.map((m) => [m.version, m.name]));
    if (!applied.length || applied[0].name !== known[0].name)
      fail(`${file} is not a database of this application (no schema_migrations of ours). Nothing was changed.`);
    const unknown = applied.filter((a) => byVersion.get(a.version) !== a.name);
    if (unknown.length) {
      fail(`${file} is newer than this code (it has migration ${unknown.map((u) => u.name).join(', ')}): upgrade the code first. Nothing was changed.`);
    }
    const done = new Set(applied.map((a) => a.version));
    return known.filter((m) => !done.has(m.version)).map((m) => m.name);
  } catch (e) {
    if (e instanceof Database.SqliteError) fail(`${file} is not a usable SQLite database (${e.code}: ${e.message}). Nothing was changed.`);
    throw e;
  } finally {
    db?.close();
  }
}

/**
 * Takes SQLite's exclusive lock on the database and keeps it. Every connection to a database in WAL
 * mode (the server's writer and reader, a backup running) holds a shared lock on the file for as
 * long as it is open, so the lock is refused at once while any of them is; tested against a real
 * server. Held, it keeps a server from starting on the file meanwhile.
 */
function lockExclusively(file: string): Database.Database | 'busy' | 'not a database' {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return db;
  } catch (e) {
    db.close();
    if (errorCode(e).startsWith('SQLITE_BUSY') || errorCode(e).startsWith('SQLITE_LOCKED')) return 'busy';
    if (errorCode(e) === 'SQLITE_NOTADB' || errorCode(e).startsWith('SQLITE_CORRUPT')) return 'not a database'; // nothing can be using it
    throw e;
  }
}

/**
 * Which of `files` a process holds a lock on, from Linux's /proc/locks (every process's POSIX
 * locks, by device and inode; SQLite's are POSIX locks); null where that list cannot be read.
 */
function heldFiles(files: string[]): string[] | null {
  let locks: string;
  try {
    locks = fs.readFileSync('/proc/locks', 'utf8');
  } catch {
    return null;
  }
  // "1: POSIX  ADVISORY  READ 4242 fe:00:2442292 128 128" (a waiting lock has "->" after the number)
  const locked = new Set(locks.split('\n').map((line) => line.split(/\s+/).filter((f) => f !== '->')[5]));
  return files.filter((file) => {
    const { dev, ino } = fs.statSync(file);
    const hex = (n: number) => n.toString(16).padStart(2, '0');
    return locked.has(`${hex(Math.floor(dev / 256) & 0xfff)}:${hex((dev & 0xff) | (Math.floor(dev / 4096) & 0xfff00))}:${ino}`);
  });
}

/** The owner of the first of `paths` that exists (the database replaced, else DATA_DIR, else its parent). */
function ownerOf(paths: string[]): { uid: number; gid: number } | null {
  for (const p of paths) {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (st) return { uid: st.uid, gid: st.gid };
  }
  return null;
}

/**
 * Gives `owner` the folders and photos under `dir` that this process (root) owns: those
 * placeUploads just made or copied (a hard link is the backup's file, whose owner it keeps unless it
 * is root's). Symbolic links are changed, not followed.
 */
function ownUploads(dir: string, owner: { uid: number; gid: number }): void {
  const me = process.getuid?.();
  const mine = (p: string) => fs.lstatSync(p, { throwIfNoEntry: false })?.uid === me;
  if (!fs.existsSync(dir)) return; // no photo in the backup: nothing made
  if (mine(dir)) fs.lchownSync(dir, owner.uid, owner.gid);
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = path.join(entry.parentPath, entry.name);
    if (mine(p)) fs.lchownSync(p, owner.uid, owner.gid);
  }
}

function readSecrets(file: string): string {
  const text = fs.readFileSync(file, 'utf8');
  try {
    JSON.parse(text);
  } catch (e) {
    fail(`${file} is not readable JSON (${(e as Error).message}). Nothing was changed.`);
  }
  return text;
}

function sameSecrets(a: string, b: string): boolean {
  try {
    const [x, y] = [JSON.parse(a) as Record<string, unknown>, JSON.parse(b) as Record<string, unknown>];
    return x.jwtSecret === y.jwtSecret && x.webhookSecret === y.webhookSecret;
  } catch {
    return false;
  }
}
