// Helpers for the moderation tests (not a test file).
import { inflateRawSync, crc32 } from 'node:zlib';
import sharp from 'sharp';
import type { TestContext, TestUser } from '../../test/harness.ts';

/** Reads a ZIP archive from its central directory, checking every entry's CRC: name → bytes. */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const endAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error('no end of central directory');
  const count = zip.readUInt16LE(endAt + 10);
  let p = zip.readUInt32LE(endAt + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + size);
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    if (crc32(data) !== crc) throw new Error(`CRC of ${name} does not match`);
    out.set(name, data);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/**
 * A photo with structure (8×6 blocks of grey levels from a seeded generator, softly coloured), as a
 * JPEG: unlike a plain colour, two seeds give two different pictures to a perceptual hash.
 */
export async function blockPhoto(seed: number, width = 640, height = 480, quality = 90): Promise<Buffer> {
  let s = seed >>> 0 || 1;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 255;
  const blocks = Array.from({ length: 48 }, () => next());
  const px = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = blocks[Math.floor((y * 6) / height) * 8 + Math.floor((x * 8) / width)];
      const i = (y * width + x) * 3;
      px[i] = v;
      px[i + 1] = Math.min(255, v * 0.8 + 30);
      px[i + 2] = Math.max(0, v * 0.6);
    }
  }
  return sharp(px, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/** GET as a signed-in user; the JSON answer and its status. */
export async function getAs(ctx: TestContext, user: TestUser, url: string) {
  const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie: user.cookie } });
  return { status: res.statusCode, body: res.json() };
}

export async function postAs(ctx: TestContext, user: TestUser, url: string, payload: object) {
  const res = await ctx.app.inject({ method: 'POST', url, headers: { cookie: user.cookie }, payload });
  return { status: res.statusCode, body: res.json() };
}

/** The ids of the holds in force on a subject, as the user screen lists them (a release names them). */
export async function holdsInForce(ctx: TestContext, targetType: 'user' | 'ad', targetId: string): Promise<string[]> {
  const rows = await ctx.app.deps.db
    .selectFrom('legal_holds')
    .select('id')
    .where('target_type', '=', targetType)
    .where('target_id', '=', targetId)
    .where('released_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}
