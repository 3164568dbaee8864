import { afterEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { loadConfig } from '../../core/config.ts';
import { ManualClock } from '../../core/clock.ts';
import { openDatabase } from '../../core/db.ts';
import { createPasswordHasher } from '../../core/passwords.ts';
import { NEVER_BUSY } from '../../core/load.ts';
import { MIGRATIONS_DIR } from '../../core/migrate.ts';
import { buildApp } from '../../app.ts';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { creditRows, usdBalance } from './payments.testkit.ts';

// The sandbox's paid invoices outlive the process that took the payment: "simulate payment" stores
// when the invoice settles, and the next process (or one already running on the same database
// file) settles it then, with the Settled webhooks, once.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Another app on the test's database file: its own connection, clock and timers (a restart, or a second process). */
async function openAgain(ctx: TestContext, settleMs: number): Promise<TestContext> {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: ctx.dataDir, SEED_LOCATIONS: '0', CRON: '0', SANDBOX_SETTLE_MS: String(settleMs) });
  const database = openDatabase(path.join(ctx.dataDir, 'xg.sqlite'));
  const clock = new ManualClock(ctx.clock.now());
  const app = await buildApp({
    config,
    database,
    clock,
    hasher: createPasswordHasher({ memoryCost: 1024, timeCost: 1 }),
    load: NEVER_BUSY,
    logger: false,
    distDir: null,
  });
  await app.ready();
  const again: TestContext = { ...ctx, app, clock, config, close: async () => {} };
  cleanups.push(() => stop(again));
  return again;
}

/** Stops an app and its connection, leaving the database file for the next one. */
async function stop(c: TestContext): Promise<void> {
  await c.app.close();
  await c.app.deps.database.close();
}

