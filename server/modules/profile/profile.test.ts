import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, cookieOf, makeUser, type TestContext } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { sha256 } from './profile.service.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const post = (url: string, payload: unknown, cookie?: string) => ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} });
const userRow = (id: string) => ctx.app.deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('GET /api/user-profile', () => {
  it('returns the profile and never the password hash', async () => {
    const u = await makeUser(ctx, { nickname: 'anna', roles: ['ADMIN_USER'], status: 'approved' });
    const res = await get('/api/user-profile', u.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: u.id, email: u.email, nickname: 'anna', avatar: null, status: 'approved',
      roles: ['PROVIDER_USER', 'ADMIN_USER'], phone: null, createdAt: '2026-01-15T12:00:00.000Z',
    });
    expect(res.body).not.toMatch(/argon2|password/i);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is 401 for a guest', async () => {
    const res = await get('/api/user-profile');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTruthy();
  });
});

describe('POST /api/nickname-update', () => {
  it('changes the nickname', async () => {
    const u = await makeUser(ctx);
    const res = await post('/api/nickname-update', { nickname: 'new.name-1' }, u.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().nickname).toBe('new.name-1');
    expect((await userRow(u.id)).nickname).toBe('new.name-1');
  });

  it('refuses a bad nickname naming the field, and changes nothing', async () => {
    const u = await makeUser(ctx, { nickname: 'keep_me' });
    for (const payload of [{ nickname: 'a b' }, { nickname: 'ab' }, { nickname: 'x'.repeat(31) }, {}, { nickname: 5 }]) {
      const res = await post('/api/nickname-update', payload, u.cookie);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(/nickname/i);
    }
    expect((await userRow(u.id)).nickname).toBe('keep_me');
  });
});

