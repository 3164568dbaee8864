import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { checkPassword } from '../../../contract/rules.ts';

// A password with half of a UTF-16 pair is refused where a password is chosen: the hash takes it as
// UTF-8, where each half becomes U+FFFD, so "\ud800…" and "\udfff…" would be the same password.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const json = (method: 'POST', url: string, body: string, cookie?: string) =>
  ctx.app.inject({ method, url, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, payload: body });

describe('a password with half of a UTF-16 pair', () => {
  it('is refused at sign-up (so no other half can sign in with it)', async () => {
    const reg = await json('POST', '/api/register', '{"email":"surrogate@example.com","password":"\\ud800 long enough pw","nickname":"surr"}');
    // Refused where every JSON body's half pair is (app.ts), naming the field.
    expect([reg.statusCode, reg.json().code, reg.json().params.field]).toEqual([400, 'validation.invalid', 'password']);
    const other = await json('POST', '/api/login', '{"email":"surrogate@example.com","password":"\\udfff long enough pw"}');
    expect(other.statusCode).toBe(400);
  });

  it('is refused as a new password, and the old one still signs in', async () => {
    const user = await makeUser(ctx);
    const body = JSON.stringify({ currentPassword: user.password, newPassword: 'x long enough pw' }).replace('x long', '\\udfff long');
    const res = await json('POST', '/api/password-update', body, user.cookie);
    expect([res.statusCode, res.json().code, res.json().params.field]).toEqual([400, 'validation.invalid', 'newPassword']);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password } })).statusCode).toBe(200);
  });

  it('while whole pairs (an emoji) and every other character are fine', () => {
    expect(checkPassword('long enough 😀 pw')).toBeNull();
    expect(checkPassword('long enough \ufffd pw')).toBeNull();
    expect(checkPassword('long enough \ud83d pw')).toBe('passwordInvalid');
  });
});
