import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, cookieOf, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { ledgerDiscrepancies } from './ledger.service.ts';

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

const inject = (cookie: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, headers: { cookie }, ...(payload !== undefined ? { payload: payload as object } : {}) });

async function createCode(body: Record<string, unknown>) {
  const res = await inject(admin.cookie, 'POST', '/api/admin/set-promo-code-by-id', { amountCents: 2000, maxUses: 10, active: true, expiresAt: null, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().promoCode as { id: string; code: string };
}

async function wallets(u: TestUser) {
  const res = await inject(u.cookie, 'GET', '/api/all-wallets-by-user');
  expect(res.statusCode).toBe(200);
  return res.json().wallets as { id: string; walletType: string; amountCents: number; currency: string }[];
}

async function ledgerRows(walletId: string) {
  return ctx.app.deps.db.selectFrom('ledger_entries').selectAll().where('wallet_id', '=', walletId).execute();
}

describe('wallets', () => {
  it('lists the USD wallet; the promo wallet is created once, on demand', async () => {
    const u = await makeUser(ctx);
    expect(await wallets(u)).toEqual([{ id: expect.any(String), walletType: 'USD', amountCents: 0, currency: 'USD' }]);
    const a = await inject(u.cookie, 'POST', '/api/create-promo-wallet', {});
    const b = await inject(u.cookie, 'POST', '/api/create-promo-wallet', {});
    expect(a.statusCode).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(b.json().wallet).toEqual(a.json().wallet);
    expect(a.json().wallet).toMatchObject({ walletType: 'XG-PROMO-WALLET', amountCents: 0, currency: 'USD' });
    expect((await wallets(u)).map((w) => w.walletType)).toEqual(['USD', 'XG-PROMO-WALLET']);
  });

  it('needs a session', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/all-wallets-by-user' })).statusCode).toBe(401);
  });
});

describe('promo codes', () => {
  it('credits a code once per user, creating the promo wallet on first use', async () => {
    await createCode({ code: 'SPRING-20' });
    const u = await makeUser(ctx);
    const res = await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code: ' spring-20 ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().wallet).toMatchObject({ walletType: 'XG-PROMO-WALLET', amountCents: 2000 });
    const again = await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code: 'SPRING-20' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'You have already used this promo code.', code: 'wallet.promo_code_already_used' });
    const promo = (await wallets(u)).find((w) => w.walletType === 'XG-PROMO-WALLET')!;
    expect(promo.amountCents).toBe(2000);
    expect(await ledgerRows(promo.id)).toHaveLength(1);
  });

  it('credits once even when the same user sends the code ten times at once', async () => {
    await createCode({ code: 'RACE-CODE' });
    const u = await makeUser(ctx);
    const results = await Promise.all(Array.from({ length: 10 }, () => inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code: 'RACE-CODE' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    const promo = (await wallets(u)).find((w) => w.walletType === 'XG-PROMO-WALLET')!;
    expect(promo.amountCents).toBe(2000);
  });

  it('respects max uses across users', async () => {
    await createCode({ code: 'TWO-ONLY', maxUses: 2, amountCents: 500 });
    const users = await Promise.all([makeUser(ctx), makeUser(ctx), makeUser(ctx)]);
    const answers = [];
    for (const u of users) {
      const res = await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code: 'TWO-ONLY' });
      answers.push([res.statusCode, res.json().code]);
    }
    expect(answers).toEqual([
      [200, undefined],
      [200, undefined],
      [409, 'wallet.promo_code_used_up'],
    ]);
    expect((await wallets(users[2])).every((w) => w.amountCents === 0)).toBe(true);
    const row = await ctx.app.deps.db.selectFrom('promo_codes').selectAll().where('code', '=', 'TWO-ONLY').executeTakeFirstOrThrow();
    expect(row.uses).toBe(2);
  });

  it('refuses expired, inactive, unknown and malformed codes and credits nothing', async () => {
    await createCode({ code: 'SOON-GONE', expiresAt: new Date(ctx.clock.now().getTime() + DAY_MS).toISOString() });
    await createCode({ code: 'SWITCHED-OFF', active: false });
    const u = await makeUser(ctx);
    ctx.clock.advance(2 * DAY_MS);
    const cases: [string, number, string][] = [
      ['SOON-GONE', 400, 'wallet.promo_code_expired'],
      ['SWITCHED-OFF', 400, 'wallet.promo_code_inactive'],
      ['NO-SUCH-CODE', 400, 'wallet.promo_code_not_valid'],
      ['ab', 400, 'validation.promo_code_invalid'],
      ['BAD CODE!', 400, 'validation.promo_code_invalid'],
    ];
    for (const [code, status, errorCode] of cases) {
      const res = await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code });
      expect(res.statusCode, code).toBe(status);
      expect(res.json(), code).toMatchObject({ code: errorCode, params: { field: 'code' } });
    }
    expect((await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code: 'SOON-GONE' })).json().message).toBe('This promo code has expired.');
    const missing = await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'validation.required', params: { field: 'code' } });
    expect((await wallets(u)).every((w) => w.amountCents === 0)).toBe(true);
    expect(await ctx.app.deps.db.selectFrom('ledger_entries').selectAll().execute()).toHaveLength(0);
  });

  it('limits guessing to 30 codes an hour per user', async () => {
    const u = await makeUser(ctx);
    for (let i = 0; i < 30; i++) expect((await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code: `GUESS-${i}` })).statusCode).toBe(400);
    const limited = await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code: 'GUESS-30' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: 'Too many promo code attempts. Please try again in an hour.', code: 'wallet.too_many_promo_attempts' });
    ctx.clock.advance(60 * 60 * 1000);
    expect((await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code: 'GUESS-31' })).json().code).toBe('wallet.promo_code_not_valid');
  });

  it('e-mails a personal one-time welcome code once; only its owner can use it', async () => {
    const u = await makeUser(ctx);
    const other = await makeUser(ctx);
    const res = await inject(u.cookie, 'GET', '/api/email-wallet-promo-code');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sent: true, email: u.email });
    expect(ctx.mailer.sent).toHaveLength(1);
    expect(ctx.mailer.sent[0].to).toBe(u.email);
    const code = /WELCOME-[A-Z0-9]{8}/.exec(ctx.mailer.sent[0].text)![0];
    const twice = await inject(u.cookie, 'GET', '/api/email-wallet-promo-code');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('wallet.welcome_code_already_sent');
    expect(ctx.mailer.sent).toHaveLength(1);
    const stolen = await inject(other.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().code).toBe('wallet.promo_code_not_valid'); // the same answer as an unknown code
    const ok = await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().wallet.amountCents).toBe(2000);
    expect((await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code })).statusCode).toBe(409);
  });

  // Brazilian and Spanish readers take "20.00" for two thousand: the amount is written their way.
  it("writes the welcome amount the reader's way", async () => {
    const en = await makeUser(ctx);
    const pt = await makeUser(ctx);
    await ctx.app.deps.db.updateTable('users').set({ locale: 'pt' }).where('id', '=', pt.id).execute();
    for (const u of [en, pt]) expect((await inject(u.cookie, 'GET', '/api/email-wallet-promo-code')).statusCode).toBe(200);
    expect(ctx.mailer.sent.find((m) => m.to === en.email)!.text).toContain('It adds $20.00 to your promo wallet');
    expect(ctx.mailer.sent.find((m) => m.to === pt.email)!.text).toContain('Ele adiciona US$\u00a020,00 à sua carteira promocional');
  });

  it('the welcome code works until the moment its e-mail names, with its zone, and not after', async () => {
    ctx.clock.set('2026-01-15T12:00:00.000Z');
    const u = await makeUser(ctx);
    expect((await inject(u.cookie, 'GET', '/api/email-wallet-promo-code')).statusCode).toBe(200);
    const text = ctx.mailer.sent.at(-1)!.text;
    // A day alone reads as the reader's day: in Los Angeles the code would die at 4 PM on it.
    expect(text).toContain('once, until Feb 14, 2026, 11:59 PM UTC.');
    const code = /WELCOME-[A-Z0-9]{8}/.exec(text)![0];
    const redeem = async () => {
      const login = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password: u.password } });
      return ctx.app.inject({ method: 'POST', url: '/api/add-promo-code-to-promo-wallet', headers: { cookie: cookieOf(login) }, payload: { code } });
    };
    ctx.clock.set('2026-02-15T00:00:00.000Z'); // the next day: over
    expect((await redeem()).json().code).toBe('wallet.promo_code_expired');
    ctx.clock.set('2026-02-14T23:59:00.000Z'); // still Feb 14, UTC, six hours past the moment it was sent a month before
    expect((await redeem()).statusCode).toBe(200);
  });

  it('withdraws the welcome code when the e-mail cannot be sent', async () => {
    const u = await makeUser(ctx);
    const send = ctx.mailer.send.bind(ctx.mailer);
    ctx.mailer.send = async () => {
      throw new Error('smtp down');
    };
    const res = await inject(u.cookie, 'GET', '/api/email-wallet-promo-code');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: 'We could not send the e-mail. Please try again later.', code: 'wallet.welcome_email_failed' });
    expect(await ctx.app.deps.db.selectFrom('promo_codes').selectAll().execute()).toHaveLength(0);
    ctx.mailer.send = send;
    expect((await inject(u.cookie, 'GET', '/api/email-wallet-promo-code')).statusCode).toBe(200);
  });

  it('keeps the welcome code, and sends no second one, when it was used although the mail reported an error', async () => {
    // e.g. an SMTP timeout after the server accepted the message: the code arrived and was redeemed
    const u = await makeUser(ctx);
    const send = ctx.mailer.send.bind(ctx.mailer);
    ctx.mailer.send = async (m) => {
      const code = /WELCOME-[A-Z0-9]{8}/.exec(m.text)![0];
      expect((await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code })).statusCode).toBe(200);
      throw new Error('smtp timeout after DATA');
    };
    const res = await inject(u.cookie, 'GET', '/api/email-wallet-promo-code');
    expect(res.statusCode, res.body).toBe(200);
    ctx.mailer.send = send;
    expect((await inject(u.cookie, 'GET', '/api/email-wallet-promo-code')).statusCode).toBe(409);
    expect(ctx.mailer.sent).toHaveLength(0);
    expect(await ctx.app.deps.db.selectFrom('promo_codes').selectAll().execute()).toHaveLength(1);
    expect((await wallets(u)).find((w) => w.walletType === 'XG-PROMO-WALLET')!.amountCents).toBe(2000);
  });

  it('keeps every balance equal to its ledger sum', async () => {
    await createCode({ code: 'CHECK-SUM' });
    const u = await makeUser(ctx);
    await inject(u.cookie, 'POST', '/api/add-promo-code-to-promo-wallet', { code: 'CHECK-SUM' });
    expect(await ledgerDiscrepancies(ctx.app.deps.db)).toEqual([]);
  });
});
