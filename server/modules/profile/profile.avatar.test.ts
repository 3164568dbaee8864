import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { imageQueue } from '../../core/images.ts';
import { SECRET_MAKE, flatPng, gif, jpegDeclaring, jpegWithGps, multipart, png, webp, webpChunks } from '../uploads/test-images.ts';

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
      [{ name: 'avatar', filename: 'x.jpg', contentType: 'image/jpeg', data: 'just some text' }, 'upload.not_an_image', /avatar must be a JPEG, PNG or WebP/],
      [{ name: 'avatar', filename: 'x.gif', contentType: 'image/gif', data: await gif() }, 'upload.not_an_image', /avatar must be a JPEG, PNG or WebP/],
      [{ name: 'photo', filename: 'x.png', data: await png() }, 'profile.avatar_required', /avatar/],
      [{ name: 'avatar', data: 'a text field, not a file' }, 'profile.avatar_required', /avatar/],
    ] as const;
    for (const [part, code, msg] of cases) {
      const res = await upload(u.cookie, [part]);
      const label = JSON.stringify({ ...part, data: undefined });
      expect(res.statusCode, label).toBe(400);
      expect(res.json(), label).toMatchObject({ code, params: { field: 'avatar' } });
      expect(res.json().message).toMatch(msg);
    }
    const json = await ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload: {}, headers: { cookie: u.cookie } });
    expect(json.statusCode).toBe(400);
    expect(await avatarOf(u.id)).toBe(before);
    expect(listAvatars()).toEqual([path.basename(kept.json().avatar)]);
  });

  it('refuses a file over 10 MB with 413 naming the avatar and its limit, and changes nothing', async () => {
    const u = await makeUser(ctx);
    const big = Buffer.concat([await png(), Buffer.alloc(10 * 1024 * 1024)]);
    const res = await upload(u.cookie, [{ name: 'avatar', filename: 'big.png', data: big }]);
    expect(res.statusCode).toBe(413);
    // which limit, naming the field: the generic "request too large" left the user guessing
    expect(res.json()).toEqual({ message: 'The avatar image must be at most 10 MB.', code: 'profile.avatar_too_large', params: { field: 'avatar', mb: 10 } });
    expect(await avatarOf(u.id)).toBeNull();
    expect(listAvatars()).toEqual([]);
  });

  it('needs a session', async () => {
    const { payload, headers } = multipart([{ name: 'avatar', filename: 'a.png', data: await png() }]);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload, headers });
    expect(res.statusCode).toBe(401);
    expect(listAvatars()).toEqual([]);
  });

  it('refuses a body cut short or without a boundary with 400, never 500, and changes nothing', async () => {
    const u = await makeUser(ctx);
    const kept = await upload(u.cookie, [{ name: 'avatar', filename: 'a.png', data: await png() }]);
    const before = await avatarOf(u.id);
    const { payload, headers } = multipart([{ name: 'avatar', filename: 'b.png', data: await png(300, 300) }]);
    const send = (body: Buffer, type: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/avatar-update', payload: body, headers: { 'content-type': type, cookie: u.cookie } });
    const cases: [Buffer, string][] = [
      [payload.subarray(0, Math.floor(payload.length / 2)), headers['content-type']],
      [payload.subarray(0, payload.length - 10), headers['content-type']],
      [payload.subarray(0, 30), headers['content-type']],
      [payload, 'multipart/form-data'],
      [payload, 'multipart/form-data; charset=utf-8'],
      [payload, `multipart/form-data; boundary=${'b'.repeat(300)}`],
    ];
    for (const [body, type] of cases) {
      const res = await send(body, type);
      expect(res.statusCode, `${type} ${body.length}/${payload.length}`).toBe(400);
      expect(res.json().message).toMatch(/malformed or incomplete/);
    }
    expect(await avatarOf(u.id)).toBe(before);
    expect(listAvatars()).toEqual([path.basename(kept.json().avatar)]);
  });

  it('refuses an image whose header declares more than 40 megapixels with 413 naming avatar, before decoding it', async () => {
    const u = await makeUser(ctx);
    const small = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    for (const bomb of [flatPng(8000, 6000), jpegDeclaring(small, 10000, 8000)]) {
      const res = await upload(u.cookie, [{ name: 'avatar', filename: 'big.png', data: bomb }]);
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toMatch(/avatar is too large: .* megapixels/);
    }
    expect(imageQueue(ctx.app.deps).started).toBe(0);
    expect(await avatarOf(u.id)).toBeNull();
    expect(listAvatars()).toEqual([]);
  });

  it('allows 10 updates per user per hour: the 11th is 429 and changes nothing; an hour later it works', async () => {
    await ctx.close();
    ctx = await createTestApp({ limits: { avatarUpdatesPerHour: 10 } });
    const u = await makeUser(ctx);
    const other = await makeUser(ctx);
    const image = await png();
    for (let i = 0; i < 10; i++) expect((await upload(u.cookie, [{ name: 'avatar', filename: 'a.png', data: image }])).statusCode).toBe(200);
    const tenth = await avatarOf(u.id);
    const eleventh = await upload(u.cookie, [{ name: 'avatar', filename: 'a.png', data: image }]);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json()).toMatchObject({ code: 'profile.too_many_avatar_updates', params: { max: 10 } });
    expect(eleventh.json().message).toMatch(/avatar at most 10 times an hour/);
    expect(await avatarOf(u.id)).toBe(tenth);
    expect(listAvatars()).toEqual([path.basename(tenth!)]);
    expect((await upload(other.cookie, [{ name: 'avatar', filename: 'a.png', data: image }])).statusCode).toBe(200); // per user
    ctx.clock.advance(60 * 60 * 1000);
    const later = await upload(u.cookie, [{ name: 'avatar', filename: 'a.png', data: image }]);
    expect(later.statusCode).toBe(200);
    expect(await avatarOf(u.id)).not.toBe(tenth);
  });
});
