import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { asMaster, createTestApp, cookieOf, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';

// PRODUCT §3: a password change (a reset too) ends every older session, and the reset mail says so.
// argon2id takes tens of milliseconds (longer under load), and whatever commits while it runs must
// not be undone by what the request does with the password it checked: a sign-in, a profile
// password change or an e-mail change asked for with the password a reset replaced.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

/**
 * Holds the first check of `password` after argon2 answered, until `release()`. Nothing of the app
 * is replaced: the real hasher answers, it is only held.
 */
function holdPasswordCheck(password: string) {
  const hasher = ctx.app.deps.hasher;
  const realVerify = hasher.verify.bind(hasher);
  let entered!: () => void;
  const checked = new Promise<void>((r) => (entered = r));
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let first = true;
  hasher.verify = async (hash, typed) => {
    const ok = await realVerify(hash, typed);
    if (first && typed === password) {
      first = false;
      entered();
      await gate;
    }
    return ok;
  };
  return { checked, release };
}

/** Holds the first e-mail to `to` until `release()` (a slow mail server); the others go at once. */
function holdMailTo(to: string) {
  const realSend = ctx.mailer.send.bind(ctx.mailer);
  let entered!: () => void;
  const sending = new Promise<void>((r) => (entered = r));
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let first = true;
  ctx.mailer.send = async (m) => {
    if (first && m.to === to) {
      first = false;
      entered();
      await gate;
    }
    return realSend(m);
  };
  return { sending, release };
}

const NEW_PASSWORD = 'a brand new passphrase';

/** The owner, who learnt their password leaked, sets a new one with a reset link mailed to `email`. */
async function ownerResets(email: string) {
  await ctx.app.inject({ method: 'POST', url: '/api/password-reset-request', remoteAddress: '198.51.100.5', payload: { email } });
  const token = /reset-password\?token=([\w-]+)/.exec(ctx.mailer.sent.at(-1)!.text)![1];
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/password-reset',
    remoteAddress: '198.51.100.5',
    payload: { token, newPassword: NEW_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Whether the cookie a response set (if any) is a working session now. */
async function signedIn(res: LightMyRequestResponse): Promise<boolean> {
  if (!res.cookies.some((c) => c.name === 'XG.TOKEN' && c.value !== '')) return false;
  const session = await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie: cookieOf(res) } });
  return session.json().isAuthenticated === true;
}

const login = (email: string, password: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '203.0.113.66', payload: { email, password } });

const setStatus = (master: TestUser, userId: string, status: 'approved' | 'suspended') =>
  ctx.app.inject({ method: 'POST', url: '/api/master/update-user-status', headers: { cookie: master.cookie }, payload: { userId, status } });

describe('a sign-in whose password check straddles a change of the account', () => {
  it('with the old password during a reset is refused as a wrong password, and no session survives the reset', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const hold = holdPasswordCheck(owner.password);
    const attacker = login(owner.email, owner.password);
    await hold.checked;
    await ownerResets(owner.email);
    hold.release();
    const res = await attacker;
    const failures = await ctx.app.deps.db.selectFrom('sign_ins').select('failure').where('user_id', '=', owner.id).where('ip', '=', '203.0.113.66').execute();
    expect({ status: res.statusCode, code: res.json().code, signedIn: await signedIn(res), recorded: failures.map((f) => f.failure) }).toEqual({
      status: 401,
      code: 'auth.invalid_credentials',
      signedIn: false,
      recorded: ['wrong_password'],
    });
    expect((await login(owner.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('during a suspension is refused as suspended, and gets no token that works once the suspension is lifted', async () => {
    const master = await asMaster(ctx);
    const owner = await makeUser(ctx, { status: 'approved' });
    const hold = holdPasswordCheck(owner.password);
    const pending = login(owner.email, owner.password);
    await hold.checked;
    expect((await setStatus(master, owner.id, 'suspended')).statusCode).toBe(200);
    hold.release();
    const res = await pending;
    expect((await setStatus(master, owner.id, 'approved')).statusCode).toBe(200);
    expect({ status: res.statusCode, code: res.json().code, signedInAfterReinstatement: await signedIn(res) }).toEqual({
      status: 403,
      code: 'auth.account_suspended',
      signedInAfterReinstatement: false,
    });
  });

  it('during a sign-out everywhere gets no session either (it is tried again)', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const hold = holdPasswordCheck(owner.password);
    const pending = login(owner.email, owner.password);
    await hold.checked;
    const out = await ctx.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: owner.cookie } });
    hold.release();
    const res = await pending;
    expect({ out: out.statusCode, status: res.statusCode, signedIn: await signedIn(res) }).toEqual({ out: 200, status: 401, signedIn: false });
    expect(await signedIn(await login(owner.email, owner.password))).toBe(true);
  });
});

