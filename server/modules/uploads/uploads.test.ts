import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/harness.ts';
import { removeUpload, resolveUpload, storeUpload, uploadUrl } from './uploads.storage.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

describe('GET /uploads/*', () => {
  it('serves a stored file publicly, cacheable forever', async () => {
    const rel = storeUpload(ctx.dataDir, 'avatars', Buffer.from('RIFF....WEBPfake'));
    expect(rel).toMatch(/^avatars\/[a-z0-9]{24}\.webp$/);
    const res = await ctx.app.inject({ method: 'GET', url: uploadUrl(rel) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe('RIFF....WEBPfake');
    const nested = storeUpload(ctx.dataDir, 'ads/thumbs', Buffer.from('x'));
    expect((await ctx.app.inject({ method: 'GET', url: `/uploads/${nested}` })).statusCode).toBe(200);
  });

  it('never lists a directory, never leaves the uploads folder, 404 for anything else', async () => {
    storeUpload(ctx.dataDir, 'avatars', Buffer.from('x'));
    // A file beside the uploads folder (not the live database: the route reads it).
    fs.writeFileSync(path.join(ctx.dataDir, 'secret.webp'), 'secret database');
    fs.writeFileSync(path.join(ctx.dataDir, 'uploads', 'avatars', '.hidden.webp'), 'hidden');
    const urls = [
      '/uploads/',
      '/uploads/avatars',
      '/uploads/avatars/',
      '/uploads/avatars/missing.webp',
      '/uploads/../secret.webp',
      '/uploads/avatars/../../secret.webp',
      '/uploads/%2e%2e/secret.webp',
      '/uploads/avatars/%2e%2e%2f%2e%2e%2fsecret.webp',
      '/uploads/avatars/..%2f..%2fsecret.webp',
      '/uploads/avatars/.hidden.webp',
      '/uploads/avatars/x.webp%00.png',
      '/uploads//etc/passwd',
    ];
    for (const url of urls) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: expect.stringMatching(/^(uploads\.file_not_found|request\.not_found)$/) });
      expect(res.body, url).not.toContain('secret database');
    }
  });

  it('answers a missing file with a coded 404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/uploads/avatars/missing.webp' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'File not found.', code: 'uploads.file_not_found' });
  });

  it('storage helpers refuse paths outside the root and ignore missing files', () => {
    expect(resolveUpload(ctx.dataDir, '../xg.sqlite')).toBeNull();
    expect(resolveUpload(ctx.dataDir, 'avatars/../../x.webp')).toBeNull();
    expect(resolveUpload(ctx.dataDir, '/etc/x.webp')).toBeNull();
    expect(() => storeUpload(ctx.dataDir, '../evil', Buffer.from('x'))).toThrow();
    const rel = storeUpload(ctx.dataDir, 'avatars', Buffer.from('x'));
    removeUpload(ctx.dataDir, rel);
    removeUpload(ctx.dataDir, rel);
    removeUpload(ctx.dataDir, null);
    expect(fs.existsSync(path.join(ctx.dataDir, 'uploads', rel))).toBe(false);
  });
});
