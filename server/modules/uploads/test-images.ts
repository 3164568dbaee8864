import zlib from 'node:zlib';
import sharp from 'sharp';

// Test fixtures: real images made by sharp, with the metadata a phone camera would leave in them.

export const SECRET_MAKE = 'SecretCam-SN-4242';

/** A JPEG carrying EXIF with a camera make, a GPS position and an orientation tag (6 = rotate 90°). */
export function jpegWithGps(width = 400, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c33' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: SECRET_MAKE },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 26/1 46/1', GPSLongitudeRef: 'W', GPSLongitude: '79/1 58/1 56/1' },
    })
    .toBuffer();
}

export function png(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

export function webp(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#33c' } })
    .webp()
    .toBuffer();
}

export function gif(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#333' } })
    .gif()
    .toBuffer();
}

/** The chunk ids of a WebP (RIFF) file, e.g. ['VP8 '] or ['VP8X', 'EXIF', 'VP8 ']. */
export function webpChunks(buf: Buffer): string[] {
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WEBP') throw new Error('not a WebP file');
  const ids: string[] = [];
  let at = 12;
  while (at + 8 <= buf.length) {
    ids.push(buf.toString('ascii', at, at + 4));
    const size = buf.readUInt32LE(at + 4);
    at += 8 + size + (size % 2);
  }
  return ids;
}

/** Builds a multipart/form-data body for app.inject(). */
export function multipart(parts: { name: string; filename?: string; contentType?: string; data: Buffer | string }[]): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----xgtest${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * A valid one-colour greyscale PNG of any size, built by hand: zlib squeezes its rows of zeros, so
 * 8000×6000 (48 MP) is ~50 KB on disk and 48 MB or more once decoded. The shape of an image bomb.
 */
export function flatPng(width: number, height: number): Buffer {
  return pngOf(width, height, { depth: 8, colourType: 0, interlaced: false });
}

/** A one-colour PNG of width×height, Adam7-interlaced or not, of the given bit depth and colour type (6 = RGBA). */
export function pngOf(width: number, height: number, opts: { depth: 8 | 16; colourType: 0 | 2 | 6; interlaced: boolean }): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const bytesPerPixel = ({ 0: 1, 2: 3, 6: 4 }[opts.colourType] * opts.depth) / 8;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([opts.depth, opts.colourType, 0, 0, opts.interlaced ? 1 : 0], 8);
  const passes = opts.interlaced
    ? [
        [0, 0, 8, 8],
        [4, 0, 8, 8],
        [0, 4, 4, 8],
        [2, 0, 4, 4],
        [0, 2, 2, 4],
        [1, 0, 2, 2],
        [0, 1, 1, 2],
      ]
    : [[0, 0, 1, 1]];
  const rows: Buffer[] = [];
  for (const [x0, y0, dx, dy] of passes) {
    const pw = Math.ceil((width - x0) / dx);
    const ph = Math.ceil((height - y0) / dy);
    if (pw > 0 && ph > 0) rows.push(Buffer.alloc(ph * (1 + pw * bytesPerPixel)));
  }
  const idat = zlib.deflateSync(Buffer.concat(rows), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A copy of a baseline JPEG whose frame header (SOF0) claims another size. libjpeg believes it
 * and decodes that many pixels from the few bytes of data there are: a bomb of a few hundred bytes.
 */
export function jpegDeclaring(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  let i = 2;
  while (i + 4 <= out.length && out[i] === 0xff) {
    const marker = out[i + 1];
    if (marker === 0xc0) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
    i += 2 + out.readUInt16BE(i + 2);
  }
  throw new Error('no baseline frame header (SOF0) in this JPEG');
}