describe('a confirmation with the password that straddles a password reset', () => {
  it('a profile password change is refused as an ended session (401), and the password the reset set stays', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const hold = holdPasswordCheck(owner.password);
    const attacker = ctx.app.inject({
      method: 'POST',
      url: '/api/password-update',
      headers: { cookie: owner.cookie },
      payload: { currentPassword: owner.password, newPassword: 'attacker owns this now' },
    });
    await hold.checked;
    await ownerResets(owner.email);
    hold.release();
    const res = await attacker;
    expect({ status: res.statusCode, code: res.json().code, signedIn: await signedIn(res) }).toEqual({
      status: 401,
      code: 'auth.sign_in_required',
      signedIn: false,
    });
    expect((await login(owner.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await login(owner.email, 'attacker owns this now')).statusCode).toBe(401);
  });

  it('an e-mail change is refused as an ended session (401): nothing stored, nothing mailed, the address stays', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const hold = holdPasswordCheck(owner.password);
    const attacker = ctx.app.inject({
      method: 'POST',
      url: '/api/email-reset',
      headers: { cookie: owner.cookie },
      payload: { newEmail: 'thief@evil.example', password: owner.password },
    });
    await hold.checked;
    await ownerResets(owner.email);
    hold.release();
    const res = await attacker;
    const db = ctx.app.deps.db;
    const changes = await db.selectFrom('email_changes').select('new_email').where('user_id', '=', owner.id).execute();
    const email = (await db.selectFrom('users').select('email').where('id', '=', owner.id).executeTakeFirstOrThrow()).email;
    expect({
      status: res.statusCode,
      code: res.json().code,
      changes: changes.filter((c) => c.new_email !== '').length,
      mailed: ctx.mailer.sent.filter((m) => m.to === 'thief@evil.example').length,
      email,
    }).toEqual({ status: 401, code: 'auth.sign_in_required', changes: 0, mailed: 0, email: owner.email });
  });

  it('an e-mail change to an address another account holds is refused the same way, and its holder is not mailed', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const other = await makeUser(ctx, { status: 'approved' });
    const hold = holdPasswordCheck(owner.password);
    const attacker = ctx.app.inject({
      method: 'POST',
      url: '/api/email-reset',
      headers: { cookie: owner.cookie },
      payload: { newEmail: other.email, password: owner.password },
    });
    await hold.checked;
    await ownerResets(owner.email);
    hold.release();
    const res = await attacker;
    expect({ status: res.statusCode, mailedHolder: ctx.mailer.sent.filter((m) => m.to === other.email).length }).toEqual({ status: 401, mailedHolder: 0 });
  });

  it('an account deletion is refused as an ended session (401), and the account stays', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const hold = holdPasswordCheck(owner.password);
    const attacker = ctx.app.inject({
      method: 'DELETE',
      url: '/api/delete-my-profile?confirm=true',
      headers: { cookie: owner.cookie },
      payload: { password: owner.password },
    });
    await hold.checked;
    await ownerResets(owner.email);
    hold.release();
    const res = await attacker;
    const user = await ctx.app.deps.db.selectFrom('users').select(['email', 'deleted_at']).where('id', '=', owner.id).executeTakeFirstOrThrow();
    expect({ status: res.statusCode, email: user.email, deletedAt: user.deleted_at }).toEqual({ status: 401, email: owner.email, deletedAt: null });
  });

  it('without a reset meanwhile, a password change and an e-mail change go through', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/password-update',
      headers: { cookie: owner.cookie },
      payload: { currentPassword: owner.password, newPassword: NEW_PASSWORD },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const cookie = cookieOf(changed);
    expect(await signedIn(changed)).toBe(true);
    const asked = await ctx.app.inject({
      method: 'POST',
      url: '/api/email-reset',
      headers: { cookie },
      payload: { newEmail: 'new@example.com', password: NEW_PASSWORD },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(ctx.mailer.sent.filter((m) => m.to === 'new@example.com')).toHaveLength(1);
  });
});

