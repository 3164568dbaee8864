import { expect } from 'vitest';
import { createTestApp, makeUser, rawInject, type TestContext, type TestUser } from '../../test/harness.ts';
import { FakeBtcpay, type Delivery } from '../../test/fakes/btcpay.ts';

// Shared by the payments test files: an app wired to a fake BTCPay Server, a provider with a USD
// wallet, and the calls every test makes.

export const WEBHOOK_SECRET = 'test-webhook-secret-for-btcpay';

export interface PayWorld {
  ctx: TestContext;
  fake: FakeBtcpay;
  user: TestUser;
  close(): Promise<void>;
}

export async function btcpayWorld(env: Record<string, string> = {}): Promise<PayWorld> {
  const fake = await new FakeBtcpay().start();
  const ctx = await createTestApp({ env: btcpayEnv(fake, env) });
  fake.now = () => ctx.clock.now().getTime();
  const user = await makeUser(ctx, { status: 'approved' });
  return {
    ctx,
    fake,
    user,
    async close() {
      await ctx.close();
      await fake.stop();
    },
  };
}

export const btcpayEnv = (fake: FakeBtcpay, env: Record<string, string> = {}) => ({
  BTCPAY_URL: fake.url,
  BTCPAY_STORE_ID: fake.storeId,
  BTCPAY_API_KEY: fake.apiKey,
  BTCPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
  ...env,
});

export async function createInvoice(ctx: TestContext, u: TestUser, amount: number | string = 25): Promise<string> {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/create-btc-payment-invoice', headers: { cookie: u.cookie }, payload: { amount } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().invoiceId as string;
}

/** Posts a delivery exactly as BTCPay does (no browser headers), and waits until it is processed. */
export async function deliver(ctx: TestContext, d: Delivery, opts: { wait?: boolean } = {}) {
  const res = await rawInject(ctx.app, {
    method: 'POST',
    url: '/api/webhooks/btcpay',
    headers: { 'content-type': 'application/json', 'btcpay-sig': d.signature, 'user-agent': 'BTCPayServer/2.4' },
    payload: d.body,
  });
  if (opts.wait !== false) await ctx.app.deps.services.payments.drain();
  return res;
}

export async function usdBalance(ctx: TestContext, userId: string): Promise<number> {
  const w = await ctx.app.deps.db
    .selectFrom('wallets')
    .select('balance_cents')
    .where('user_id', '=', userId)
    .where('wallet_type', '=', 'USD')
    .executeTakeFirstOrThrow();
  return w.balance_cents;
}

export async function creditRows(ctx: TestContext, invoiceId: string) {
  return ctx.app.deps.db.selectFrom('ledger_entries').selectAll().where('kind', '=', 'invoice_credit').where('reference', '=', invoiceId).execute();
}
