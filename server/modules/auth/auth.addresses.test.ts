import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { checkEmail, checkNewEmail } from '../../../contract/rules.ts';

// Addresses an account may take: none that mail software reads as another address, no half of a
// UTF-16 pair, and never the placeholder an erased account keeps (deleted-<id>@deleted.invalid).

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const register = (email: string, nickname = 'someone') =>
  ctx.app.inject({ method: 'POST', url: '/api/register', payload: { email, password: 'long enough pw', nickname } });

describe('addresses mail software would read otherwise', () => {
  const tricky = [
    'x<other@example.net>',
    'other@example.net,me@example.org',
    'a;b@example.com',
    'a:b@example.com',
    '"a"@example.com',
    'a(b)@example.com',
    'a[b]@example.com',
    'a\\b@example.com',
  ];

  it('are refused at sign-up', async () => {
    // What the mailer would do with the first: deliver to other@example.net.
    expect(addressparser(tricky[0])).toEqual([{ name: 'x', address: 'other@example.net' }]);
    for (const email of tricky) {
      const res = await register(email);
      expect([email, res.statusCode, res.json().code]).toEqual([email, 400, 'validation.email_invalid']);
    }
  });

  it('are refused as a new address, and the account keeps its own', async () => {
    const user = await makeUser(ctx);
    for (const newEmail of tricky) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/email-reset',
        headers: { cookie: user.cookie },
        payload: { newEmail, password: user.password },
      });
      expect([newEmail, res.statusCode, res.json().code]).toEqual([newEmail, 400, 'validation.email_invalid']);
    }
    expect(ctx.mailer.sent).toEqual([]);
  });

  it('while ordinary ones still pass', () => {
    for (const email of ['a@b.co', "o'brien+tag@example.co.uk", 'josé@exámple.com', 'first.last@sub.example.org'])
      expect([email, checkNewEmail(email)]).toEqual([email, null]);
    expect(checkEmail('a\ud800@example.com')).toBe('emailInvalid'); // stored, U+FFFD: two addresses would be one
  });
});

describe("an erased account's placeholder address", () => {
  it('cannot be taken at sign-up, so erasing that account still works', async () => {
    const victim = await makeUser(ctx);
    const squat = await register(`deleted-${victim.id}@deleted.invalid`, 'squatter');
    expect([squat.statusCode, squat.json().code]).toEqual([400, 'validation.email_invalid']);
    expect((await register(`Deleted-${victim.id}@DELETED.invalid`, 'squatter')).statusCode).toBe(400);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/delete-my-profile?confirm=true',
      headers: { cookie: victim.cookie },
      payload: { password: victim.password },
    });
    expect(del.statusCode).toBe(200);
  });

  it('cannot be taken as a new address', async () => {
    const user = await makeUser(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/email-reset',
      headers: { cookie: user.cookie },
      payload: { newEmail: 'deleted-someone@deleted.invalid', password: user.password },
    });
    expect([res.statusCode, res.json().code]).toEqual([400, 'validation.email_invalid']);
  });
});
