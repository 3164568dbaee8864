import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/harness.ts';
import { apiSecurityHeaders, securityHeaders } from './security-headers.ts';

let ctx: TestContext;
let dist: string;
beforeEach(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-dist-'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html lang="en"><head><!--head--></head><body></body></html>');
  ctx = await createTestApp({ distDir: dist });
});
afterEach(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('security headers', () => {
  it('pages carry a CSP that allows the app and nothing else, and helmet’s other headers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/faq' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/unsafe-eval|\*/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined(); // http here
  });

  it('API answers, errors included, carry the strict REST set: nothing may load, nothing may frame them', async () => {
    for (const url of ['/api/session', '/api/nope']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('adds HSTS and upgrade-insecure-requests only when the public URL is https', () => {
    const h = securityHeaders({ publicUrl: 'https://xg.example' });
    expect(h['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(h['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(apiSecurityHeaders({ publicUrl: 'https://xg.example' })['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(securityHeaders({ publicUrl: 'http://localhost:3000' })['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(apiSecurityHeaders({ publicUrl: 'http://localhost:3000' })['strict-transport-security']).toBeUndefined();
  });

  it('a multipart body on a JSON route is refused and changes nothing', async () => {
    const form = new FormData();
    form.append('email', 'a@b.co');
    const res = await ctx.app.inject({ method: 'POST', url: '/api/register', payload: form });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBeTruthy();
    const n = await ctx.app.deps.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(0);
  });
});
