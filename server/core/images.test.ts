import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { assertImage, processImage, toWebp } from './images.ts';
import { Invalid } from './errors.ts';
import { SECRET_MAKE, gif, jpegWithGps, png, webp, webpChunks } from '../modules/uploads/test-images.ts';

describe('images', () => {
  it('detects the format from the bytes', async () => {
    expect(await assertImage(await jpegWithGps())).toMatchObject({ format: 'jpeg', width: 400, height: 200 });
    expect((await assertImage(await png())).format).toBe('png');
    expect((await assertImage(await webp())).format).toBe('webp');
  });

  it('refuses non-images and other image formats with a 400 naming the field', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    for (const input of [Buffer.from('hello, not an image'), Buffer.alloc(0), await gif(), svg]) {
      const err = await assertImage(input, 'photo').catch((e) => e);
      expect(err).toBeInstanceOf(Invalid);
      expect(err.field).toBe('photo');
      expect(err.message).toMatch(/photo must be a JPEG, PNG or WebP/);
    }
  });

  it('refuses a truncated image whose header still parses', async () => {
    const full = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#888' } }).png({ compressionLevel: 0 }).toBuffer();
    const err = await toWebp(full.subarray(0, 2000), { maxWidth: 100, maxHeight: 100, fit: 'inside' }).catch((e) => e);
    expect(err).toBeInstanceOf(Invalid);
  });

  it('removes EXIF, including the GPS position, and turns the pixels upright', async () => {
    const input = await jpegWithGps(400, 200);
    const inMeta = await sharp(input).metadata();
    // The fixture really carries what we must remove.
    expect(inMeta.orientation).toBe(6);
    expect(inMeta.exif!.includes(SECRET_MAKE)).toBe(true);
    expect(inMeta.exif!.includes(Buffer.from([0x25, 0x88]))).toBe(true); // GPSInfo IFD pointer (0x8825, little-endian)

    const out = await toWebp(input, { maxWidth: 1000, maxHeight: 1000, fit: 'inside' });
    expect([out.width, out.height]).toEqual([200, 400]); // orientation 6 applied; never enlarged
    const meta = await sharp(out.buffer).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(webpChunks(out.buffer).filter((c) => c !== 'VP8 ' && c !== 'VP8L')).toEqual([]);
    expect(out.buffer.includes(SECRET_MAKE)).toBe(false);
  });

  it('fits inside a box for photos and crops to an exact square for avatars', async () => {
    const big = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#123' } }).jpeg().toBuffer();
    const large = await toWebp(big, { maxWidth: 1600, maxHeight: 1600, fit: 'inside', quality: 82 });
    const thumb = await toWebp(big, { maxWidth: 400, maxHeight: 400, fit: 'inside' });
    expect([large.width, large.height]).toEqual([1600, 800]);
    expect([thumb.width, thumb.height]).toEqual([400, 200]);
    const avatar = await processImage(await png(40, 30), { width: 256, height: 256, fit: 'cover' });
    expect([avatar.width, avatar.height]).toEqual([256, 256]);
    const m = await sharp(avatar.buffer).metadata();
    expect([m.format, m.width, m.height]).toEqual(['webp', 256, 256]);
  });
});
