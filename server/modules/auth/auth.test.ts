import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, cookieOf, makeUser, type TestContext } from '../../test/harness.ts';
import { verifyJwt } from '../../core/jwt.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

describe('register, login, session, logout', () => {
  it('registers a pending provider, signs them in and gives them a USD wallet', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email: 'Ann@Example.com', password: 'long enough pw', nickname: 'ann.a' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ isAuthenticated: true, email: 'ann@example.com', userStatus: 'pending', userRoles: ['PROVIDER_USER'] });
    const cookie = res.cookies.find((c) => c.name === 'XG.TOKEN')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const payload = verifyJwt<Record<string, unknown>>(cookie.value, ctx.config.jwtSecret, Date.parse('2026-01-15T12:00:00Z') / 1000)!;
    expect(payload).toMatchObject({ email: 'ann@example.com', userStatus: 'pending', userRoles: ['PROVIDER_USER'] });
    expect((payload.exp! as number) - (payload.iat as number)).toBe(30 * 86400);
    const wallets = await ctx.app.deps.db.selectFrom('wallets').selectAll().where('user_id', '=', res.json().id).execute();
    expect(wallets.map((w) => [w.wallet_type, w.balance_cents])).toEqual([['USD', 0]]);
    const session = await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: cookieOf(res) } });
    expect(session.json()).toMatchObject({ isAuthenticated: true, id: res.json().id });
  });

  it('refuses bad input with a message naming the field, and creates nothing', async () => {
    const cases = [
      [{ email: 'not-an-email', password: 'long enough pw', nickname: 'abc' }, /e-mail/i],
      [{ email: 'a@b.co', password: 'short', nickname: 'abc' }, /password/i],
      [{ email: 'abcdefghij@b.co', password: 'abcdefghij@b.co', nickname: 'abc' }, /password/i],
      [{ email: 'a@b.co', password: 'long enough pw', nickname: 'a b' }, /nickname/i],
      [{ email: 'a@b.co', password: 'long enough pw' }, /nickname/i],
    ] as const;
    for (const [payload, msg] of cases) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/register', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(msg);
    }
    const bad = await ctx.app.inject({ method: 'POST', url: '/api/register', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'The request body is not valid JSON.', code: 'request.invalid_json' });
    const n = await ctx.app.deps.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(0);
  });

  it('refuses a second account with the same e-mail in any case', async () => {
    await makeUser(ctx, { email: 'dup@example.com' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email: 'DUP@example.com', password: 'long enough pw', nickname: 'dupe' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/already exists/);
  });

  it('refuses a second account under the same e-mail written with other Unicode forms (NFC/NFD, fullwidth), and signs in with either', async () => {
    const register = (email: string, nickname: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw', nickname } });
    const pairs = [
      ['jos\u00e9@example.com', 'jose\u0301@example.com'], // é precomposed, then e + combining acute
      ['kim@example.com', '\uff4b\uff49\uff4d@example.com'], // ｋｉｍ: fullwidth letters
      ['\uff2c\uff25\uff25@example.com', 'lee@example.com'], // ＬＥＥ first: stored as lee@
    ];
    for (const [i, [first, second]] of pairs.entries()) {
      const created = await register(first, `first_${i}`);
      expect(created.statusCode, first).toBe(201);
      const again = await register(second, `second_${i}`);
      expect(again.statusCode, second).toBe(409);
      expect(again.json().code).toBe('auth.email_taken');
      const login = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: second, password: 'long enough pw' } });
      expect(login.statusCode, second).toBe(200);
      expect(login.json().id).toBe(created.json().id);
    }
    const users = await ctx.app.deps.db.selectFrom('users').select(['email', 'nickname']).orderBy('nickname').execute();
    expect(users).toEqual([
      { email: 'jos\u00e9@example.com', nickname: 'first_0' },
      { email: 'kim@example.com', nickname: 'first_1' },
      { email: 'lee@example.com', nickname: 'first_2' },
    ]);
  });

  it('gives one message for a wrong e-mail and a wrong password', async () => {
    const u = await makeUser(ctx);
    const a = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password: 'wrong password!' } });
    const b = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'nobody@example.com', password: 'wrong password!' } });
    expect(a.statusCode).toBe(401);
    expect(b.statusCode).toBe(401);
    expect(a.json()).toEqual(b.json());
    const ok = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email.toUpperCase(), password: u.password } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().isAuthenticated).toBe(true);
    // Registering is the first sign-in; the refused attempt on an existing account is recorded too (issue #14), then the success.
    const signIns = await ctx.app.deps.db.selectFrom('sign_ins').select(['success', 'failure']).where('user_id', '=', u.id).orderBy('id').execute();
    expect(signIns).toEqual([
      { success: 1, failure: null },
      { success: 0, failure: 'wrong_password' },
      { success: 1, failure: null },
    ]);
  });

  it('logout invalidates the old token', async () => {
    const u = await makeUser(ctx);
    const out = await ctx.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie: u.cookie } });
    expect(out.json()).toEqual({ isAuthenticated: false, userRoles: ['GUEST_USER'] });
    expect(out.cookies.find((c) => c.name === 'XG.TOKEN')!.value).toBe('');
    const again = await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: u.cookie } });
    expect(again.json().isAuthenticated).toBe(false);
    const prof = await ctx.app.inject({ method: 'GET', url: '/api/user-profile', headers: { cookie: u.cookie } });
    expect(prof.statusCode).toBe(401);
  });

  it('a suspended user is signed out at once and cannot sign in', async () => {
    const u = await makeUser(ctx);
    await ctx.app.deps.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', u.id).execute();
    const s = await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: u.cookie } });
    expect(s.json().isAuthenticated).toBe(false);
    // The dead cookie is expired in the browser, on whatever /api route it arrived.
    const expired = s.cookies.find((c) => c.name === 'XG.TOKEN')!;
    expect(expired.value).toBe('');
    expect(expired.expires!.getTime()).toBe(0);
    const login = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password: u.password } });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toMatch(/suspended/);
  });

  it('a role change takes effect on the next request, not at token expiry', async () => {
    const u = await makeUser(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/master/get-pending-users', headers: { cookie: u.cookie } })).statusCode).toBe(403);
    await ctx.app.deps.db.insertInto('user_roles').values({ user_id: u.id, role: 'ADMIN_USER' }).execute();
    const s = await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: u.cookie } });
    expect(s.json().userRoles).toEqual(['PROVIDER_USER', 'ADMIN_USER']);
  });

  it('an expired or forged token is a guest', async () => {
    const u = await makeUser(ctx);
    ctx.clock.advance(31 * 86400 * 1000);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: u.cookie } })).json().isAuthenticated).toBe(false);
    const forged = u.cookie.slice(0, -3) + 'abc';
    ctx.clock.advance(-31 * 86400 * 1000);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: forged } })).json().isAuthenticated).toBe(false);
    // Among other cookies, in any order, the token is still found.
    const mixed = await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: `a=1; ${u.cookie}; over_18_user_confirmation=true` } });
    expect(mixed.json().isAuthenticated).toBe(true);
  });
});

