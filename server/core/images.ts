import type { Metadata, default as Sharp } from 'sharp';
import type { ErrorCode, ErrorParams } from '../../contract/errors/index.ts';
import type { Limits } from './deps.ts';
import { ACCEPTED_FORMATS, MAX_INPUT_PIXELS, megapixelsOf, readImageHeader, type ImageFormat, type ImageInfo } from '../../contract/image-header.ts';
import { Invalid, TooLarge } from './errors.ts';
import { WorkQueue } from './work-queue.ts';

// Every uploaded picture goes through here: the format is read from the bytes (never the file
// name or the client's content type), the pixels are turned upright by their EXIF orientation and
// re-encoded as WebP. sharp writes no metadata unless withMetadata/withExif is called, and this
// file never calls them: EXIF (GPS position, camera serial), XMP and ICC comments are all dropped.

// The header reader and the 40 MP limit are shared with the photo picker, which refuses the same
// photos when they are picked (contract/image-header.ts).
export { MAX_INPUT_PIXELS, readImageHeader } from '../../contract/image-header.ts';
export type { ImageInfo } from '../../contract/image-header.ts';

let sharpModule: Promise<typeof Sharp> | undefined;
/**
 * sharp (libvips and its own dependencies, ~10 MB of the server's memory) is loaded by the first
 * picture, not at start: a server that only serves pages and answers never holds it. Awaited
 * outside the callers' try blocks, so a sharp that cannot load is a 500, never a refused picture.
 */
export function loadSharp(): Promise<typeof Sharp> {
  sharpModule ??= import('sharp').then((m) => m.default);
  return sharpModule;
}

/** One of several files sent under one field (an ad's photos): its name as sent, cleaned, and its place among them, from 1. */
export interface SentFile {
  /** '' when the request gave none. */
  name: string;
  position: number;
}

/** Each refusal of a picture, and its wording that names the file (which of the photos to remove). */
const NAMING_FILE = {
  'upload.not_an_image': 'upload.file_not_an_image',
  'upload.damaged': 'upload.file_damaged',
  'upload.too_many_pixels': 'upload.file_too_many_pixels',
  'upload.too_many_scans': 'upload.file_too_many_scans',
  'upload.too_heavy': 'upload.file_too_heavy',
  'upload.too_slow': 'upload.file_too_slow',
} as const satisfies Partial<Record<ErrorCode, ErrorCode>>;

/**
 * A refusal's code and params, with the file's name and position when it is one of several: the
 * message then names it. A file sent without a name keeps the plain wording (its position is in
 * the params all the same), as a lone picture such as the avatar does.
 */
function refusal(code: keyof typeof NAMING_FILE, params: ErrorParams, file: SentFile | undefined): [ErrorCode, ErrorParams] {
  if (!file) return [code, params];
  return [file.name ? NAMING_FILE[code] : code, { ...params, name: file.name, position: file.position }];
}

/**
 * Format, pixel count and decoding cost from the header alone, in JavaScript: 400 naming `field`
 * (and `file`, one of several sent) for anything but JPEG/PNG/WebP or for a JPEG of absurdly many
 * scans, 413 naming them over 40 MP or for a PNG too heavy to decode (see assertPngWeight).
 */
export function assertImageHeader(input: Buffer, field = 'image', file?: SentFile): ImageInfo {
  const info = readImageHeader(input);
  if (!info || info.width === 0 || info.height === 0) throw new Invalid(field, ...refusal('upload.not_an_image', {}, file));
  assertPixels(info.width, info.height, field, file);
  if (info.format === 'jpeg' && jpegScansOver(input, MAX_JPEG_SCANS))
    throw new Invalid(field, ...refusal('upload.too_many_scans', { max: MAX_JPEG_SCANS }, file));
  if (info.format === 'png') assertPngWeight(input, info, field, file);
  return info;
}

