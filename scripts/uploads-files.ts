import fs from 'node:fs';
import path from 'node:path';
import { UPLOAD_PATH_RE } from '../server/modules/uploads/uploads.storage.ts';

/** What placeUploads did: files hard-linked, copied (and their bytes), and found there already. */
export interface Placed {
  linked: number;
  copied: number;
  bytes: number;
  present: number;
}

export const nothingPlaced = (): Placed => ({ linked: 0, copied: 0, bytes: 0, present: 0 });

const errorCode = (e: unknown) => (e as NodeJS.ErrnoException).code ?? '';

/**
 * Puts every stored upload under `from` (named the way storeUpload names them: no half-written
 * .tmp file, nothing else an operator put there) into `to` at the same relative path, unless a file
 * is there already (names are random and an upload is never changed: it is the same photo). A hard
 * link where the filesystem allows, else a copy; nothing in `to` is deleted or replaced. Folders made
 * get `dirMode` (backups: 0700). Symbolic links are not followed; a file or folder gone since it was
 * listed (its ad deleted meanwhile) is skipped.
 */
export function placeUploads(from: string, to: string, placed: Placed, dirMode?: number, rel = ''): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(from, rel), { withFileTypes: true });
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return;
    throw e;
  }
  for (const entry of entries) {
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) placeUploads(from, to, placed, dirMode, name);
    if (!entry.isFile() || !UPLOAD_PATH_RE.test(name)) continue;
    const [source, dest] = [path.join(from, name), path.join(to, name)];
    if (fs.existsSync(dest)) {
      placed.present++;
      continue;
    }
    fs.mkdirSync(path.dirname(dest), { recursive: true, mode: dirMode });
    try {
      try {
        fs.linkSync(source, dest);
        placed.linked++;
      } catch (e) {
        if (!['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP'].includes(errorCode(e))) throw e;
        fs.copyFileSync(source, dest, fs.constants.COPYFILE_EXCL);
        placed.copied++;
        placed.bytes += fs.statSync(dest).size;
      }
    } catch (e) {
      if (errorCode(e) !== 'ENOENT') throw e;
    }
  }
}
