import fs from 'node:fs';
import path from 'node:path';
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

/** Removes a stored file; a missing file or a path outside the root is ignored. */
export function removeUpload(dataDir: string, relPath: string | null): void {
  if (!relPath) return;
  const full = resolveUpload(dataDir, relPath);
  if (full) fs.rmSync(full, { force: true });
}
