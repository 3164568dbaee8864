import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { commandArgs } from './cli.ts';
import { GENERATED_KEYS_FILE } from '../server/core/secrets.ts';
import { loadDotEnv } from '../server/core/dotenv.ts';
import { privateDir } from '../server/core/private-dir.ts';
import { nothingPlaced, placeUploads } from './uploads-files.ts';

const HELP = `Usage: npm run backup [-- --out <file>] [--no-uploads]

Writes a consistent copy of DATA_DIR/xg.sqlite (DATA_DIR defaults to ./data) with SQLite's online
backup, so it is safe while the server runs and writes. The default destination is
DATA_DIR/backups/xg-<UTC timestamp>.sqlite (the folder mode 0700). An existing file is never
overwritten. The copy (mode 0600) is checked with PRAGMA integrity_check before the command reports
success. The secrets generated at first start (DATA_DIR/secrets.json) are copied beside it as
<name>.secrets.json (mode 0600). The photos (DATA_DIR/uploads) go into <name>.uploads/ (mode 0700):
hard-linked on the same filesystem (an upload is written once and never changed, so a copy costs a
directory entry per file, not its bytes), else copied. --no-uploads leaves them out. All are written
under <name>.partial and renamed once checked; a run stopped by SIGTERM or Ctrl-C removes them.
Restore with npm run restore -- --from <file>.

Exit codes: 0 written, 1 failed, 2 bad arguments.`;

const args = commandArgs(HELP, { out: { type: 'string' }, uploads: { type: 'boolean', default: true } }, { allowNegative: true });

loadDotEnv(); // the same DATA_DIR as the server
const ALL_PAGES = 2 ** 31 - 1;
const dataDir = path.resolve(process.env.DATA_DIR?.trim() || './data');
const source = path.join(dataDir, 'xg.sqlite');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const backups = path.join(dataDir, 'backups');
const out = path.resolve(args.out ?? path.join(backups, `xg-${stamp}.sqlite`));
const base = out.replace(/\.sqlite$/, '');
const uploads = path.join(dataDir, 'uploads');
const uploadsOut = `${base}.uploads`;
const withUploads = args.uploads && fs.existsSync(uploads); // the server makes the folder at start
const secrets = path.join(dataDir, GENERATED_KEYS_FILE);
const secretsOut = `${base}.${GENERATED_KEYS_FILE}`;

// Written under temporary names and renamed when checked, so a run stopped halfway (a timer's
// deadline, a deploy, Ctrl-C) never leaves a file named like a finished backup: rotation would keep
// it and an operator could restore it. A stop by SIGTERM or SIGINT removes them.
const outPartial = `${out}.partial`;
const uploadsPartial = `${uploadsOut}.partial`;
const secretsPartial = `${secretsOut}.partial`;

if (!fs.existsSync(source)) {
  console.error(`No database at ${source} (set DATA_DIR).`);
  process.exit(1);
}
const finals = [out, ...(withUploads ? [uploadsOut] : []), ...(fs.existsSync(secrets) ? [secretsOut] : [])];
for (const exists of finals) {
  if (fs.existsSync(exists)) {
    console.error(`${exists} already exists; choose another --out.`);
    process.exit(1);
  }
  // A backup to the same name under way, or one killed (SIGKILL) before it could clean up.
  if (fs.existsSync(`${exists}.partial`)) {
    console.error(`${exists}.partial already exists (a backup under way, or one killed halfway: remove it); choose another --out.`);
    process.exit(1);
  }
}

/** Set once this run has made its .partial file: before that, a .partial is another run's. */
let made = false;
/** Removes what this run wrote and has not renamed yet (the copy's journal too). */
function removePartials() {
  if (!made) return;
  for (const f of [outPartial, `${outPartial}-journal`, `${outPartial}-wal`, `${outPartial}-shm`, secretsPartial]) fs.rmSync(f, { force: true });
  fs.rmSync(uploadsPartial, { recursive: true, force: true });
}
let finished = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (finished) return; // renamed already: the backup is whole, let it end
    removePartials();
    console.error(`Backup stopped by ${signal}; nothing was kept.`);
    process.exit(1);
  });
}

const renamed: string[] = [];
const moveTo = (from: string, to: string) => (fs.renameSync(from, to), to);
let db: Database.Database | undefined;
// Everything from here fails in one line (an --out under a file, a folder this user may not write).
try {
  db = new Database(source, { fileMustExist: true });
  db.pragma('busy_timeout = 5000'); // the server may hold a write lock for a moment
  // The copy holds password hashes, e-mail addresses, phones, sign-in addresses and the Textbelt
  // key: readable by the owner alone, like the secrets beside it. The default folder is the owner's
  // alone too (one made open by an older version is closed); the file is made empty, 0600, before
  // SQLite writes into it (an empty file is an empty database), so no other user can ever open it.
  if (args.out === undefined) privateDir(backups);
  else fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.closeSync(fs.openSync(outPartial, 'wx', 0o600));
  made = true;
  const files = nothingPlaced();
  if (withUploads) {
    fs.mkdirSync(uploadsPartial, { mode: 0o700 });
    // Before the database and again after it: a photo the copy names was there during one of the
    // two walks, whether it was added while the database was copied or deleted meanwhile.
    placeUploads(uploads, uploadsPartial, files, 0o700);
  }
  const t0 = performance.now();
  // In one step, under one read snapshot: copied 100 pages at a time (the default), the copy
  // starts over whenever the server writes between two steps, and on a busy site never ends.
  const { totalPages } = await db.backup(outPartial, { progress: () => ALL_PAGES });
  // A self-contained single file: the copy inherits WAL mode, which would leave -wal/-shm files beside it.
  const copy = new Database(outPartial);
  copy.pragma('journal_mode = DELETE');
  const check = copy.pragma('integrity_check', { simple: true });
  copy.close();
  if (check !== 'ok') throw new Error(`integrity check of the copy failed: ${String(check)}`);
  const ms = Math.round(performance.now() - t0);
  const messages = [`Backed up ${source} to ${out} (${totalPages} pages, ${fs.statSync(outPartial).size} bytes) in ${ms} ms.`];
  if (withUploads) {
    placeUploads(uploads, uploadsPartial, files, 0o700);
    const n = files.linked + files.copied;
    messages.push(
      `Put ${n} upload file${n === 1 ? '' : 's'} into ${uploadsOut}: ${files.linked} hard-linked (no space taken), ${files.copied} copied (${files.bytes} bytes).`,
    );
  }
  // Generated secrets belong to the data: without them a restored copy's sessions and sandbox
  // webhooks would no longer verify. Copied beside the database, readable by the owner only.
  if (fs.existsSync(secrets)) {
    fs.copyFileSync(secrets, secretsPartial, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(secretsPartial, 0o600);
    messages.push(`Copied the generated secrets to ${secretsOut}.`);
  }
  // Checked and whole: the final names, the database's last, in one synchronous run (a signal
  // waits for it), so a file named like a backup always has its photos and secrets beside it.
  if (fs.existsSync(secretsPartial)) renamed.push(moveTo(secretsPartial, secretsOut));
  if (withUploads) renamed.push(moveTo(uploadsPartial, uploadsOut));
  fs.renameSync(outPartial, out);
  finished = true;
  for (const m of messages) console.log(m);
} catch (e) {
  removePartials();
  for (const f of renamed) fs.rmSync(f, { recursive: true, force: true });
  console.error(`Backup failed: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  db?.close();
}
