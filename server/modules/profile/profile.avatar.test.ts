import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { SECRET_MAKE, gif, jpegWithGps, multipart, png, webp, webpChunks } from '../uploads/test-images.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const upload = (cookie: string, parts: Parameters<typeof multipart>[0]) => {
  const { payload, headers } = multipart(parts);
  return ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers: { ...headers, cookie } });
};
const avatarsDir = () => path.join(ctx.dataDir, 'uploads', 'avatars');
const listAvatars = () => (fs.existsSync(avatarsDir()) ? fs.readdirSync(avatarsDir()) : []);
const avatarOf = async (id: string) => (await ctx.app.deps.db.selectFrom('users').select('avatar').where('id', '=', id).executeTakeFirstOrThrow()).avatar;

describe('POST /api/avatar-update', () => {
  it('stores a 256×256 WebP without any metadata (EXIF GPS gone) and serves it', async () => {
    const u = await makeUser(ctx);
    // Named .png and sent as image/png: the bytes say JPEG, and that is what counts.
    const res = await upload(u.cookie, [{ name: 'avatar', filename: 'me.png', contentType: 'image/png', data: await jpegWithGps(600, 300) }]);
    expect(res.statusCode).toBe(200);
    const url: string = res.json().avatar;
    expect(url).toMatch(/^\/uploads\/avatars\/[A-Za-z0-9_-]+\.webp$/);
    expect(await avatarOf(u.id)).toBe(url.replace('/uploads/', ''));

    const file = fs.readFileSync(path.join(ctx.dataDir, url));
    const meta = await sharp(file).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(webpChunks(file).every((c) => c === 'VP8 ' || c === 'VP8L')).toBe(true);
    expect(file.includes(SECRET_MAKE)).toBe(false);

    const served = await ctx.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.rawPayload.equals(file)).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/user-profile', headers: { cookie: u.cookie } })).json().avatar).toBe(url);
  });

  it('accepts PNG and WebP, and removes the previous file', async () => {
    const u = await makeUser(ctx);
    const first = await upload(u.cookie, [{ name: 'avatar', filename: 'a.png', data: await png() }]);
    expect(first.statusCode).toBe(200);
    expect(listAvatars()).toHaveLength(1);
    const second = await upload(u.cookie, [{ name: 'avatar', filename: 'b.webp', data: await webp() }]);
    expect(second.statusCode).toBe(200);
    expect(listAvatars()).toEqual([path.basename(second.json().avatar)]);
    expect((await ctx.app.inject({ method: 'GET', url: first.json().avatar })).statusCode).toBe(404);
  });

  it('refuses what is not a JPEG, PNG or WebP, whatever its name, and changes nothing', async () => {
    const u = await makeUser(ctx);
    const kept = await upload(u.cookie, [{ name: 'avatar', filename: 'a.png', data: await png() }]);
    const before = await avatarOf(u.id);
    const cases = [
      [{ name: 'avatar', filename: 'x.jpg', contentType: 'image/jpeg', data: 'just some text' }, /avatar must be a JPEG, PNG or WebP/],
      [{ name: 'avatar', filename: 'x.gif', contentType: 'image/gif', data: await gif() }, /avatar must be a JPEG, PNG or WebP/],
      [{ name: 'photo', filename: 'x.png', data: await png() }, /avatar/],
      [{ name: 'avatar', data: 'a text field, not a file' }, /avatar/],
    ] as const;
    for (const [part, msg] of cases) {
      const res = await upload(u.cookie, [part]);
      expect(res.statusCode, JSON.stringify({ ...part, data: undefined })).toBe(400);
      expect(res.json().message).toMatch(msg);
    }
    const json = await ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload: {}, headers: { cookie: u.cookie } });
    expect(json.statusCode).toBe(400);
    expect(await avatarOf(u.id)).toBe(before);
    expect(listAvatars()).toEqual([path.basename(kept.json().avatar)]);
  });

  it('refuses a file over 10 MB with 413 and changes nothing', async () => {
    const u = await makeUser(ctx);
    const big = Buffer.concat([await png(), Buffer.alloc(10 * 1024 * 1024)]);
    const res = await upload(u.cookie, [{ name: 'avatar', filename: 'big.png', data: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBeTruthy();
    expect(await avatarOf(u.id)).toBeNull();
    expect(listAvatars()).toEqual([]);
  });

  it('needs a session', async () => {
    const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', data: await png() }]);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers });
    expect(res.statusCode).toBe(401);
    expect(listAvatars()).toEqual([]);
  });
});
