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
const post = (url: string, payload: unknown, cookie?: string) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} });
/** An error answer: its status, its code (contract/errors) and, for a refused field, that field. */
function expectError(
  res: { statusCode: number; json(): { code?: string; params?: Record<string, unknown> } },
  status: number,
  code: string,
  field?: string,
  label = '',
) {
  expect(res.statusCode, label).toBe(status);
  expect(res.json().code, label).toBe(code);
  if (field) expect(res.json().params?.field, label).toBe(field);
}
const userRow = (id: string) => ctx.app.deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('GET /api/user-profile', () => {
  it('returns the profile and never the password hash', async () => {
    const u = await makeUser(ctx, { nickname: 'anna', roles: ['ADMIN_USER'], status: 'approved' });
    const res = await get('/api/user-profile', u.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: u.id,
      email: u.email,
      nickname: 'anna',
      avatar: null,
      status: 'approved',
      roles: ['PROVIDER_USER', 'ADMIN_USER'],
      phone: null,
      phoneVerified: false,
      createdAt: '2026-01-15T12:00:00.000Z',
    });
    expect(res.body).not.toMatch(/argon2|password/i);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is 401 for a guest', async () => {
    const res = await get('/api/user-profile');
    expectError(res, 401, 'auth.sign_in_required');
    expect(res.json().message).toBe('You must sign in first.');
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
    const cases = [
      [{ nickname: 'a b' }, 'validation.nickname_invalid'],
      [{ nickname: 'ab' }, 'validation.nickname_invalid'],
      [{ nickname: 'x'.repeat(31) }, 'validation.invalid'],
      [{}, 'validation.required'],
      [{ nickname: 5 }, 'validation.invalid'], // a number is not text: a JSON body is not coerced
    ] as const;
    for (const [payload, code] of cases) {
      const res = await post('/api/nickname-update', payload, u.cookie);
      expectError(res, 400, code, 'nickname', JSON.stringify(payload));
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
      [{ currentPassword: 'wrong password!', newPassword: 'a brand new secret' }, 'profile.wrong_password', 'currentPassword', /password is wrong/],
      [{ currentPassword: u.password, newPassword: 'short' }, 'validation.password_too_short', 'newPassword', /Password must be at least 10/],
      [{ currentPassword: u.password, newPassword: u.email }, 'validation.password_is_email', 'newPassword', /must not be your e-mail/],
      [{ currentPassword: u.password }, 'validation.required', 'newPassword', /newPassword/],
    ] as const;
    for (const [payload, code, field, msg] of cases) {
      const res = await post('/api/password-update', payload, u.cookie);
      expectError(res, 400, code, field, JSON.stringify(payload));
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
        limited.app.inject({
          method: 'POST',
          url: '/api/password-update',
          payload: { currentPassword: pw, newPassword: 'a brand new secret' },
          headers: { cookie: u.cookie },
        });
      for (let i = 0; i < 3; i++) expect((await attempt('wrong password!')).statusCode).toBe(400);
      const refused = await attempt(u.password);
      expectError(refused, 429, 'profile.too_many_password_attempts');
      expect(refused.json()).toMatchObject({ params: { minutes: 15 }, message: 'Too many password attempts. Please wait 15 minutes and try again.' });
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
    expectError(again, 400, 'profile.confirmation_link_invalid', 'token');
    expect(again.json().message).toBe('This confirmation link is invalid, already used or expired.');
  });

  // The new address is not proven yet: it may be any stranger's, and a nickname may be a domain
  // name ("www.evil.example" is a valid one), so the site would mail strangers a line of the
  // requester's choosing. A forged Host changes no link either.
  it('mails the not-yet-proven address nothing the requester chose, in every language', async () => {
    const u = await makeUser(ctx, { nickname: 'www.evil.example' });
    for (const locale of ['en', 'es', 'pt'] as const) {
      await ctx.app.deps.db.updateTable('users').set({ locale }).where('id', '=', u.id).execute();
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/email-reset',
        payload: { newEmail: `stranger.${locale}@example.net`, password: u.password },
        headers: { cookie: u.cookie, host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const mail = ctx.mailer.sent.at(-1)!;
      expect(mail.to).toBe(`stranger.${locale}@example.net`);
      expect(mail.text).toContain(`${ctx.config.publicUrl}${locale === 'en' ? '' : `/${locale}`}/auth/confirm-email?token=`);
      const naming = [mail.subject, mail.text, mail.html].filter((part) => part?.includes('evil.example'));
      expect(naming, locale).toEqual([]);
    }
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
    expectError(res, 400, 'profile.confirmation_link_invalid', 'token');
    expect((await userRow(u.id)).email).toBe(u.email);
  });

  it('refuses unknown tokens and bad bodies naming the field', async () => {
    const cases = [
      [{ token: 'nope' }, 'profile.confirmation_link_invalid'],
      [{ token: '' }, 'validation.invalid'],
      [{}, 'validation.required'],
    ] as const;
    for (const [payload, code] of cases) {
      const res = await post('/api/confirm-email-reset', payload);
      expectError(res, 400, code, 'token', JSON.stringify(payload));
      expect(res.json().message).toMatch(/token|link/i);
    }
  });

  // An address another account holds is answered like a free one: profile.enumeration.test.ts.
  it('refuses a wrong password, a bad or unchanged e-mail, and sends nothing', async () => {
    const u = await makeUser(ctx);
    const cases = [
      [{ newEmail: 'fresh@example.com', password: 'wrong password!' }, 'profile.wrong_password', 'password', /password is wrong/],
      [{ newEmail: 'not-an-email', password: u.password }, 'validation.email_invalid', 'newEmail', /e-mail/],
      [{ newEmail: u.email.toUpperCase(), password: u.password }, 'profile.email_unchanged', 'newEmail', /already use/],
      // The same address in fullwidth letters (ｕｓｅｒ＠…): one address once NFKC-normalised.
      [
        { newEmail: u.email.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)), password: u.password },
        'profile.email_unchanged',
        'newEmail',
        /already use/,
      ],
      [{ password: u.password }, 'validation.required', 'newEmail', /newEmail/],
    ] as const;
    for (const [payload, code, field, msg] of cases) {
      const res = await post('/api/email-reset', payload, u.cookie);
      expectError(res, 400, code, field, JSON.stringify(payload));
      expect(res.json().message).toMatch(msg);
    }
    expect(ctx.mailer.sent).toHaveLength(0);
    expect(await ctx.app.deps.db.selectFrom('email_changes').selectAll().execute()).toEqual([]);
  });

  it('sends at most 5 change links per hour, so it cannot be used to spam an address', async () => {
    const u = await makeUser(ctx);
    for (let i = 0; i < 5; i++)
      expect((await post('/api/email-reset', { newEmail: `n${i}@example.com`, password: u.password }, u.cookie)).statusCode).toBe(200);
    const sixth = await post('/api/email-reset', { newEmail: 'n6@example.com', password: u.password }, u.cookie);
    expectError(sixth, 429, 'profile.too_many_email_changes');
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
    expectError(await post('/api/confirm-email-reset', { token: first }), 400, 'profile.confirmation_link_invalid', 'token');
    expect((await userRow(u.id)).email).toBe('second@example.com');
  });

  it('refuses the confirmation when the address was taken in the meantime', async () => {
    const u = await makeUser(ctx);
    await post('/api/email-reset', { newEmail: 'race@example.com', password: u.password }, u.cookie);
    await makeUser(ctx, { email: 'race@example.com' });
    const res = await post('/api/confirm-email-reset', { token: decodeURIComponent(tokenFrom(ctx.mailer.sent[0].text)) });
    expectError(res, 409, 'auth.email_taken');
    expect((await userRow(u.id)).email).toBe(u.email);
  });
});

