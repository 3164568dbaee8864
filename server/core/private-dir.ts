import fs from 'node:fs';

/**
 * Makes a folder only the server's user may open (0700): DATA_DIR, the outbox (live password-reset
 * and e-mail links, promo and SMS codes) and the backups (the whole database), as secrets.json is
 * 0600. A folder made before, open to others (0755), is closed too.
 */
export function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { mode } = fs.statSync(dir);
  // A sticky folder (/tmp) is shared by design: closing it would break every other user of it.
  if ((mode & 0o077) !== 0 && (mode & 0o1000) === 0) fs.chmodSync(dir, 0o700);
}

/**
 * Makes the SQLite file the server's user's alone (0600) before SQLite opens it: the database
 * holds password hashes, e-mails, phones and the Textbelt key, as the backups do (0600). SQLite
 * gives its -wal and -shm files the mode of the database file, so they follow; those an older
 * version left open (0644) are closed here too. A file another user owns is left to that user.
 */
export function privateDatabaseFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600)); // an empty file is an empty database
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((fs.statSync(f).mode & 0o077) !== 0) fs.chmodSync(f, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && (e as NodeJS.ErrnoException).code !== 'EPERM') throw e;
    }
  }
}
