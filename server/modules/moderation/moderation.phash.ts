import { MAX_INPUT_PIXELS, loadSharp } from '../../core/images.ts';

/**
 * Two photos whose hashes differ in at most this many of the 64 bits are "near-identical": a
 * re-encoded, resized or lightly retouched copy stays within a few bits; different pictures are
 * around 32 apart.
 */
export const PHOTO_DISTANCE_MAX = 10;

/** A picture whose greys (at 9×8) span less than this is plain: nothing to compare. */
const FLAT_RANGE = 8;

/**
 * A 64-bit difference hash (dHash) of a picture, as 16 hex digits: the picture in grey, squeezed
 * to 9×8, then one bit per pair of neighbours in a row (is the right one brighter?). It follows
 * the picture's structure, not its bytes, so a copy saved at another JPEG quality or size keeps
 * (nearly) the same bits. Followed by 16 more: the hash of the picture mirrored left to right,
 * read from the same 9×8 grid, since a mirrored copy's bits are far from the original's (each pair
 * compared the other way round). The mirror's bits are not derivable from the hash alone: where two
 * neighbours are equal (a flat or clipped area) both directions give 0. The duplicate check
 * compares a new photo's both hashes (fingerprintAd) with the others' first, which is all
 * photo_hashes keeps (splitHash); hamming and isDistinctive read the first.
 */
export async function dHash(input: Buffer): Promise<string> {
  const sharp = await loadSharp();
  const { data } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
    .grayscale()
    .resize(9, 8, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  // A plain picture's neighbours differ by compression noise alone: its bits would be chance.
  // It gets the all-zero hash, which is never compared (isDistinctive).
  if (Math.max(...data) - Math.min(...data) < FLAT_RANGE) return '0'.repeat(32);
  const rowBits = (at: (y: number, x: number) => number) => {
    let hex = '';
    for (let y = 0; y < 8; y++) {
      let byte = 0;
      for (let x = 0; x < 8; x++) byte = (byte << 1) | (at(y, x) < at(y, x + 1) ? 1 : 0);
      hex += byte.toString(16).padStart(2, '0');
    }
    return hex;
  };
  return rowBits((y, x) => data[y * 9 + x]) + rowBits((y, x) => data[y * 9 + 8 - x]);
}

/** A dHash answer as the hash photo_hashes keeps and its mirror's (null for a hash without one). */
export function splitHash(hash: string): { hash: string; mirror: string | null } {
  return { hash: hash.slice(0, 16), mirror: hash.length >= 32 ? hash.slice(16, 32) : null };
}

const bitsIn = (n: number) => {
  let c = 0;
  for (let v = n; v; v &= v - 1) c++;
  return c;
};

/** How many of the 64 bits differ between two hashes (their first 16 digits). */
export function hamming(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < 16; i += 4) d += bitsIn(parseInt(a.slice(i, i + 4), 16) ^ parseInt(b.slice(i, i + 4), 16));
  return d;
}

/**
 * A plain picture (one colour, a smooth gradient) hashes to nearly all zeros or all ones: every
 * plain picture would look like every other. Such hashes are stored but never compared.
 */
export function isDistinctive(hash: string): boolean {
  let ones = 0;
  for (let i = 0; i < 16; i += 4) ones += bitsIn(parseInt(hash.slice(i, i + 4), 16));
  return ones >= 4 && ones <= 60;
}
