import sharp, { type Metadata } from 'sharp';
import { Invalid } from './errors.ts';

// Every uploaded picture goes through here: the format is read from the bytes (never the file
// name or the client's content type), the pixels are turned upright by their EXIF orientation and
// re-encoded as WebP. sharp writes no metadata unless withMetadata/withExif is called, and this
// file never calls them: EXIF (GPS position, camera serial), XMP and ICC comments are all dropped.

export const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type ImageFormat = (typeof ACCEPTED_FORMATS)[number];

/** Refuses decompression bombs: a 10 MB file can declare billions of pixels. 100 MP covers any phone. */
const MAX_INPUT_PIXELS = 100_000_000;

const NOT_AN_IMAGE = 'must be a JPEG, PNG or WebP image.';

export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
}

/** Reads the real format from the bytes; throws 400 naming `field` for anything but JPEG, PNG or WebP. */
export async function assertImage(input: Buffer, field = 'image'): Promise<ImageInfo> {
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw new Invalid(field, `The ${field} ${NOT_AN_IMAGE}`);
  }
  const format = meta.format as string | undefined;
  if (!format || !(ACCEPTED_FORMATS as readonly string[]).includes(format) || !meta.width || !meta.height) {
    throw new Invalid(field, `The ${field} ${NOT_AN_IMAGE}`);
  }
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new Invalid(field, `The ${field} has too many pixels.`);
  return { format: format as ImageFormat, width: meta.width, height: meta.height };
}

export interface WebpOptions {
  maxWidth: number;
  maxHeight: number;
  /** 'cover' crops to exactly maxWidth×maxHeight (avatars); 'inside' keeps the aspect ratio and never enlarges (ad photos). */
  fit: 'inside' | 'cover';
  /** WebP quality 1–100; 80 by default. */
  quality?: number;
  /** Field named in the 400 message when the input is not an accepted image. */
  field?: string;
}

export interface WebpResult {
  buffer: Buffer;
  width: number;
  height: number;
}

/** Validates, orients, resizes and re-encodes one image as metadata-free WebP. */
export async function toWebp(input: Buffer, opts: WebpOptions): Promise<WebpResult> {
  await assertImage(input, opts.field);
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
      .toBuffer({ resolveWithObject: true });
    return { buffer: data, width: info.width, height: info.height };
  } catch {
    // The header parsed but the pixels did not (truncated or corrupt file).
    const field = opts.field ?? 'image';
    throw new Invalid(field, `The ${field} is damaged or ${NOT_AN_IMAGE}`);
  }
}

/** Shorthand used by the brief's callers: width/height/fit, default quality. */
export function processImage(input: Buffer, opts: { width: number; height: number; fit: 'inside' | 'cover'; field?: string }): Promise<WebpResult> {
  return toWebp(input, { maxWidth: opts.width, maxHeight: opts.height, fit: opts.fit, field: opts.field });
}
