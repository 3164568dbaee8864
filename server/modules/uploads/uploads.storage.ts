import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../../core/ids.ts';

// Uploaded files live under DATA_DIR/uploads/<folder>/<random>.webp and are served at
// /uploads/<folder>/<random>.webp. The database stores the relative path ("avatars/abc.webp");
// the URL is derived from it, so moving the public prefix never needs a data migration.

/** What a stored relative path may look like: one or more lower-case folders, a random name, an image extension. */
export const UPLOAD_PATH_RE = /^(?:[a-z0-9-]+\/)+[A-Za-z0-9_-]+\.(?:webp|jpg|png)$/;

export function uploadsRoot(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

export function uploadUrl(relPath: string): string;
export function uploadUrl(relPath: string | null): string | null;
export function uploadUrl(relPath: string | null): string | null {
  return relPath ? `/uploads/${relPath}` : null;
}

/** Resolves a relative upload path to a file inside the uploads root, or null when it would leave it. */
export function resolveUpload(dataDir: string, relPath: string): string | null {
  if (!UPLOAD_PATH_RE.test(relPath)) return null;
  const root = uploadsRoot(dataDir);
  const full = path.resolve(root, relPath);
  return full.startsWith(root + path.sep) ? full : null;
}

/** Writes a file under a random name (write-then-rename, so a reader never sees half a file). Returns the relative path. */
export function storeUpload(dataDir: string, folder: string, data: Buffer, ext = 'webp'): string {
  const rel = `${folder}/${newId(24)}.${ext}`;
  const full = resolveUpload(dataDir, rel);
  if (!full) throw new Error(`bad upload folder "${folder}"`);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  const tmp = `${full}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, full);
  return rel;
}

/**
 * Removes a stored file; a missing file or a path outside the root is ignored. Never throws: it
 * runs after the change that dropped the file has committed (an erasure, an edit), whose answer
 * must say it was done. A file that cannot be removed (EIO, EPERM) is logged and left: the hourly
 * sweep-orphan-uploads removes the files no row names. Returns whether the file is gone.
 */
export function removeUpload(dataDir: string, relPath: string | null, log?: Pick<FastifyBaseLogger, 'warn'>): boolean {
  if (!relPath) return true;
  const full = resolveUpload(dataDir, relPath);
  if (!full) return true;
  try {
    fs.rmSync(full, { force: true });
    return true;
  } catch (err) {
    log?.warn({ err, file: relPath }, 'could not remove an upload file (the orphan sweep retries it)');
    return false;
  }
}
