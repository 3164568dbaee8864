import { createHmac } from 'node:crypto';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { startFakeTextbelt, type FakeTextbelt } from '../../test/fakes/textbelt.ts';
import { DAY_MS, HOUR_MS } from '../../core/clock.ts';
import type { App } from '../../app.ts';
import { openFileApp } from '../../test/ledger-property/file-app.ts';
import { purgeSms } from './sms.jobs.ts';

// PRODUCT §11: three verification texts an hour per number, whoever asks. Accounts are free to make
// and to delete, and an account's erasure deletes its codes: the texts a number got are counted in
// phone_texts (a keyed hash of the number), kept through the erasure, across restarts and processes.

const KEY = 'number_limit_key_01';
const VICTIM = '+12125550160';
let fake: FakeTextbelt;
let ctx: TestContext;
beforeEach(async () => {
  fake = await startFakeTextbelt({ keys: { [KEY]: 1000 } });
  ctx = await createTestApp({ env: { TEXTBELT_URL: fake.url } });
  const admin = await asAdmin(ctx);
  await ctx.app.inject({ method: 'PUT', url: '/api/admin/update-textbelt-token-by-id/1', payload: { token: KEY }, headers: { cookie: admin.cookie } });
});
afterEach(async () => {
  await ctx.close();
  await fake.stop();
});

const ask = (u: TestUser, phone = VICTIM, app: App = ctx.app) =>
  app.inject({
    method: 'POST',
    url: '/api/phone-verification',
    payload: { phone },
    headers: { cookie: u.cookie, 'sec-fetch-site': 'same-origin' },
    remoteAddress: '203.0.113.50',
  });
async function erase(u: TestUser) {
  const res = await ctx.app.inject({
    method: 'DELETE',
    url: '/api/delete-my-profile?confirm=true',
    headers: { cookie: u.cookie },
    payload: { password: u.password },
  });
  expect(res.statusCode, res.body).toBe(200);
}
/** An account that texted the victim the hour's three codes, then was erased. */
async function textedThriceThenErased() {
  const u = await makeUser(ctx, { status: 'approved' });
  for (let i = 0; i < 3; i++) expect((await ask(u)).statusCode).toBe(202);
  await erase(u);
}
const texts = () => ctx.app.deps.db.selectFrom('phone_texts').selectAll().orderBy('id').execute();
const keyOf = (phone: string) => createHmac('sha256', ctx.config.jwtSecret).update(`phone-texts\0${phone}`).digest('hex');

describe('the hourly limit per number outlives the account that asked', () => {
  it('an erased account and a new one: the number still has had its three texts this hour (429)', async () => {
    await textedThriceThenErased();
    const next = await makeUser(ctx, { status: 'approved' });
    const res = await ask(next);
    expect([res.statusCode, res.json().code, res.json().params]).toEqual([429, 'phone.too_many_codes', { minutes: 60 }]);
    expect(fake.textsTo(VICTIM)).toHaveLength(3);
    // another number is not held back
    expect((await ask(next, '+12125550161')).statusCode).toBe(202);
  });

  it('and after a restart, or on another server on the same file (no memory of the texts)', async () => {
    await textedThriceThenErased();
    const second = await openFileApp(path.join(ctx.dataDir, 'xg.sqlite'), ctx.dataDir, { config: ctx.config, clock: ctx.clock, mailer: ctx.mailer });
    const other = second.app;
    try {
      const reg = await other.inject({
        method: 'POST',
        url: '/api/register',
        payload: { email: 'after-restart@example.com', password: 'correct horse battery', nickname: 'after_restart' },
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(reg.statusCode, reg.body).toBe(201);
      const next: TestUser = { id: reg.json().id, email: 'after-restart@example.com', password: 'correct horse battery', cookie: '' };
      next.cookie = `XG.TOKEN=${reg.cookies.find((c) => c.name === 'XG.TOKEN')!.value}`;
      await ctx.app.deps.db.updateTable('users').set({ status: 'approved' }).where('id', '=', next.id).execute();
      const res = await ask(next, VICTIM, other);
      expect([res.statusCode, res.json().code]).toEqual([429, 'phone.too_many_codes']);
      expect(fake.textsTo(VICTIM)).toHaveLength(3);
    } finally {
      await second.close();
    }
  });

  it('keeps a keyed hash of the number, not the number; the rows outlive the erasure', async () => {
    await textedThriceThenErased();
    const rows = await texts();
    expect(rows.map((r) => r.phone_key)).toEqual([keyOf(VICTIM), keyOf(VICTIM), keyOf(VICTIM)]);
    expect(JSON.stringify(rows)).not.toContain('5550160');
    expect(await ctx.app.deps.db.selectFrom('phone_codes').select('id').execute()).toEqual([]);
  });

  it('two requests at once at the limit: one text, not two', async () => {
    const [a, b, c] = [await makeUser(ctx, { status: 'approved' }), await makeUser(ctx, { status: 'approved' }), await makeUser(ctx, { status: 'approved' })];
    expect((await ask(a)).statusCode).toBe(202);
    expect((await ask(a)).statusCode).toBe(202);
    const answers = (await Promise.all([ask(b), ask(c)])).map((r) => r.statusCode).sort();
    expect(answers).toEqual([202, 429]);
    expect(fake.textsTo(VICTIM)).toHaveLength(3);
  });

  it('an hour after the first text the number may be texted again', async () => {
    await textedThriceThenErased();
    const next = await makeUser(ctx, { status: 'approved' });
    ctx.clock.advance(HOUR_MS - 1);
    expect((await ask(next)).statusCode).toBe(429);
    ctx.clock.advance(1);
    expect((await ask(next)).statusCode).toBe(202);
    expect(fake.textsTo(VICTIM)).toHaveLength(4);
  });

  it('a text that could not be sent does not count against the number', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    fake.failNext('http500');
    expect((await ask(u)).statusCode).toBe(503);
    expect(await texts()).toEqual([]);
  });

  it('purge-sms deletes the rows of texts sent over a day ago', async () => {
    await textedThriceThenErased();
    ctx.clock.advance(DAY_MS - 1);
    const u = await makeUser(ctx, { status: 'approved' });
    expect((await ask(u, '+12125550162')).statusCode).toBe(202);
    await purgeSms(ctx.app.deps);
    expect(await texts()).toHaveLength(4); // a day old less a millisecond: kept
    ctx.clock.advance(2);
    await purgeSms(ctx.app.deps);
    expect((await texts()).map((r) => r.phone_key)).toEqual([keyOf('+12125550162')]);
  });
});