function assertPixels(width: number, height: number, field: string, file: SentFile | undefined): void {
  if (width * height > MAX_INPUT_PIXELS) {
    throw new TooLarge(
      ...refusal('upload.too_many_pixels', { field, width, height, megapixels: megapixelsOf(width, height), max: MAX_INPUT_PIXELS / 1e6 }, file),
    );
  }
}

/**
 * libjpeg walks every block of a progressive image again for each scan, so decoding time grows
 * with the scan count, not with pixels or bytes: a 0.3 MB file of 1,000 scans cost 6.4 s a decode
 * at 40 MP, and the 10 MB a photo may weigh holds ~160,000. Cameras and encoders write about a
 * dozen (mozjpeg's optimised scans, ~20); 100 at 40 MP cost under a second.
 */
export const MAX_JPEG_SCANS = 100;

/** Whether the JPEG holds more than `max` scans (SOS markers), walking the markers and skipping each scan's entropy-coded data. */
function jpegScansOver(b: Buffer, max: number): boolean {
  let scans = 0;
  let i = 2;
  while (i < b.length) {
    while (i < b.length && b[i] !== 0xff) i++;
    while (i < b.length && b[i] === 0xff) i++;
    if (i >= b.length) return false;
    const marker = b[i++];
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue;
    if (marker === 0xd9 || i + 2 > b.length) return false;
    i += b.readUInt16BE(i);
    if (marker !== 0xda) continue;
    if (++scans > max) return true;
    // Entropy-coded data runs to the next marker: 0xFF then neither a stuffed 0x00 nor a restart marker.
    for (i = b.indexOf(0xff, i); i !== -1 && i + 1 < b.length; i = b.indexOf(0xff, i + 1)) {
      const next = b[i + 1];
      if (next !== 0x00 && next !== 0xff && (next < 0xd0 || next > 0xd7)) break;
    }
    if (i === -1) return false;
  }
  return false;
}

/**
 * What a PNG takes once decoded matters more than its pixel count: 16 bits a sample and an alpha
 * channel make 8 bytes a pixel, and an Adam7-interlaced PNG is decoded (libspng) into one buffer of
 * the whole image before libvips sees a row. A 300 KB 39 MP 16-bit RGBA interlaced PNG grew the
 * server by ~420 MB. Bounded: 160 MB decoded (40 MP of 8-bit RGBA, ~110 MB resident when encoded),
 * a quarter of that when interlaced (~100 MB resident).
 */
export const MAX_DECODED_BYTES = 160_000_000;
export const MAX_INTERLACED_DECODED_BYTES = 40_000_000;

/** Decoded size from IHDR: samples a pixel by colour type (a palette expands to RGBA), 2 bytes a sample at 16 bits. */
function assertPngWeight(b: Buffer, info: ImageInfo, field: string, file: SentFile | undefined): void {
  if (b.length < 29) return; // libvips refuses the truncated header
  const bitDepth = b[24];
  const channels = ({ 0: 1, 2: 3, 3: 4, 4: 2, 6: 4 } as Record<number, number>)[b[25]] ?? 4;
  const interlaced = b[28] === 1;
  const bytes = info.width * info.height * channels * (bitDepth === 16 ? 2 : 1);
  const max = interlaced ? MAX_INTERLACED_DECODED_BYTES : MAX_DECODED_BYTES;
  if (bytes > max) {
    throw new TooLarge(...refusal('upload.too_heavy', { field, width: info.width, height: info.height, mb: Math.ceil(bytes / 1e6), max: max / 1e6 }, file));
  }
}

/**
 * Reads the real format from the bytes; throws 400 naming `field` (and `file`) for anything but
 * JPEG, PNG or WebP, 413 naming them when the header declares more than 40 MP. The header is
 * checked in JavaScript first, then by libvips (which reads headers only, never pixels, for metadata()).
 */
