/**
 * What a picture's first bytes declare: its format and size, read without decoding anything. Shared
 * by the server (server/core/images.ts, before libvips sees an upload) and the photo picker (which
 * refuses a photo when it is picked rather than after the whole post was uploaded). Pure: works on
 * a Uint8Array (a Node Buffer is one), no Node API.
 */

export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type ImageFormat = (typeof ACCEPTED_FORMATS)[number];

export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
}

/**
 * Refuses decompression bombs: a small file can declare billions of pixels, and decoding 100 MP
 * costs ~0.5 s of CPU and ~50 MB of memory per picture. 40 MP is any phone's default photo (12 to
 * 24 MP), not the full-resolution modes of 48 and 50 MP cameras (8000×6000, 8160×6120): those are
 * refused, by the photo picker when picked, with a message asking for a smaller size.
 */
export const MAX_INPUT_PIXELS = 40_000_000;

/** The megapixels of a size, to one decimal, as the refusals word them. */
export const megapixelsOf = (width: number, height: number): number => Math.round((width * height) / 1e5) / 10;

/**
 * The picture's header; 'more' when the bytes end before a JPEG's frame header (it may follow
 * several hundred KB of EXIF and XMP: read further), null for anything but a JPEG, PNG or WebP.
 */
export function readImageStart(b: Uint8Array): ImageInfo | 'more' | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const text = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  const size = (format: ImageFormat, width: number, height: number): ImageInfo | null => (width > 0 && height > 0 ? { format, width, height } : null);
  if (b.length >= 24 && view.getUint32(0) === 0x89504e47 && view.getUint32(4) === 0x0d0a1a0a && text(12, 16) === 'IHDR') {
    return size('png', view.getUint32(16), view.getUint32(20));
  }
  if (b.length >= 16 && text(0, 4) === 'RIFF' && text(8, 12) === 'WEBP') {
    const chunk = text(12, 16);
    if (chunk === 'VP8 ' && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
      return size('webp', view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
    }
    if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
      const bits = view.getUint32(21, true);
      return size('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    if (chunk === 'VP8X' && b.length >= 30) return size('webp', uint24le(b, 24) + 1, uint24le(b, 27) + 1);
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpegSize(b, view);
  return null;
}

/** The format and size a JPEG, PNG or WebP file declares, or null for anything else (or bytes ending before the header). */
export function readImageHeader(b: Uint8Array): ImageInfo | null {
  const start = readImageStart(b);
  return start === 'more' ? null : start;
}

const uint24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);

/**
 * Walks the JPEG markers to the first frame header (SOFn), the way libjpeg does; null when a scan
 * or the end of the image comes first, 'more' when the bytes end before either.
 */
function jpegSize(b: Uint8Array, view: DataView): ImageInfo | 'more' | null {
  let i = 2;
  while (i < b.length) {
    while (i < b.length && b[i] !== 0xff) i++; // libjpeg skips stray bytes between segments
    while (i < b.length && b[i] === 0xff) i++; // fill bytes
    if (i >= b.length) return 'more';
    const marker = b[i++];
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue; // markers without a length
    if (marker === 0xd9 || marker === 0xda) return null;
    if (i + 2 > b.length) return 'more';
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return i + 7 <= b.length ? { format: 'jpeg', width: view.getUint16(i + 5), height: view.getUint16(i + 3) } : 'more';
    i += view.getUint16(i);
  }
  return 'more';
}
