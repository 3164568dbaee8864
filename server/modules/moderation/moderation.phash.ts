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
 * (nearly) the same bits.
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
  if (Math.max(...data) - Math.min(...data) < FLAT_RANGE) return '0'.repeat(16);
  let hex = '';
  for (let y = 0; y < 8; y++) {
    let byte = 0;
    for (let x = 0; x < 8; x++) byte = (byte << 1) | (data[y * 9 + x] < data[y * 9 + x + 1] ? 1 : 0);
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

const bitsIn = (n: number) => {
  let c = 0;
  for (let v = n; v; v &= v - 1) c++;
  return c;
};

/** How many of the 64 bits differ between two hashes. */
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
