import fs from 'node:fs';

/**
 * Makes a folder only the server's user may open (0700): the outbox (live password-reset and
 * e-mail links, promo and SMS codes) and the backups (the whole database), as secrets.json is
 * 0600. A folder made before, open to others (0755), is closed too.
 */
export function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((fs.statSync(dir).mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}
