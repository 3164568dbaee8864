import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/harness.ts';
import { securityHeaders } from './security-headers.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

describe('security headers', () => {
  it('every response carries a CSP that allows the app and nothing else, and helmet’s other headers', async () => {
    for (const url of ['/api/session', '/api/nope']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toMatch(/unsafe-eval|\*/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined(); // http here
    }
  });

  it('adds HSTS and upgrade-insecure-requests only when the public URL is https', () => {
    const h = securityHeaders({ publicUrl: 'https://xg.example' });
    expect(h['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(h['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(securityHeaders({ publicUrl: 'http://localhost:3000' })['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });

  it('a multipart body on a JSON route is refused and changes nothing', async () => {
    const form = new FormData();
    form.append('email', 'a@b.co');
    const res = await ctx.app.inject({ method: 'POST', url: '/api/register', payload: form });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBeTruthy();
  });
});
