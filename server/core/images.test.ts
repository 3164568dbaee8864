import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import sharp, { type Sharp } from 'sharp';
import { assertImage, assertImageHeader, imageQueue, MAX_INPUT_PIXELS, processImage, readImageHeader, toWebp } from './images.ts';
import { Invalid, TooLarge } from './errors.ts';
import { DEFAULT_LIMITS } from './deps.ts';
import { SECRET_MAKE, flatPng, gif, jpegDeclaring, jpegWithGps, png, webp, webpChunks } from '../modules/uploads/test-images.ts';

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
    const full = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#888' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
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
    const big = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#123' } })
      .jpeg()
      .toBuffer();
    const large = await toWebp(big, { maxWidth: 1600, maxHeight: 1600, fit: 'inside', quality: 82 });
    const thumb = await toWebp(big, { maxWidth: 400, maxHeight: 400, fit: 'inside' });
    expect([large.width, large.height]).toEqual([1600, 800]);
    expect([thumb.width, thumb.height]).toEqual([400, 200]);
    const avatar = await processImage(await png(40, 30), { width: 256, height: 256, fit: 'cover' });
    expect([avatar.width, avatar.height]).toEqual([256, 256]);
    const m = await sharp(avatar.buffer).metadata();
    expect([m.format, m.width, m.height]).toEqual(['webp', 256, 256]);
  });

  it('reads the size from the header exactly as libvips does, for every kind of JPEG, PNG and WebP', async () => {
    const encoders: Record<string, (img: Sharp) => Sharp> = {
      'jpeg baseline': (i) => i.jpeg(),
      'jpeg progressive': (i) => i.jpeg({ progressive: true }),
      'jpeg with EXIF': (i) => i.jpeg().withExif({ IFD0: { Make: 'TestCam' } }),
      png: (i) => i.png(),
      'png interlaced': (i) => i.png({ progressive: true }),
      'webp lossy (VP8)': (i) => i.webp(),
      'webp lossless (VP8L)': (i) => i.webp({ lossless: true }),
      'webp with alpha (VP8X)': (i) => i.webp({ alphaQuality: 50 }),
    };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 700 }),
        fc.integer({ min: 1, max: 700 }),
        fc.constantFrom(...Object.keys(encoders)),
        async (width, height, kind) => {
          const channels = kind.includes('alpha') ? 4 : 3;
          const buf = await encoders[kind](sharp({ create: { width, height, channels, background: { r: 90, g: 20, b: 200, alpha: 0.5 } } })).toBuffer();
          const meta = await sharp(buf).metadata();
          expect(readImageHeader(buf), kind).toEqual({ format: meta.format, width: meta.width, height: meta.height });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('finds no size in anything that is not a whole JPEG, PNG or WebP header', async () => {
    const jpeg = await jpegWithGps();
    for (const input of [
      Buffer.alloc(0),
      Buffer.from('GIF89a'),
      await gif(),
      jpeg.subarray(0, 20),
      (await png()).subarray(0, 20),
      (await webp()).subarray(0, 20),
      Buffer.from('RIFF\0\0\0\0WEBPVP8 '),
    ]) {
      expect(readImageHeader(input)).toBeNull();
    }
  });

  it('refuses more than 40 megapixels from the header alone, with a 413 naming the field', async () => {
    expect(MAX_INPUT_PIXELS).toBe(40_000_000);
    const small = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    const bombs = {
      'png 8000×6000': flatPng(8000, 6000),
      'jpeg claiming 10000×8000': jpegDeclaring(small, 10000, 8000),
      'webp claiming 16384×16384': Buffer.concat([
        Buffer.from('RIFF\0\0\0\0WEBPVP8X\x0a\0\0\0\0\0\0\0', 'latin1'),
        Buffer.from([0xff, 0x3f, 0, 0xff, 0x3f, 0]),
      ]),
    };
    for (const [name, bomb] of Object.entries(bombs)) {
      expect(readImageHeader(bomb)!.width * readImageHeader(bomb)!.height, name).toBeGreaterThan(MAX_INPUT_PIXELS);
      const err = (() => {
        try {
          assertImageHeader(bomb, 'photos');
        } catch (e) {
          return e as Error & { statusCode: number };
        }
      })();
      expect(err, name).toBeInstanceOf(TooLarge);
      expect(err!.statusCode).toBe(413);
      expect(err!.message).toMatch(/photos is too large: .* megapixels, and at most 40/);
      // The whole pipeline refuses too, before libvips sees the file (these decode fine with a higher limit).
      await expect(toWebp(bomb, { maxWidth: 100, maxHeight: 100, fit: 'inside', field: 'photos' }), name).rejects.toBeInstanceOf(TooLarge);
    }
    expect(assertImageHeader(flatPng(8000, 5000), 'photos')).toEqual({ format: 'png', width: 8000, height: 5000 }); // exactly 40 MP passes
  });

  it('gives each app one image queue, sized by its limits', () => {
    const a = { limits: { ...DEFAULT_LIMITS, imageConcurrency: 3 } };
    const b = { limits: { ...DEFAULT_LIMITS } };
    expect(imageQueue(a)).toBe(imageQueue(a));
    expect(imageQueue(a)).not.toBe(imageQueue(b));
    expect([imageQueue(a).concurrency, imageQueue(b).concurrency]).toEqual([3, 2]);
  });
});
