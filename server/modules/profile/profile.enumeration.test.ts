import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';

// POST /api/email-reset must not tell a signed-in user whether another account holds an address:
// a taken address gets the answer a free one gets, and its holder is told by e-mail instead.

let ctx: TestContext;
let u: TestUser;
let holder: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  u = await makeUser(ctx, { nickname: 'requester' });
  holder = await makeUser(ctx, { email: 'taken@example.com', nickname: 'holder' });
});
afterEach(async () => ctx.close());

const emailReset = (newEmail: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/email-reset', payload: { newEmail, password: u.password }, headers: { cookie: u.cookie } });
const pendingRows = () => ctx.app.deps.db.selectFrom('email_changes').selectAll().execute();

describe('e-mail change to an address another account holds', () => {
  it('answers as for a free address, creates no pending change, and tells the holder', async () => {
    const free = await emailReset('Free@Example.com');
    const taken = await emailReset('TAKEN@example.com');
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({ pendingEmail: 'taken@example.com' });
    expect(Object.keys(taken.json())).toEqual(Object.keys(free.json()));
    expect(taken.headers['content-type']).toBe(free.headers['content-type']);

    // Only the free address has a change that could be confirmed.
    expect((await pendingRows()).map((r) => r.new_email)).toEqual(['free@example.com']);

    expect(ctx.mailer.sent.map((m) => m.to)).toEqual(['free@example.com', 'taken@example.com']);
    const notice = ctx.mailer.sent[1];
    expect(notice.text).toMatch(/tried to use this address for another account/i);
    expect(notice.text).toMatch(/sign in with it/i);
    // Nothing in it changes anything: no token, no confirmation link; and the requester is not named.
    expect(notice.text).not.toMatch(/token|confirm-email|https?:\/\/\S+\?/i);
    expect(notice.text).not.toContain('requester');
    expect(notice.text).not.toContain(u.email);

    const h = await ctx.app.deps.db.selectFrom('users').select('email').where('id', '=', holder.id).executeTakeFirstOrThrow();
    expect(h.email).toBe('taken@example.com');
  });

  it('counts against the same 5-an-hour limit, so 429 does not tell taken from free either', async () => {
    for (let i = 0; i < 5; i++) expect((await emailReset('taken@example.com')).statusCode).toBe(200);
    expect((await emailReset('free@example.com')).statusCode).toBe(429);
    expect(ctx.mailer.sent).toHaveLength(5); // the holder is not flooded beyond the limit either
    expect(await pendingRows()).toEqual([]);
  });

  it('refuses the placeholder address of an erased account like any address of its domain, and mails no one', async () => {
    const gone = await makeUser(ctx);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/delete-my-profile?confirm=true',
      payload: { password: gone.password },
      headers: { cookie: gone.cookie },
    });
    expect(del.statusCode).toBe(200);
    const placeholder = `deleted-${gone.id}@deleted.invalid`;
    const res = await emailReset(placeholder);
    // The same answer for every address of the placeholders' domain, erased account or not: nothing to learn.
    expect([res.statusCode, res.json().code]).toEqual([400, 'validation.email_invalid']);
    expect((await emailReset('deleted-nobody@deleted.invalid')).json().code).toBe('validation.email_invalid');
    expect(ctx.mailer.sent).toEqual([]);
    expect(await pendingRows()).toEqual([]);
  });
});
