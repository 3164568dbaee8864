import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { MIGRATIONS_DIR } from '../../core/migrate.ts';
import { canonicalMailbox } from '../../../contract/rules.ts';
import { backfillWelcomeGiven, WELCOME_CLAIM_MS } from './wallets.service.ts';

// The $20 welcome credit: once per mailbox for good (an erased account's address, the aliases of
// one inbox), a claim whose e-mail never left taken over, and promo code guesses limited per IP.

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const req = (u: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, remoteAddress?: string) =>
  ctx.app.inject({ method, url, payload, remoteAddress, headers: { cookie: u.cookie } });

/** Asks for the welcome code and redeems it: the promo credit, or the refusal. */
async function takeWelcome(u: TestUser) {
  const before = ctx.mailer.sent.length;
  const res = await req(u, 'GET', '/api/email-wallet-promo-code');
  if (res.statusCode !== 200) return { status: res.statusCode, code: res.json().code as string };
  const code = /WELCOME-[A-Z0-9]{8}/.exec(
    ctx.mailer.sent
      .slice(before)
      .map((m) => m.text)
      .join('\n'),
  )![0];
  const red = await req(u, 'POST', '/api/add-promo-code-to-promo-wallet', { code });
  return { status: red.statusCode, credited: red.json().wallet?.amountCents as number };
}

const rows = (table: string) => ctx.app.deps.database.sqlite.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];

describe('the welcome credit, once per mailbox', () => {
  it('reads the aliases of one inbox as one mailbox', () => {
    expect(['Ann.Smith@Gmail.com', 'annsmith+2@gmail.com', 'a.n.n.s.m.i.t.h@googlemail.com', 'ann.smith+x.y@gmail.com'].map(canonicalMailbox)).toEqual([
      'annsmith@gmail.com',
      'annsmith@gmail.com',
      'annsmith@gmail.com',
      'annsmith@gmail.com',
    ]);
    // dots count outside Gmail; a "+" that begins the name is no tag
    expect(['ann.smith+work@example.com', 'ann.smith@example.com', 'annsmith@example.com', '+ann@example.com'].map(canonicalMailbox)).toEqual([
      'ann.smith@example.com',
      'ann.smith@example.com',
      'annsmith@example.com',
      '+ann@example.com',
    ]);
  });

  it('gives no second welcome credit to the same address after delete and re-register, and keeps no address or account id', async () => {
    const email = 'returning.provider@example.com';
    const first = await makeUser(ctx, { email });
    expect(await takeWelcome(first)).toEqual({ status: 200, credited: 2000 });
    const del = await req(first, 'DELETE', '/api/delete-my-profile?confirm=true', { password: first.password });
    expect(del.statusCode, del.body).toBeLessThan(300);
    const again = await makeUser(ctx, { email });
    expect(await takeWelcome(again)).toEqual({ status: 409, code: 'wallet.welcome_code_already_sent' });
    const kept = JSON.stringify(rows('welcome_given'));
    expect(kept).not.toContain('returning');
    expect(kept).not.toContain(first.id);
  });

  it('gives it once per inbox, not per +tag or Gmail dot alias; another mailbox still gets its own', async () => {
    const results = [];
    for (const email of ['ann.smith@gmail.com', 'annsmith+2@gmail.com', 'a.n.n.s.m.i.t.h@googlemail.com'])
      results.push(await takeWelcome(await makeUser(ctx, { email })));
    expect(results).toEqual([
      { status: 200, credited: 2000 },
      { status: 409, code: 'wallet.welcome_code_already_sent' },
      { status: 409, code: 'wallet.welcome_code_already_sent' },
    ]);
    expect(await takeWelcome(await makeUser(ctx, { email: 'ann.smith@example.com' }))).toEqual({ status: 200, credited: 2000 });
  });

  it('counts the accounts sent a code before the mailboxes were kept (the migration and its backfill at start)', async () => {
    const old = await makeUser(ctx, { email: 'early.bird@gmail.com' });
    const never = await makeUser(ctx, { email: 'never.asked@gmail.com' });
    await ctx.app.deps.db.updateTable('users').set({ welcome_promo_sent_at: '2025-01-01T00:00:00.000Z' }).where('id', '=', old.id).execute();
    // What 0042 lists for the server to hash: its last statement, run on this database as it was then.
    const migration = fs.readFileSync(path.join(MIGRATIONS_DIR, '0042_welcome_given.sql'), 'utf8');
    ctx.app.deps.database.sqlite.exec(migration.slice(migration.lastIndexOf('INSERT INTO welcome_given_backfill')));
    expect(await backfillWelcomeGiven(ctx.app.deps)).toBe(1);
    expect(rows('welcome_given_backfill')).toEqual([]);
    expect(await backfillWelcomeGiven(ctx.app.deps)).toBe(0);
    expect(await takeWelcome(await makeUser(ctx, { email: 'earlybird+again@gmail.com' }))).toEqual({ status: 409, code: 'wallet.welcome_code_already_sent' });
    expect(await takeWelcome(never)).toEqual({ status: 200, credited: 2000 });
  });
});

