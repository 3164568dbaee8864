import fs from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../../core/deps.ts';
import { jobReport, type JobReport } from '../../core/report.ts';
import { UPLOAD_PATH_RE, uploadsRoot } from './uploads.storage.ts';
import { adPhotoPathsAfter, avatarPaths, pendingRevisionPhotoPaths } from './uploads.repository.ts';
import { heldUploadPaths } from '../moderation/moderation.holds.ts';

/**
 * A post stores its photo files first and its row after; a crash in between leaves files that no
 * row names. Younger than this, a file may belong to a post still in progress, so it is kept.
 */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

/**
 * Every upload path an ad, an edit waiting for review, an avatar or a legal hold (held ads' copies,
 * every revision and version of a held ad, a held account's replaced avatar) names. Ads are read a
 * chunk at a time with a turn of the event loop between chunks: better-sqlite3 is synchronous, and
 * at a million ads one query would hold every request for seconds. An ad inserted meanwhile may be
 * missed, but its files are young.
 */
async function referencedPaths(deps: Pick<AppDeps, 'db'>, chunkSize: number): Promise<Set<string>> {
  const refs = new Set([...(await avatarPaths(deps.db)), ...(await pendingRevisionPhotoPaths(deps.db)), ...(await heldUploadPaths(deps.db))]);
  for (let after: string | null = ''; after !== null;) {
    const chunk = await adPhotoPathsAfter(deps.db, after, chunkSize);
    for (const p of chunk.paths) refs.add(p);
    after = chunk.lastId;
    await new Promise((r) => setImmediate(r));
  }
  return refs;
}

/** Relative paths (with '/') of the regular files under `dir`; symbolic links are not followed. */
async function* filesUnder(root: string, dir = root): AsyncGenerator<string> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return; // no uploads yet, or a folder removed meanwhile
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(root, full);
    else if (e.isFile()) yield path.relative(root, full).split(path.sep).join('/');
  }
}

/** One of ours: a stored upload, or what a write cut short left of one (storeUpload's "<name>.tmp"). */
function isOurs(rel: string): boolean {
  return UPLOAD_PATH_RE.test(rel.endsWith('.tmp') ? rel.slice(0, -4) : rel);
}

/**
 * Cron job sweep-orphan-uploads: removes upload files that nothing above names and that are older
 * than an hour. Files not named the way storeUpload names them are left alone.
 * References are read before the folder is walked, so a file stored after that read is young.
 */
export async function sweepOrphanUploads(deps: Pick<AppDeps, 'config' | 'db' | 'clock'>, opts: { chunkSize?: number } = {}): Promise<JobReport> {
  const root = uploadsRoot(deps.config.dataDir);
  const refs = await referencedPaths(deps, opts.chunkSize ?? 2000);
  const cutoff = deps.clock.now().getTime() - ORPHAN_MIN_AGE_MS;
  let removed = 0;
  for await (const rel of filesUnder(root)) {
    if (!isOurs(rel) || refs.has(rel)) continue;
    const full = path.join(root, rel);
    try {
      if ((await fs.promises.lstat(full)).mtimeMs > cutoff) continue;
      await fs.promises.rm(full);
      removed++;
    } catch {
      // removed by someone else meanwhile (a cart deletion): nothing to do
    }
  }
  return jobReport(`${removed} orphan upload file${removed === 1 ? '' : 's'} removed`, 'cron.orphans_removed', { count: removed });
}