/** A first process: pays an invoice and stops before it settles. */
async function paidThenStopped(): Promise<{ ctx: TestContext; user: TestUser; invoiceId: string }> {
  const ctx = await createTestApp({ env: { SANDBOX_SETTLE_MS: '60000' } });
  cleanups.push(() => fs.rmSync(ctx.dataDir, { recursive: true, force: true }));
  const user = await makeUser(ctx, { status: 'approved' });
  const res = await ctx.app.inject({ method: 'POST', url: '/api/create-btc-payment-invoice', headers: { cookie: user.cookie }, payload: { amount: '25.00' } });
  expect(res.statusCode, res.body).toBe(200);
  const { invoiceId } = res.json() as { invoiceId: string };
  const paid = await ctx.app.inject({
    method: 'POST',
    url: `/api/sandbox/invoices/${invoiceId}/simulate`,
    headers: { cookie: user.cookie },
    payload: { action: 'pay' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  // Received and Processing delivered (idle() would also wait for the settle timer, 60 s away).
  await vi.waitFor(async () => expect(await deliveries(ctx)).toHaveLength(3));
  await ctx.app.deps.services.payments.drain();
  // A clean stop (Ctrl-C on `npm start`) within the settle delay: the timer goes with the process.
  await ctx.app.close();
  await ctx.app.deps.database.close();
  return { ctx, user, invoiceId };
}

const sandboxRow = (ctx: TestContext, id: string) =>
  ctx.app.deps.db.selectFrom('sandbox_invoices').select(['status', 'paid_cents']).where('id', '=', id).executeTakeFirstOrThrow();
/** The webhooks our endpoint received (the test's only invoice), in the order they came. */
const deliveries = async (ctx: TestContext) =>
  (
    await ctx.app.deps.db
      .selectFrom('webhook_deliveries')
      .select('type')
      .orderBy('received_at')
      .orderBy(sql`rowid`)
      .execute()
  ).map((d) => d.type);
const settled = async (c: TestContext) => {
  await c.app.deps.services.payments.sandbox!.idle();
  await c.app.deps.services.payments.drain();
};
const view = (c: TestContext, u: TestUser, id: string) => c.app.inject({ method: 'GET', url: `/api/sandbox/invoices/${id}`, headers: { cookie: u.cookie } });

describe('a sandbox payment when the server restarts', () => {
  it('an invoice paid just before a restart is settled after it, credited once, and cannot be paid again', async () => {
    const { ctx, user, invoiceId } = await paidThenStopped();
    const b = await openAgain(ctx, 200);
    expect(await sandboxRow(b, invoiceId)).toEqual({ status: 'Processing', paid_cents: 2500 });
    await settled(b);
    expect((await view(b, user, invoiceId)).json().invoice.status).toBe('Settled');
    expect(await sandboxRow(b, invoiceId)).toEqual({ status: 'Settled', paid_cents: 2500 });
    expect(await deliveries(b)).toEqual(['InvoiceCreated', 'InvoiceReceivedPayment', 'InvoiceProcessing', 'InvoicePaymentSettled', 'InvoiceSettled']);
    expect(await usdBalance(b, user.id)).toBe(2500);
    expect(await creditRows(b, invoiceId)).toHaveLength(1);
    expect((await b.app.deps.db.selectFrom('invoices').select('status').where('btcpay_id', '=', invoiceId).executeTakeFirstOrThrow()).status).toBe('Settled');
    const again = await b.app.inject({
      method: 'POST',
      url: `/api/sandbox/invoices/${invoiceId}/simulate`,
      headers: { cookie: user.cookie, origin: b.config.publicUrl },
      payload: { action: 'pay' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('payment.sandbox_invoice_closed');
    expect(await usdBalance(b, user.id)).toBe(2500);
  });

  it('asked about it once it is due, a process settles it then (one started before another took the payment has no timer for it)', async () => {
    const { ctx, user, invoiceId } = await paidThenStopped();
    // Started with a long delay: its own start-up timer would not fire during the test.
    const b = await openAgain(ctx, 600_000);
    expect((await view(b, user, invoiceId)).json().invoice.status).toBe('Processing');
    b.clock.advance(61_000); // past the payer's settle time (60 s after paying)
    expect((await view(b, user, invoiceId)).json().invoice.status).toBe('Settled');
    // Its webhooks go through the delivery queue (idle() would also wait for its 60 s timer).
    await vi.waitFor(async () => {
      await b.app.deps.services.payments.drain();
      expect(await usdBalance(b, user.id)).toBe(2500);
    });
    expect((await deliveries(b)).filter((t) => t === 'InvoiceSettled')).toHaveLength(1);
  });

  it('an invoice left Processing before 0045 (no settle time kept) is settled on the next start, for its whole amount', async () => {
    const { ctx, user, invoiceId } = await paidThenStopped();
    // As the old code left it; then what 0045 does to such a row (its last statement).
    const raw = new Database(path.join(ctx.dataDir, 'xg.sqlite'));
    raw.prepare('UPDATE sandbox_invoices SET settle_at = NULL, settle_cents = NULL WHERE id = ?').run(invoiceId);
    const migration = fs.readFileSync(path.join(MIGRATIONS_DIR, '0045_sandbox_settle_at.sql'), 'utf8');
    raw.exec(migration.slice(migration.lastIndexOf('UPDATE sandbox_invoices')));
    raw.close();
    const b = await openAgain(ctx, 100);
    await settled(b);
    expect(await sandboxRow(b, invoiceId)).toEqual({ status: 'Settled', paid_cents: 2500 });
    expect(await usdBalance(b, user.id)).toBe(2500);
    const body = await b.app.deps.db.selectFrom('webhook_deliveries').select('body').where('type', '=', 'InvoicePaymentSettled').executeTakeFirstOrThrow();
    expect(JSON.parse(body.body!).payment.value).toBe('25.00');
  });

  it('two processes on one database settle it once: one Settled webhook, one credit', async () => {
    const { ctx, user, invoiceId } = await paidThenStopped();
    // Both started after the payment; each scheduled it (60 s on), and both are asked at the same moment once it is due.
    const [b, c] = await Promise.all([openAgain(ctx, 600_000), openAgain(ctx, 600_000)]);
    b.clock.advance(61_000);
    c.clock.advance(61_000);
    const shown = await Promise.all([view(b, user, invoiceId), view(c, user, invoiceId), view(b, user, invoiceId), view(c, user, invoiceId)]);
    expect(shown.map((r) => r.json().invoice.status)).toEqual(['Settled', 'Settled', 'Settled', 'Settled']);
    await vi.waitFor(async () => {
      await Promise.all([b.app.deps.services.payments.drain(), c.app.deps.services.payments.drain()]);
      expect(await usdBalance(b, user.id)).toBe(2500);
    });
    await new Promise((r) => setTimeout(r, 200)); // time for a second sender's webhooks, were there one
    await Promise.all([b.app.deps.services.payments.drain(), c.app.deps.services.payments.drain()]);
    expect(await deliveries(b)).toEqual(['InvoiceCreated', 'InvoiceReceivedPayment', 'InvoiceProcessing', 'InvoicePaymentSettled', 'InvoiceSettled']);
    expect(await creditRows(b, invoiceId)).toHaveLength(1);
    expect(await usdBalance(b, user.id)).toBe(2500);
  });
});