// Sign-in and register limits: auth.lockout.test.ts.

describe('errors', () => {
  it('an unknown /api route is a JSON 404, not a page', async () => {
    const r = await ctx.app.inject({ method: 'GET', url: '/api/nope' });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ message: 'Not found.', code: 'request.not_found' });
  });
});

describe('the language e-mails are written in', () => {
  it('follows the pages the user uses now, not the one they signed in on', async () => {
    const ctx2 = await createTestApp();
    try {
      const u = await makeUser(ctx2, { status: 'approved' }); // signed in on an English page
      const promo = await ctx2.app.inject({ method: 'GET', url: '/api/email-wallet-promo-code', headers: { cookie: u.cookie, 'x-locale': 'pt' } });
      expect(promo.statusCode).toBe(200);
      expect(ctx2.mailer.sent.at(-1)!.subject).toBe('Seu código promocional de boas-vindas do XG Marketplace');
      // A request refused (a provider at a staff route) changes nothing, the language included.
      const refused = await ctx2.app.inject({ method: 'GET', url: '/api/admin/get-reports', headers: { cookie: u.cookie, 'x-locale': 'es' } });
      expect(refused.statusCode).toBe(403);
      expect((await ctx2.app.deps.db.selectFrom('users').select('locale').where('id', '=', u.id).executeTakeFirstOrThrow()).locale).toBe('pt');
      const payload = { currentPassword: u.password, newPassword: 'another long password' };
      const changed = await ctx2.app.inject({ method: 'POST', url: '/api/password-update', payload, headers: { cookie: u.cookie, 'x-locale': 'es' } });
      expect(changed.statusCode).toBe(200);
      await vi.waitFor(() => expect(ctx2.mailer.sent.at(-1)!.subject).toBe('Tu contraseña de XG Marketplace fue cambiada'));
      // A later mail not sent from a page (a reminder, a decision) speaks the last one used.
      expect((await ctx2.app.deps.db.selectFrom('users').select('locale').where('id', '=', u.id).executeTakeFirstOrThrow()).locale).toBe('es');
    } finally {
      await ctx2.close();
    }
  });
});
