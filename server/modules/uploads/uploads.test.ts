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
  it('serves a stored file publicly, cacheable for five minutes (any file can be withdrawn), with validators', async () => {
    const rel = storeUpload(ctx.dataDir, 'avatars', Buffer.from('RIFF....WEBPfake'));
    expect(rel).toMatch(/^avatars\/[a-z0-9]{24}\.webp$/);
    const res = await ctx.app.inject({ method: 'GET', url: uploadUrl(rel) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    expect(res.headers['last-modified']).toBe(fs.statSync(path.join(ctx.dataDir, 'uploads', rel)).mtime.toUTCString());
    expect(res.body).toBe('RIFF....WEBPfake');
    const nested = storeUpload(ctx.dataDir, 'ads/thumbs', Buffer.from('x'));
    expect((await ctx.app.inject({ method: 'GET', url: `/uploads/${nested}` })).statusCode).toBe(200);
  });

  it('answers a revalidation of the same file with a bodiless 304, If-None-Match before If-Modified-Since', async () => {
    const rel = storeUpload(ctx.dataDir, 'ads', Buffer.from('RIFF....WEBPphoto'));
    const first = await ctx.app.inject({ method: 'GET', url: uploadUrl(rel) });
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    const ask = (headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: uploadUrl(rel), headers });
    const later = new Date(Date.parse(lastModified) + 60_000).toUTCString();
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    for (const headers of [
      { 'if-none-match': etag } as Record<string, string>,
      { 'if-none-match': `"other", W/${etag}` },
      { 'if-modified-since': lastModified },
      { 'if-modified-since': later },
    ]) {
      const res = await ask(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
    }
    // another copy, an older one, or an ETag that does not match whatever the date says: the file
    for (const headers of [
      { 'if-none-match': '"other"' } as Record<string, string>,
      { 'if-modified-since': earlier },
      { 'if-none-match': '"other"', 'if-modified-since': later },
      { 'if-modified-since': 'yesterday' },
    ]) {
      const res = await ask(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.body).toBe('RIFF....WEBPphoto');
    }
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
