import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkNewEmail, checkPassword, checkSearchQuery } from '../../contract/rules.ts';
import { hashPassword } from '../core/passwords.ts';
import { createTestApp, makeUser, type TestContext } from './harness.ts';

// PRODUCT §10 as the shared rules (contract/rules.ts) read it: the server answers by them, and the
// client, running the same functions, shows the same refusals before submit.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

let ip = 0;
const register = (email: string, password: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/register',
    remoteAddress: `192.0.2.${++ip}`,
    payload: { email, password, nickname: `rules_${ip}` },
  });

describe('password length in characters', () => {
  // "≥ 10 chars" counts what a reader counts, as the ad titles do (charCount): an emoji is one.
  it('refuses five emoji (ten UTF-16 units) as too short, and takes ten', async () => {
    expect(checkPassword('😀😀😀😀😀')).toBe('passwordTooShort');
    expect(checkPassword('😀'.repeat(10))).toBeNull();
    expect(checkPassword('😀'.repeat(200))).toBeNull();
    expect(checkPassword('😀'.repeat(201))).toBe('passwordTooLong');
    const short = await register('emoji-pw@example.com', '😀😀😀😀😀');
    expect(short.statusCode, short.body).toBe(400);
    expect(short.json()).toMatchObject({ code: 'validation.password_too_short', params: { field: 'password' } });
    expect((await register('emoji-pw@example.com', '😀'.repeat(10))).statusCode).toBe(201);
  });

  // An account whose password was chosen under the old count keeps signing in and using it: the
  // length rules apply to a new password only.
  it('still signs in, and changes the e-mail of, an account with a password chosen under the old count', async () => {
    const u = await makeUser(ctx);
    const old = '😀😀😀😀😀';
    const hash = await hashPassword(ctx.app.deps.hasher, old);
    await ctx.app.deps.db.updateTable('users').set({ password_hash: hash }).where('id', '=', u.id).execute();
    const login = await ctx.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '198.51.100.7', payload: { email: u.email, password: old } });
    expect(login.statusCode, login.body).toBe(200);
    const change = await ctx.app.inject({
      method: 'POST',
      url: '/api/email-reset',
      payload: { newEmail: 'moved@example.com', password: old },
      headers: { cookie: u.cookie },
    });
    expect(change.statusCode, change.body).toBe(200);
  });
});

describe('search query without any word', () => {
  // The server finds no word to search in punctuation or symbols alone and refuses them as an empty
  // query; the rule the search box runs before submit says the same.
  it('is refused by the server and by the shared rule alike', async () => {
    for (const query of ['!!!', '😀', '- -', ' ... ']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/search?query=${encodeURIComponent(query)}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code, query).toBe('validation.search_required');
      expect(checkSearchQuery(query), query).toBe('searchRequired');
    }
    expect(checkSearchQuery('!!! x')).toBeNull();
    expect(checkSearchQuery('😀 café')).toBeNull();
  });
});

describe('e-mail local part', () => {
  // A dot-atom (RFC 5322 §3.4.1): no dot first, last or doubled. Relays refuse such an address
  // unquoted, so the account's reset links would never arrive.
  it('refuses a new address with a leading, trailing or doubled dot before the @', async () => {
    for (const email of ['.ann@example.com', 'ann.@example.com', 'a..nn@example.com', '.@example.com']) {
      expect(checkNewEmail(email), email).toBe('emailInvalid');
      const res = await register(email, 'long enough password');
      expect(res.statusCode, email).toBe(400);
      expect(res.json(), email).toMatchObject({ code: 'validation.email_invalid', params: { field: 'email' } });
    }
    expect(await ctx.app.deps.db.selectFrom('users').select('id').execute()).toEqual([]);
    for (const email of ['a.nn@example.com', 'a.n.n@example.com']) expect(checkNewEmail(email), email).toBeNull();
    expect((await register('a.nn@example.com', 'long enough password')).statusCode).toBe(201);
  });

  // New addresses only: an account that registered with one before keeps signing in.
  it('still signs in an account registered with such an address before', async () => {
    const u = await makeUser(ctx);
    await ctx.app.deps.db.updateTable('users').set({ email: 'ann.@example.com' }).where('id', '=', u.id).execute();
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '198.51.100.8',
      payload: { email: 'ann.@example.com', password: u.password },
    });
    expect(login.statusCode, login.body).toBe(200);
  });
});
