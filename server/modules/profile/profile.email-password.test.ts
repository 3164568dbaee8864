import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';

// PRODUCT §10: "password ≥ 10 chars and not the e-mail". An e-mail change must not make the
// current password the account's address.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const emailReset = (cookie: string, newEmail: string, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/email-reset', payload: { newEmail, password }, headers: { cookie } });
const pendingChanges = (userId: string) => ctx.app.deps.db.selectFrom('email_changes').select('user_id').where('user_id', '=', userId).execute();

describe('POST /api/email-reset and the password', () => {
  it('refuses a new address that is the current password, storing and sending nothing', async () => {
    const password = 'Same.As.Mail@Example.com';
    const u = await makeUser(ctx, { password });
    const sent = ctx.mailer.sent.length;
    // Read as the address is stored: lower case, NFKC; the password compared without case.
    for (const newEmail of [password, 'same.as.mail@example.com', ' SAME.AS.MAIL@EXAMPLE.COM ']) {
      const res = await emailReset(u.cookie, newEmail, password);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({
        message: 'Password must not be your e-mail address.',
        code: 'validation.password_is_email',
        params: { field: 'newEmail' },
      });
    }
    expect(await pendingChanges(u.id)).toEqual([]);
    expect(ctx.mailer.sent.length).toBe(sent);
    // Any other address is fine.
    expect((await emailReset(u.cookie, 'other@example.com', password)).statusCode).toBe(200);
    expect(await pendingChanges(u.id)).toHaveLength(1);
  });

  // Asked only once the password is proven: a wrong password is a wrong password, whatever the address.
  it('answers a wrong password as such, even when it is the new address', async () => {
    const u = await makeUser(ctx);
    const res = await emailReset(u.cookie, 'guess@example.com', 'guess@example.com');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'profile.wrong_password', params: { field: 'password' } });
  });
});
