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
directory entry per file, not its bytes), else copied. --no-uploads leaves them out.
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

if (!fs.existsSync(source)) {
  console.error(`No database at ${source} (set DATA_DIR).`);
  process.exit(1);
}
for (const exists of [out, ...(withUploads ? [uploadsOut] : []), ...(fs.existsSync(secrets) ? [secretsOut] : [])]) {
  if (fs.existsSync(exists)) {
    console.error(`${exists} already exists; choose another --out.`);
    process.exit(1);
  }
}

const db = new Database(source, { fileMustExist: true });
db.pragma('busy_timeout = 5000'); // the server may hold a write lock for a moment
// The copy holds password hashes, e-mail addresses, phones, sign-in addresses and the Textbelt
// key: readable by the owner alone, like the secrets beside it. The default folder is the owner's
// alone too (one made open by an older version is closed); the file is made empty, 0600, before
// SQLite writes into it (an empty file is an empty database), so no other user can ever open it.
if (args.out === undefined) privateDir(backups);
else fs.mkdirSync(path.dirname(out), { recursive: true });
fs.closeSync(fs.openSync(out, 'wx', 0o600));
let made: string | null = null;
try {
  const files = nothingPlaced();
  if (withUploads) {
    fs.mkdirSync(uploadsOut, { mode: 0o700 });
    made = uploadsOut;
    // Before the database and again after it: a photo the copy names was there during one of the
    // two walks, whether it was added while the database was copied or deleted meanwhile.
    placeUploads(uploads, uploadsOut, files, 0o700);
  }
  const t0 = performance.now();
  // In one step, under one read snapshot: copied 100 pages at a time (the default), the copy
  // starts over whenever the server writes between two steps, and on a busy site never ends.
  const { totalPages } = await db.backup(out, { progress: () => ALL_PAGES });
  // A self-contained single file: the copy inherits WAL mode, which would leave -wal/-shm files beside it.
  const copy = new Database(out);
  copy.pragma('journal_mode = DELETE');
  const check = copy.pragma('integrity_check', { simple: true });
  copy.close();
  if (check !== 'ok') throw new Error(`integrity check of the copy failed: ${String(check)}`);
  const ms = Math.round(performance.now() - t0);
  console.log(`Backed up ${source} to ${out} (${totalPages} pages, ${fs.statSync(out).size} bytes) in ${ms} ms.`);
  if (withUploads) {
    placeUploads(uploads, uploadsOut, files, 0o700);
    const n = files.linked + files.copied;
    console.log(
      `Put ${n} upload file${n === 1 ? '' : 's'} into ${uploadsOut}: ${files.linked} hard-linked (no space taken), ${files.copied} copied (${files.bytes} bytes).`,
    );
  }
  // Generated secrets belong to the data: without them a restored copy's sessions and sandbox
  // webhooks would no longer verify. Copied beside the database, readable by the owner only.
  if (fs.existsSync(secrets)) {
    fs.copyFileSync(secrets, secretsOut, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(secretsOut, 0o600);
    console.log(`Copied the generated secrets to ${secretsOut}.`);
  }
} catch (e) {
  fs.rmSync(out, { force: true });
  if (made) fs.rmSync(made, { recursive: true, force: true });
  console.error(`Backup failed: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  db.close();
}