describe('an e-mail confirmation whose notice straddles a password reset', () => {
  it('gives the confirming browser no session that outlives the reset', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const asked = await ctx.app.inject({
      method: 'POST',
      url: '/api/email-reset',
      headers: { cookie: owner.cookie },
      payload: { newEmail: 'moved@example.com', password: owner.password },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const token = /confirm-email\?token=([^\s"&<]+)/.exec(ctx.mailer.sent.find((m) => m.to === 'moved@example.com')!.text)![1];
    // The notice to the old address goes after commit; the reset commits while it is being sent.
    const hold = holdMailTo(owner.email);
    const confirming = ctx.app.inject({
      method: 'POST',
      url: '/api/confirm-email-reset',
      headers: { cookie: owner.cookie },
      payload: { token: decodeURIComponent(token) },
    });
    await hold.sending;
    await ownerResets('moved@example.com');
    hold.release();
    const res = await confirming;
    expect({ status: res.statusCode, signedInAfterReset: await signedIn(res) }).toEqual({ status: 200, signedInAfterReset: false });
  });
});

describe('a password check that straddles a rehash of the same password (a hash that predates normalization)', () => {
  /** As a decomposing keyboard sends it ("é" as "e" + U+0301). */
  const TYPED = 'cafe\u0301 au lait, please';

  /** An account whose hash is of the text as typed, made before passwords were normalized. */
  async function legacyAccount() {
    const user = await makeUser(ctx, { status: 'approved', password: TYPED });
    const legacy = await ctx.app.deps.hasher.hash(TYPED);
    await ctx.app.deps.db.updateTable('users').set({ password_hash: legacy }).where('id', '=', user.id).execute();
    return user;
  }

  const failuresOf = async (userId: string) =>
    (await ctx.app.deps.db.selectFrom('sign_ins').select('failure').where('user_id', '=', userId).where('failure', 'is not', null).execute()).length;

  it('signs in two tabs at once, and records no wrong password', async () => {
    const owner = await legacyAccount();
    const hold = holdPasswordCheck(TYPED);
    const secondTab = login(owner.email, TYPED);
    await hold.checked;
    const firstTab = await login(owner.email, TYPED); // rehashes the password to its NFC form
    hold.release();
    const second = await secondTab;
    expect({
      first: firstTab.statusCode,
      second: second.statusCode,
      secondSignedIn: await signedIn(second),
      failures: await failuresOf(owner.id),
    }).toEqual({ first: 200, second: 200, secondSignedIn: true, failures: 0 });
  });

  it('changes the password in the profile while another device signs in, and the new password works', async () => {
    const owner = await legacyAccount();
    const hold = holdPasswordCheck(TYPED);
    const change = ctx.app.inject({
      method: 'POST',
      url: '/api/password-update',
      headers: { cookie: owner.cookie },
      payload: { currentPassword: TYPED, newPassword: NEW_PASSWORD },
    });
    await hold.checked;
    const phone = await login(owner.email, TYPED);
    hold.release();
    const changed = await change;
    expect({ phone: phone.statusCode, change: changed.statusCode, code: changed.json().code ?? null, signedIn: await signedIn(changed) }).toEqual({
      phone: 200,
      change: 200,
      code: null,
      signedIn: true,
    });
    expect((await login(owner.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await login(owner.email, TYPED)).statusCode).toBe(401);
  });

  it('asks for an e-mail change while another device signs in, and mails the link', async () => {
    const owner = await legacyAccount();
    const hold = holdPasswordCheck(TYPED);
    const asking = ctx.app.inject({
      method: 'POST',
      url: '/api/email-reset',
      headers: { cookie: owner.cookie },
      payload: { newEmail: 'moved@example.com', password: TYPED },
    });
    await hold.checked;
    const phone = await login(owner.email, TYPED);
    hold.release();
    const asked = await asking;
    expect({
      phone: phone.statusCode,
      asked: asked.statusCode,
      code: asked.json().code ?? null,
      mailed: ctx.mailer.sent.filter((m) => m.to === 'moved@example.com').length,
    }).toEqual({ phone: 200, asked: 200, code: null, mailed: 1 });
  });

  it('still refuses the old password when a reset, not a rehash, stored the other hash', async () => {
    const owner = await legacyAccount();
    const hold = holdPasswordCheck(TYPED);
    const attacker = login(owner.email, TYPED);
    await hold.checked;
    await ownerResets(owner.email);
    hold.release();
    const res = await attacker;
    expect({ status: res.statusCode, code: res.json().code, signedIn: await signedIn(res), failures: await failuresOf(owner.id) }).toEqual({
      status: 401,
      code: 'auth.invalid_credentials',
      signedIn: false,
      failures: 1,
    });
  });
});