export async function assertImage(input: Buffer, field = 'image', file?: SentFile): Promise<ImageInfo> {
  assertImageHeader(input, field, file);
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw new Invalid(field, ...refusal('upload.not_an_image', {}, file));
  }
  const format = meta.format as string | undefined;
  if (!format || !(ACCEPTED_FORMATS as readonly string[]).includes(format) || !meta.width || !meta.height) {
    throw new Invalid(field, ...refusal('upload.not_an_image', {}, file));
  }
  assertPixels(meta.width, meta.height, field, file);
  return { format: format as ImageFormat, width: meta.width, height: meta.height };
}

/**
 * Image-queue jobs one account may have waiting at once; its next is refused 429 while other
 * accounts keep getting places (500 in all). A request queues one job at a time (a post's photos go
 * one after another), so this counts an account's uploads in flight together: a person posting,
 * editing and changing the avatar in a few tabs has two or three waiting. 10 is one full ad form
 * (ads.rules.ts MAX_PHOTOS), so a whole post would still fit should its photos ever queue side by
 * side; ten uploads in flight at once is a script's doing, not a person's (and half of a day's 20
 * posts). Filling the queue's 500 places now takes 50 accounts, not one.
 */
export const MAX_WAITING_PER_ACCOUNT = 10;

// One queue per app (keyed by its limits object, which each buildApp makes afresh), shared by
// every upload route: ad photos and avatars together never decode more than imageConcurrency at once.
const queues = new WeakMap<object, WorkQueue>();
export function imageQueue(deps: { limits: Pick<Limits, 'imageConcurrency'> }): WorkQueue {
  let q = queues.get(deps.limits);
  if (!q) {
    q = new WorkQueue(deps.limits.imageConcurrency, 500, MAX_WAITING_PER_ACCOUNT);
    queues.set(deps.limits, q);
  }
  return q;
}

export interface WebpOptions {
  maxWidth: number;
  maxHeight: number;
  /** 'cover' crops to exactly maxWidth×maxHeight (avatars); 'inside' keeps the aspect ratio and never enlarges (ad photos). */
  fit: 'inside' | 'cover';
  /** WebP quality 1–100; 80 by default. */
  quality?: number;
  /** Field named in the 400 (not an accepted image) and 413 (over 40 MP) messages. */
  field?: string;
  /** The file named in them, when it is one of several sent under `field`. */
  file?: SentFile;
}

export interface WebpResult {
  buffer: Buffer;
  width: number;
  height: number;
}

/**
 * The header checks bound what a picture can cost; this cuts whatever slow decode they miss, so
 * no upload holds an image-queue slot for long. A 40 MP photo takes well under a second here.
 * libvips checks it between tiles, so a single tile's decode still runs to its end.
 */
export const DECODE_TIMEOUT_SECONDS = 10;

/** Validates, orients, resizes and re-encodes one image as metadata-free WebP. */
export async function toWebp(input: Buffer, opts: WebpOptions): Promise<WebpResult> {
  await assertImage(input, opts.field, opts.file);
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate() // applies the EXIF orientation to the pixels; the tag itself is not written out
      .resize({
        width: opts.maxWidth,
        height: opts.maxHeight,
        fit: opts.fit,
        withoutEnlargement: opts.fit === 'inside',
        position: 'attention',
      })
      .webp({ quality: opts.quality ?? 80 })
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    return { buffer: data, width: info.width, height: info.height };
  } catch (e) {
    const field = opts.field ?? 'image';
    if (e instanceof Error && e.message.startsWith('timeout'))
      throw new Invalid(field, ...refusal('upload.too_slow', { seconds: DECODE_TIMEOUT_SECONDS }, opts.file));
    // The header parsed but the pixels did not (truncated or corrupt file).
    throw new Invalid(field, ...refusal('upload.damaged', {}, opts.file));
  }
}

/** Shorthand used by the brief's callers: width/height/fit, default quality. */
export function processImage(input: Buffer, opts: { width: number; height: number; fit: 'inside' | 'cover'; field?: string }): Promise<WebpResult> {
  return toWebp(input, { maxWidth: opts.width, maxHeight: opts.height, fit: opts.fit, field: opts.field });
}
