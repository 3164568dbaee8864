import type { AppDeps } from '../../core/deps.ts';
import { assertImageHeader, imageQueue, toWebp, type SentFile } from '../../core/images.ts';
import { removeUpload, storeUpload } from '../uploads/uploads.storage.ts';
import type { StoredPhoto } from './ads.dto.ts';
import type { PhotoUpload } from './ads.upload.ts';
import { dHash } from '../moderation/moderation.phash.ts';

// Two sizes per photo, both re-encoded WebP without any metadata (core/images.ts never writes EXIF,
// so GPS positions and camera serials in the original are gone).
const LARGE = 1280;
const THUMB = 400;

/** Re-encodes and stores the photos (see encodeAdPhotos), without their hashes. */
export async function processAdPhotos(deps: Pick<AppDeps, 'config' | 'limits'>, inputs: readonly PhotoUpload[]): Promise<StoredPhoto[]> {
  return (await encodeAdPhotos(deps, inputs)).photos;
}

/**
 * Re-encodes every photo before storing any. Every header is checked first, in JavaScript (400
 * naming `photos` for anything but JPEG/PNG/WebP, 413 over 40 MP; each refusal names the photo by
 * its file name and position, so its sender knows which to remove), so a bomb costs no decoding
 * and no place in the queue. Then each photo is one job of the app's image queue; a post's
 * photos go one after another, so one post of ten photos cannot hold every slot. The same job
 * takes the perceptual hash of the large copy (moderation.phash.ts), for the duplicate check;
 * `hashes[i]` is the hash of `photos[i]`. The jobs queue as `owner`'s (the account sending them),
 * which takes turns with other accounts (work-queue.ts).
 */
export async function encodeAdPhotos(
  deps: Pick<AppDeps, 'config' | 'limits'>,
  inputs: readonly PhotoUpload[],
  owner?: string,
): Promise<{ photos: StoredPhoto[]; hashes: string[] }> {
  const sent = (i: number): SentFile => ({ name: inputs[i].fileName ?? '', position: i + 1 });
  inputs.forEach((input, i) => assertImageHeader(input, 'photos', sent(i)));
  const queue = imageQueue(deps);
  const encoded = [];
  for (const [i, input] of inputs.entries()) {
    const file = sent(i);
    encoded.push(
      await queue.run(async () => {
        const large = await toWebp(input, { maxWidth: LARGE, maxHeight: LARGE, fit: 'inside', field: 'photos', file, quality: 82 });
        const thumb = await toWebp(input, { maxWidth: THUMB, maxHeight: THUMB, fit: 'inside', field: 'photos', file, quality: 75 });
        return { large, thumb, hash: await dHash(large.buffer) };
      }, owner),
    );
  }
  const { dataDir } = deps.config;
  const stored: StoredPhoto[] = [];
  try {
    for (const { large, thumb } of encoded) {
      const path = storeUpload(dataDir, 'ads', large.buffer);
      const thumbPath = storeUpload(dataDir, 'ads', thumb.buffer);
      stored.push({ path, width: large.width, height: large.height, thumbPath, thumbWidth: thumb.width, thumbHeight: thumb.height });
    }
  } catch (e) {
    removeAdPhotos(dataDir, stored);
    throw e;
  }
  return { photos: stored, hashes: encoded.map((e) => e.hash) };
}

export function removeAdPhotos(dataDir: string, photos: StoredPhoto[]): void {
  for (const p of photos) {
    removeUpload(dataDir, p.path);
    removeUpload(dataDir, p.thumbPath);
  }
}