describe('POST /api/password-update', () => {
  it('changes the password, keeps this browser signed in and ends every other session', async () => {
    const u = await makeUser(ctx);
    const other = await post('/api/login', { email: u.email, password: u.password });
    const otherCookie = cookieOf(other);
    const res = await post('/api/password-update', { currentPassword: u.password, newPassword: 'a brand new secret' }, u.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isAuthenticated: true, id: u.id });
    const fresh = cookieOf(res);
    expect((await get('/api/user-profile', fresh)).statusCode).toBe(200);
    expect((await get('/api/user-profile', u.cookie)).statusCode).toBe(401);
    expect((await get('/api/user-profile', otherCookie)).statusCode).toBe(401);
    expect((await post('/api/login', { email: u.email, password: u.password })).statusCode).toBe(401);
    expect((await post('/api/login', { email: u.email, password: 'a brand new secret' })).statusCode).toBe(200);
  });

  it('refuses a wrong current password or a weak new one, and changes nothing', async () => {
    const u = await makeUser(ctx);
    const before = await userRow(u.id);
    const cases = [
      [{ currentPassword: 'wrong password!', newPassword: 'a brand new secret' }, /password is wrong/],
      [{ currentPassword: u.password, newPassword: 'short' }, /Password must be at least 10/],
      [{ currentPassword: u.password, newPassword: u.email }, /must not be your e-mail/],
      [{ currentPassword: u.password }, /newPassword/],
    ] as const;
    for (const [payload, msg] of cases) {
      const res = await post('/api/password-update', payload, u.cookie);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(msg);
    }
    const after = await userRow(u.id);
    expect([after.password_hash, after.token_version]).toEqual([before.password_hash, before.token_version]);
    expect((await get('/api/user-profile', u.cookie)).statusCode).toBe(200);
  });

  it('limits password guesses on a signed-in session', async () => {
    const limited = await createTestApp({ limits: { authAttemptsPerWindow: 3 } });
    try {
      const u = await makeUser(limited);
      const attempt = (pw: string) =>
        limited.app.inject({ method: 'POST', url: '/api/password-update', payload: { currentPassword: pw, newPassword: 'a brand new secret' }, headers: { cookie: u.cookie } });
      for (let i = 0; i < 3; i++) expect((await attempt('wrong password!')).statusCode).toBe(400);
      expect((await attempt(u.password)).statusCode).toBe(429);
      limited.clock.advance(15 * 60 * 1000);
      expect((await attempt(u.password)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('e-mail change', () => {
  const tokenFrom = (text: string) => /confirm-email\?token=([A-Za-z0-9_%-]+)/.exec(text)![1];

  it('mails a link to the new address and changes the e-mail only on confirmation, once', async () => {
    const u = await makeUser(ctx);
    const res = await post('/api/email-reset', { newEmail: 'New.Address@Example.com', password: u.password }, u.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ pendingEmail: 'new.address@example.com' });
    expect(ctx.mailer.sent).toHaveLength(1);
    const mail = ctx.mailer.sent[0];
    expect(mail.to).toBe('new.address@example.com');
    expect(mail.text).toContain(`${ctx.config.publicUrl}/auth/confirm-email?token=`);
    const token = decodeURIComponent(tokenFrom(mail.text));
    // Stored hashed: the database alone cannot confirm a change.
    const row = await ctx.app.deps.db.selectFrom('email_changes').selectAll().executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(token));
    expect(row.token_hash).not.toContain(token);
    expect((await userRow(u.id)).email).toBe(u.email);

    const ok = await post('/api/confirm-email-reset', { token });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ email: 'new.address@example.com' });
    expect((await userRow(u.id)).email).toBe('new.address@example.com');
    // The old address is told; old tokens are dead (token version bumped).
    expect(ctx.mailer.sent[1]).toMatchObject({ to: u.email, subject: 'Your e-mail address was changed' });
    expect((await get('/api/user-profile', u.cookie)).statusCode).toBe(401);
    expect((await post('/api/login', { email: 'new.address@example.com', password: u.password })).statusCode).toBe(200);

    const again = await post('/api/confirm-email-reset', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/invalid, already used or expired/);
  });

  it('re-issues the cookie when the confirming browser is the same user', async () => {
    const u = await makeUser(ctx);
    await post('/api/email-reset', { newEmail: 'mine@example.com', password: u.password }, u.cookie);
    const res = await post('/api/confirm-email-reset', { token: decodeURIComponent(tokenFrom(ctx.mailer.sent[0].text)) }, u.cookie);
    expect(res.statusCode).toBe(200);
    const s = await get('/api/session', cookieOf(res));
    expect(s.json()).toMatchObject({ isAuthenticated: true, email: 'mine@example.com' });
  });

  it('refuses a link older than 7 days', async () => {
    const u = await makeUser(ctx);
    await post('/api/email-reset', { newEmail: 'late@example.com', password: u.password }, u.cookie);
    ctx.clock.advance(7 * DAY_MS + 1000);
    const res = await post('/api/confirm-email-reset', { token: decodeURIComponent(tokenFrom(ctx.mailer.sent[0].text)) });
    expect(res.statusCode).toBe(400);
    expect((await userRow(u.id)).email).toBe(u.email);
  });

  it('refuses unknown tokens and bad bodies naming the field', async () => {
    for (const payload of [{ token: 'nope' }, { token: '' }, {}]) {
      const res = await post('/api/confirm-email-reset', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(/token|link/i);
    }
  });

  // An address another account holds is answered like a free one: profile.enumeration.test.ts.
  it('refuses a wrong password, a bad or unchanged e-mail, and sends nothing', async () => {
    const u = await makeUser(ctx);
    const cases = [
      [{ newEmail: 'fresh@example.com', password: 'wrong password!' }, 400, /password is wrong/],
      [{ newEmail: 'not-an-email', password: u.password }, 400, /e-mail/],
      [{ newEmail: u.email.toUpperCase(), password: u.password }, 400, /already use/],
      [{ password: u.password }, 400, /newEmail/],
    ] as const;
    for (const [payload, status, msg] of cases) {
      const res = await post('/api/email-reset', payload, u.cookie);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message).toMatch(msg);
    }
    expect(ctx.mailer.sent).toHaveLength(0);
    expect(await ctx.app.deps.db.selectFrom('email_changes').selectAll().execute()).toEqual([]);
  });

  it('sends at most 5 change links per hour, so it cannot be used to spam an address', async () => {
    const u = await makeUser(ctx);
    for (let i = 0; i < 5; i++) expect((await post('/api/email-reset', { newEmail: `n${i}@example.com`, password: u.password }, u.cookie)).statusCode).toBe(200);
    const sixth = await post('/api/email-reset', { newEmail: 'n6@example.com', password: u.password }, u.cookie);
    expect(sixth.statusCode).toBe(429);
    expect(ctx.mailer.sent).toHaveLength(5);
    ctx.clock.advance(60 * 60 * 1000);
    expect((await post('/api/email-reset', { newEmail: 'n6@example.com', password: u.password }, u.cookie)).statusCode).toBe(200);
  });

  it('confirming one link voids the other pending links of the user', async () => {
    const u = await makeUser(ctx);
    await post('/api/email-reset', { newEmail: 'first@example.com', password: u.password }, u.cookie);
    await post('/api/email-reset', { newEmail: 'second@example.com', password: u.password }, u.cookie);
    const [first, second] = ctx.mailer.sent.map((m) => decodeURIComponent(tokenFrom(m.text)));
    expect((await post('/api/confirm-email-reset', { token: second })).statusCode).toBe(200);
    expect((await post('/api/confirm-email-reset', { token: first })).statusCode).toBe(400);
    expect((await userRow(u.id)).email).toBe('second@example.com');
  });

  it('refuses the confirmation when the address was taken in the meantime', async () => {
    const u = await makeUser(ctx);
    await post('/api/email-reset', { newEmail: 'race@example.com', password: u.password }, u.cookie);
    await makeUser(ctx, { email: 'race@example.com' });
    const res = await post('/api/confirm-email-reset', { token: decodeURIComponent(tokenFrom(ctx.mailer.sent[0].text)) });
    expect(res.statusCode).toBe(409);
    expect((await userRow(u.id)).email).toBe(u.email);
  });
});
