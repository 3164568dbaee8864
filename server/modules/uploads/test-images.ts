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
  return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } }).png().toBuffer();
}

export function webp(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#33c' } }).webp().toBuffer();
}

export function gif(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#333' } }).gif().toBuffer();
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
export function multipart(parts: { name: string; filename?: string; contentType?: string; data: Buffer | string }[]): { payload: Buffer; headers: Record<string, string> } {
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
