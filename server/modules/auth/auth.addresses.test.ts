import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { checkEmail, checkNewEmail, normalizeEmail } from '../../../contract/rules.ts';

// Addresses an account may take: none that mail software reads as another address, no half of a
// UTF-16 pair, never the placeholder an erased account keeps (deleted-<id>@deleted.invalid), and
// none that names a mailbox another way than as it is written (one mailbox, one account).

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

describe('one mailbox, one account: a domain written one way only', () => {
  // "ann@example.com." (the root's dot: SMTP refuses it, RFC 5321 §4.1.2; DNS reads example.com)
  // and "bo@xn--bcher-kva.de" (bücher.de as DNS and nodemailer send it) name mailboxes that already
  // have accounts: a second account there would be, say, a suspended provider back under the
  // address staff read as the same.
  it('refuses a second account for the same mailbox with a trailing dot or an xn-- domain', async () => {
    expect((await register('ann@example.com', 'ann_1')).statusCode).toBe(201);
    expect((await register('bo@bücher.de', 'bo_1')).statusCode).toBe(201);
    const tries: Array<[string, string]> = [
      ['ann@example.com.', 'validation.email_invalid'],
      ['ann@Example.Com..', 'validation.email_invalid'],
      ['bo@xn--bcher-kva.de', 'validation.email_encoded_domain'],
      ['bo@XN--BCHER-KVA.DE', 'validation.email_encoded_domain'],
      ['bo@\uff58\uff4e\uff0d\uff0dbcher-kva.de', 'validation.email_encoded_domain'], // fullwidth, NFKC makes it xn--
      ['bo@mail.xn--bcher-kva.de', 'validation.email_encoded_domain'],
    ];
    for (const [email, code] of tries) {
      const res = await register(email, 'second');
      expect([email, res.statusCode, res.json().code]).toEqual([email, 400, code]);
    }
    const emails = (await ctx.app.deps.db.selectFrom('users').select('email').execute()).map((u) => u.email).sort();
    expect(emails).toEqual(['ann@example.com', 'bo@bücher.de']);
  });

  it('refuses them as a new address, and sends no link', async () => {
    const user = await makeUser(ctx);
    for (const [newEmail, code] of [
      ['ann@example.com.', 'validation.email_invalid'],
      ['bo@xn--bcher-kva.de', 'validation.email_encoded_domain'],
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/email-reset',
        headers: { cookie: user.cookie },
        payload: { newEmail, password: user.password },
      });
      expect([newEmail, res.statusCode, res.json().code]).toEqual([newEmail, 400, code]);
    }
    expect(ctx.mailer.sent).toEqual([]);
  });

  // Refused rather than rewritten (contract/rules.ts checkNewEmail): an account that signed up with
  // such an address before keeps signing in and getting reset links under it.
  it('still signs in and resets an account that took such an address before', async () => {
    for (const stored of ['cy@xn--bcher-kva.de', 'di@example.org.']) {
      const user = await makeUser(ctx);
      await ctx.app.deps.db.updateTable('users').set({ email: stored }).where('id', '=', user.id).execute();
      const login = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: stored, password: user.password } });
      expect([stored, login.statusCode]).toEqual([stored, 200]);
      const reset = await ctx.app.inject({ method: 'POST', url: '/api/password-reset-request', payload: { email: stored } });
      expect([stored, reset.statusCode]).toEqual([stored, 202]);
    }
    expect(ctx.mailer.sent.map((m) => m.to)).toEqual(['cy@xn--bcher-kva.de', 'di@example.org.']);
  });

  it('as the rules say, which the forms share', () => {
    for (const email of ['a@.example.com', 'a@example..com', 'a@example.com.', 'x@deleted.invalid.'])
      expect([email, checkNewEmail(email)]).toEqual([email, 'emailInvalid']);
    expect(checkNewEmail(normalizeEmail('bo@\uff38\uff4e--bcher-kva.de'))).toBe('emailEncodedDomain');
    for (const email of ['bo@bücher.de', 'a@axn--b.example', 'xn--a@example.com', 'a@xnbcher.de']) expect([email, checkNewEmail(email)]).toEqual([email, null]);
    // Sign-in and reset look an address up as written, whatever it is: an old account still answers.
    expect([checkEmail('a@example.com.'), checkEmail('a@xn--bcher-kva.de')]).toEqual([null, null]);
  });
});