describe('a welcome e-mail that never left', () => {
  it('is taken over after the mail timeouts: the unused code goes, a new one is mailed; concurrent requests give one code', async () => {
    const u = await makeUser(ctx);
    const send = ctx.mailer.send.bind(ctx.mailer);
    // The process "dies" with the e-mail on its way: the send never ends, nothing is given back.
    ctx.mailer.send = () => new Promise<void>(() => {});
    void req(u, 'GET', '/api/email-wallet-promo-code');
    await expect.poll(() => rows('welcome_given').length).toBe(1);
    ctx.mailer.send = send;
    const soon = await req(u, 'GET', '/api/email-wallet-promo-code');
    expect([soon.statusCode, soon.json().code]).toEqual([409, 'wallet.welcome_code_on_its_way']);
    ctx.clock.advance(WELCOME_CLAIM_MS + 1000);
    const [a, b] = await Promise.all([req(u, 'GET', '/api/email-wallet-promo-code'), req(u, 'GET', '/api/email-wallet-promo-code')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(ctx.mailer.sent).toHaveLength(1);
    const codes = await ctx.app.deps.db.selectFrom('promo_codes').select('code').execute();
    expect(codes).toEqual([{ code: /WELCOME-[A-Z0-9]{8}/.exec(ctx.mailer.sent[0].text)![0] }]);
    expect(rows('welcome_given')).toEqual([expect.objectContaining({ sent_at: expect.any(String) })]);
    expect((await req(u, 'GET', '/api/email-wallet-promo-code')).json().code).toBe('wallet.welcome_code_already_sent');
  });

  it('is recorded as sent, not given again, when its code was redeemed after all', async () => {
    const u = await makeUser(ctx);
    let code = '';
    ctx.mailer.send = (m) => {
      code = /WELCOME-[A-Z0-9]{8}/.exec(m.text)![0];
      return new Promise<void>(() => {}); // delivered, but the process died before it heard so
    };
    void req(u, 'GET', '/api/email-wallet-promo-code');
    await expect.poll(() => code).not.toBe('');
    expect((await req(u, 'POST', '/api/add-promo-code-to-promo-wallet', { code })).statusCode).toBe(200);
    ctx.clock.advance(WELCOME_CLAIM_MS + 1000);
    expect((await req(u, 'GET', '/api/email-wallet-promo-code')).json().code).toBe('wallet.welcome_code_already_sent');
    expect(rows('welcome_given')).toEqual([expect.objectContaining({ sent_at: expect.any(String) })]);
  });
});

describe('promo code guesses', () => {
  it('are limited per IP, not only per account', async () => {
    const ip = '198.51.100.50';
    const [a, b, c] = [await makeUser(ctx), await makeUser(ctx), await makeUser(ctx)];
    for (let i = 0; i < 30; i++) expect((await req(a, 'POST', '/api/add-promo-code-to-promo-wallet', { code: `GUESS-A-${i}` }, ip)).statusCode).toBe(400);
    const next = await req(b, 'POST', '/api/add-promo-code-to-promo-wallet', { code: 'GUESS-B-0' }, ip);
    expect([next.statusCode, next.json().code]).toEqual([429, 'wallet.too_many_promo_attempts']);
    // another address is not held back by this one's guesses
    expect((await req(c, 'POST', '/api/add-promo-code-to-promo-wallet', { code: 'GUESS-C-0' }, '198.51.100.51')).statusCode).toBe(400);
  });
});
