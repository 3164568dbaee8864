import { toWebp } from '../../core/images.ts';
import { removeUpload, storeUpload } from '../uploads/uploads.storage.ts';
import type { StoredPhoto } from './ads.dto.ts';

// Two sizes per photo, both re-encoded WebP without any metadata (core/images.ts never writes EXIF,
// so GPS positions and camera serials in the original are gone).
const LARGE = 1280;
const THUMB = 400;

/** Re-encodes every photo (400 naming `photos` for anything but JPEG/PNG/WebP) before storing any. */
export async function processAdPhotos(dataDir: string, inputs: Buffer[]): Promise<StoredPhoto[]> {
  const encoded = [];
  for (const input of inputs) {
    const large = await toWebp(input, { maxWidth: LARGE, maxHeight: LARGE, fit: 'inside', field: 'photos', quality: 82 });
    const thumb = await toWebp(input, { maxWidth: THUMB, maxHeight: THUMB, fit: 'inside', field: 'photos', quality: 75 });
    encoded.push({ large, thumb });
  }
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
  return stored;
}

export function removeAdPhotos(dataDir: string, photos: StoredPhoto[]): void {
  for (const p of photos) {
    removeUpload(dataDir, p.path);
    removeUpload(dataDir, p.thumbPath);
  }
}
