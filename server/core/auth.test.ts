import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../test/harness.ts';

// The session plugin (auth.ts) as HTTP caches between users see it.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

describe('answers that set a cookie', () => {
  // RFC 9111 §7.3: a shared cache stores and replays Set-Cookie unless told the answer is private.
  it('are private and never stored, though their route is public: a stale session on the public transparency report', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    // The same account signs out on another device: this browser's cookie is now stale.
    const out = await ctx.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: u.cookie } });
    expect(out.statusCode).toBe(200);
    const res = await ctx.app.inject({ url: '/api/transparency', headers: { cookie: u.cookie } });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^XG\.TOKEN=;/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    // a guest without the cookie gets the public answer, cacheable as its route says
    const guest = await ctx.app.inject({ url: '/api/transparency' });
    expect(guest.headers['set-cookie']).toBeUndefined();
    expect(guest.headers['cache-control']).toBe('public, max-age=300');
  });

  it('are private and never stored when they sign in', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    const login = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password: u.password } });
    expect(login.statusCode).toBe(200);
    expect(String(login.headers['set-cookie'])).toMatch(/^XG\.TOKEN=[^;]+;/);
    expect(login.headers['cache-control']).toBe('private, no-store');
  });
});
