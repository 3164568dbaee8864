// A password is the same password however the keyboard composed its accents: precomposed (NFC,
// "é" as U+00E9) or decomposed (NFD, "e" + U+0301). It is checked and hashed as NFC
// (core/passwords.ts); a hash made before that, of a password typed decomposed, still matches it
// and is remade of the NFC form at the next sign-in or password check.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cookieOf, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({ limits: { authAttemptsPerWindow: 20 } });
});
afterEach(async () => ctx.close());

const PASSWORD = 'Crème brûlée façade 2026';
const NFC = PASSWORD.normalize('NFC');
const NFD = PASSWORD.normalize('NFD');

let seq = 0;
const login = (user: TestUser, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/login', remoteAddress: `10.200.0.${++seq}`, payload: { email: user.email, password } });
const row = (user: TestUser) =>
  ctx.app.deps.db.selectFrom('users').select(['password_hash', 'token_version']).where('id', '=', user.id).executeTakeFirstOrThrow();
/** Which forms of PASSWORD the stored hash is of. */
const hashIsOf = async (user: TestUser) => {
  const { password_hash } = await row(user);
  return { nfc: await ctx.app.deps.hasher.verify(password_hash, NFC), nfd: await ctx.app.deps.hasher.verify(password_hash, NFD) };
};
/** An account whose hash was made before passwords were normalized, of the password as typed decomposed. */
async function legacyAccount(): Promise<TestUser> {
  const user = await makeUser(ctx, { status: 'approved', password: NFC });
  const hash = await ctx.app.deps.hasher.hash(NFD);
  await ctx.app.deps.db.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
  return user;
}
const session = (cookie: string) => ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } });

describe('a password typed precomposed or decomposed', () => {
  // Copied from server/test/probe7-parsing.test.ts.
  it('signs in decomposed (NFD) to the account registered with it precomposed (NFC)', async () => {
    const user = await makeUser(ctx, { password: NFC });
    const res = await login(user, NFD);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('signs in precomposed to the account registered with it decomposed, whose hash is of the NFC form', async () => {
    const user = await makeUser(ctx, { password: NFD });
    expect(await hashIsOf(user)).toEqual({ nfc: true, nfd: false });
    const res = await login(user, NFC);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('is still refused when wrong, in either form', async () => {
    const user = await makeUser(ctx, { password: NFC });
    for (const wrong of ['Creme brulee facade 2026', 'Crème brûlée façade 2025'.normalize('NFD')]) {
      const res = await login(user, wrong);
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 401, code: 'auth.invalid_credentials' });
    }
  });

  it('is counted by the password rules in its NFC form: 8 characters typed decomposed are too short', async () => {
    const short = 'ééééé abc'.normalize('NFD').slice(0, 13); // 5 accented letters: 13 code units decomposed, 8 precomposed
    expect([short.length, short.normalize('NFC').length]).toEqual([13, 8]);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/register', payload: { email: 'short@example.com', password: short, nickname: 'shorty' } });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 400, code: 'validation.password_too_short' });
  });

  it('set by a reset link decomposed, signs in precomposed', async () => {
    const user = await makeUser(ctx, { status: 'approved' });
    await ctx.app.inject({ method: 'POST', url: '/api/password-reset-request', payload: { email: user.email } });
    const token = /reset-password\?token=([\w-]+)/.exec(ctx.mailer.sent.at(-1)!.text)![1];
    const reset = await ctx.app.inject({ method: 'POST', url: '/api/password-reset', payload: { token, newPassword: NFD } });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await login(user, NFC)).statusCode).toBe(200);
  });

  it('is the current password of the profile’s checks, and a new one set there decomposed matches precomposed', async () => {
    const user = await makeUser(ctx, { status: 'approved', password: NFC });
    const next = 'Über straße, naïve café';
    const change = await ctx.app.inject({
      method: 'POST',
      url: '/api/password-update',
      headers: { cookie: user.cookie },
      payload: { currentPassword: NFD, newPassword: next.normalize('NFD') },
    });
    expect(change.statusCode, change.body).toBe(200);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/password-update',
      headers: { cookie: cookieOf(change) },
      payload: { currentPassword: next.normalize('NFC'), newPassword: 'a third passphrase' },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect((await login(user, 'a third passphrase')).statusCode).toBe(200);
  });
});

describe('a hash made before passwords were normalized (of the text as typed, decomposed)', () => {
  it('matches the password typed as then, and is remade of the NFC form without ending any session', async () => {
    const user = await legacyAccount();
    const before = await row(user);
    const res = await login(user, NFD);
    expect(res.statusCode, res.body).toBe(200);
    expect(await hashIsOf(user)).toEqual({ nfc: true, nfd: false });
    expect((await row(user)).token_version).toBe(before.token_version);
    expect((await session(user.cookie)).json().id).toBe(user.id); // the session it had still stands
    expect((await login(user, NFC)).statusCode).toBe(200); // and from now on from any keyboard
    const signIns = await ctx.app.deps.db.selectFrom('sign_ins').select(['success']).where('user_id', '=', user.id).execute();
    expect(signIns.map((s) => s.success)).toEqual([1, 1, 1]); // registering, then the two sign-ins
  });

  it('is not remade by a wrong password, nor when the account is suspended', async () => {
    const user = await legacyAccount();
    const before = (await row(user)).password_hash;
    expect((await login(user, 'Crème brûlée façade 2025'.normalize('NFD'))).statusCode).toBe(401);
    await ctx.app.deps.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', user.id).execute();
    expect((await login(user, NFD)).statusCode).toBe(403);
    expect((await row(user)).password_hash).toBe(before);
  });

  it('is remade by a profile password check too (an e-mail change)', async () => {
    const user = await legacyAccount();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/email-reset',
      headers: { cookie: user.cookie },
      payload: { newEmail: 'elsewhere@example.com', password: NFD },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await hashIsOf(user)).toEqual({ nfc: true, nfd: false });
  });
});