describe('the account e-mails in the language the user last used', () => {
  it('an e-mail change: the confirmation, the notice to the old address, and the notice to an address already in use', async () => {
    const u = await makeUser(ctx, { email: 'ana@example.com' });
    const other = await makeUser(ctx, { email: 'taken@example.com' });
    await ctx.app.deps.db.updateTable('users').set({ locale: 'es' }).where('id', '=', u.id).execute();
    await ctx.app.deps.db.updateTable('users').set({ locale: 'pt' }).where('id', '=', other.id).execute();

    expect((await post('/api/email-reset', { newEmail: 'taken@example.com', password: u.password }, u.cookie)).statusCode).toBe(200);
    const inUse = ctx.mailer.sent.at(-1)!;
    expect([inUse.to, inUse.subject]).toEqual(['taken@example.com', 'Alguém tentou usar seu endereço de e-mail']);
    expect(inUse.text).toContain(`${ctx.config.publicUrl}/pt/auth/login`);

    expect((await post('/api/email-reset', { newEmail: 'ana.nueva@example.com', password: u.password }, u.cookie)).statusCode).toBe(200);
    const confirm = ctx.mailer.sent.at(-1)!;
    expect([confirm.to, confirm.subject]).toEqual(['ana.nueva@example.com', 'Confirma tu nueva dirección de correo']);
    const link = /https?:\/\/\S+\/es\/auth\/confirm-email\?token=([A-Za-z0-9_%-]+)/.exec(confirm.text)!;
    expect(link).not.toBeNull();
    expect((await post('/api/confirm-email-reset', { token: decodeURIComponent(link[1]) })).statusCode).toBe(200);
    const notice = ctx.mailer.sent.at(-1)!;
    expect([notice.to, notice.subject]).toEqual(['ana@example.com', 'Se cambió tu dirección de correo']);
    expect(notice.text).toContain('ahora es ana.nueva@example.com');
  });

  it('the welcome promo code', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    await ctx.app.deps.db.updateTable('users').set({ locale: 'pt' }).where('id', '=', u.id).execute();
    expect((await get('/api/email-wallet-promo-code', u.cookie)).statusCode).toBe(200);
    const mail = ctx.mailer.sent.at(-1)!;
    expect(mail.subject).toBe('Seu código promocional de boas-vindas do XG Marketplace');
    expect(mail.text).toMatch(/Seu código promocional pessoal: WELCOME-\w{8}/);
    expect(mail.text).toContain(`${ctx.config.publicUrl}/pt/admin/dashboard/my-wallet`);
  });
});
