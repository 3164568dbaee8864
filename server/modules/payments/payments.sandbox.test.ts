import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { connector } from '../realtime/realtime.testkit.ts';
import { loadConfig, ConfigError } from '../../core/config.ts';
import { usdBalance } from './payments.testkit.ts';

let ctx: TestContext;
let user: TestUser;
let base = '';
const sockets = connector(() => base);
beforeEach(async () => {
  ctx = await createTestApp();
  user = await makeUser(ctx, { status: 'approved' });
});
afterEach(async () => {
  sockets.closeAll();
  await ctx.close();
});

const PUBLIC_IP = '203.0.113.7';
const create = async (u: TestUser, amount: number | string = 25) => {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/create-btc-payment-invoice', headers: { cookie: u.cookie }, payload: { amount } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { invoiceId: string; checkoutLink: string };
};
const simulate = (u: TestUser | null, id: string, action: string, opts: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/sandbox/invoices/${id}/simulate`,
    headers: { ...(u ? { cookie: u.cookie } : {}), ...opts.headers },
    payload: { action },
    remoteAddress: opts.remoteAddress,
  });
const view = (u: TestUser, id: string, remoteAddress?: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/sandbox/invoices/${id}`, headers: { cookie: u.cookie }, remoteAddress });
const settle = () => ctx.app.deps.services.payments.sandbox!.idle().then(() => ctx.app.deps.services.payments.drain());

describe('the sandbox payment provider', () => {
  it('is what npm start runs without BTCPay settings, and production refuses it', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/payment-provider' })).json()).toEqual({ mode: 'sandbox' });
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), DATA_DIR: ctx.dataDir })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), DATA_DIR: ctx.dataDir })).toThrow(/sandbox payment provider is refused/);
  });

  it("asked from a Portuguese or Spanish page, links the checkout page in that language (as BTCPay's follows defaultLanguage)", async () => {
    for (const lang of ['pt', 'es'] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/create-btc-payment-invoice',
        headers: { cookie: user.cookie, 'x-locale': lang },
        payload: { amount: 15 },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().checkoutLink).toBe(`${ctx.config.publicUrl}/${lang}/sandbox/checkout/${res.json().invoiceId}`);
    }
  });

  it('creates invoices with a SANDBOX checkout link and delivers signed webhooks to our endpoint; paying credits once, live over the socket', async () => {
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const conn = await sockets.connect({ cookie: user.cookie });
    const { invoiceId, checkoutLink } = await create(user, '12.34');
    expect(checkoutLink).toBe(`${ctx.config.publicUrl}/sandbox/checkout/${invoiceId}`);
    await settle();
    expect(await conn.next()).toEqual({ event: 'invoiceStatusUpdate', data: { type: 'INVOICECREATED', invoiceId, status: 'New' } });
    const res = await simulate(user, invoiceId, 'pay'); // app.inject comes from 127.0.0.1: the developer's own machine
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().invoice).toMatchObject({ invoiceId, amountCents: 1234, canSimulate: true });
    await settle();
    const events = [];
    for (let i = 0; i < 4; i++) events.push(((await conn.next()).data as { type: string; status: string }).type);
    expect(events).toEqual(['INVOICERECEIVEDPAYMENT', 'INVOICEPROCESSING', 'INVOICEPAYMENTSETTLED', 'INVOICESETTLED']);
    expect(await usdBalance(ctx, user.id)).toBe(1234);
    const stored = await ctx.app.deps.db.selectFrom('webhook_deliveries').select(['type', 'outcome']).orderBy('received_at').execute();
    expect(stored.map((d) => d.type)).toEqual(['InvoiceCreated', 'InvoiceReceivedPayment', 'InvoiceProcessing', 'InvoicePaymentSettled', 'InvoiceSettled']);
    expect(stored.filter((d) => d.outcome === 'credited')).toHaveLength(1);
    // A second press: the invoice is no longer open.
    const again = await simulate(user, invoiceId, 'pay');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('payment.sandbox_invoice_closed');
    expect(await usdBalance(ctx, user.id)).toBe(1234);
  });

  // PRODUCT §6: the simulation buttons "work only for staff or from a loopback address (so a public
  // install cannot mint money)". With TRUST_PROXY set, a loopback peer is the operator's proxy
  // relaying visitors, and nginx's plain proxy_pass adds no X-Forwarded-For: no request is local then.
  it('with TRUST_PROXY=1, a provider relayed by a local proxy that adds no header gets 403 and no money; staff still may', async () => {
    await ctx.close();
    ctx = await createTestApp({ env: { TRUST_PROXY: '1' } });
    user = await makeUser(ctx, { status: 'approved' });
    const { invoiceId } = await create(user, 10);
    const res = await simulate(user, invoiceId, 'pay'); // app.inject comes from 127.0.0.1, no forwarding header
    expect([res.statusCode, res.json().code]).toEqual([403, 'payment.sandbox_forbidden']);
    expect((await view(user, invoiceId)).json().invoice.canSimulate).toBe(false);
    await settle();
    expect(await usdBalance(ctx, user.id)).toBe(0);
    const admin = await asAdmin(ctx);
    expect((await simulate(admin, invoiceId, 'pay')).statusCode).toBe(200);
  });

  it('lets nobody from the internet mint money: a provider from a public address (or through a proxy) gets 403; staff may', async () => {
    const { invoiceId } = await create(user);
    const attempts: { remoteAddress?: string; headers?: Record<string, string> }[] = [
      { remoteAddress: PUBLIC_IP },
      { headers: { 'x-forwarded-for': PUBLIC_IP } },
      { headers: { forwarded: `for=${PUBLIC_IP}` } },
    ];
    for (const opts of attempts) {
      const res = await simulate(user, invoiceId, 'pay', opts);
      expect(res.statusCode, JSON.stringify(opts)).toBe(403);
      expect(res.json().code).toBe('payment.sandbox_forbidden');
    }
    expect((await view(user, invoiceId, PUBLIC_IP)).json().invoice.canSimulate).toBe(false);
    await settle();
    expect(await usdBalance(ctx, user.id)).toBe(0);
    const admin = await asAdmin(ctx);
    expect((await view(admin, invoiceId, PUBLIC_IP)).json().invoice.canSimulate).toBe(true);
    expect((await simulate(admin, invoiceId, 'pay', { remoteAddress: PUBLIC_IP })).statusCode).toBe(200);
    await settle();
    expect(await usdBalance(ctx, user.id)).toBe(2500);
    expect(await usdBalance(ctx, admin.id)).toBe(0);
    // Staff settling a test invoice is audited; the provider's own refused tries wrote nothing.
    const audit = await ctx.app.deps.db
      .selectFrom('audit_log')
      .select(['actor_id', 'action', 'target_id', 'after_json'])
      .where('action', '=', 'invoice.simulate')
      .execute();
    expect(audit).toEqual([
      {
        actor_id: admin.id,
        action: 'invoice.simulate',
        target_id: invoiceId,
        after_json: JSON.stringify({ action: 'pay', userId: user.id, amountCents: 2500 }),
      },
    ]);
  });

  it('a provider settling their own test invoice from this machine (development) writes no audit entry', async () => {
    const { invoiceId } = await create(user);
    expect((await simulate(user, invoiceId, 'pay', { remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
    await settle();
    expect(await usdBalance(ctx, user.id)).toBe(2500);
    expect(await ctx.app.deps.db.selectFrom('audit_log').select('action').where('action', '=', 'invoice.simulate').execute()).toEqual([]);
  });

  it("hides another user's invoice (404), even from the loopback", async () => {
    const { invoiceId } = await create(user);
    const other = await makeUser(ctx, { status: 'approved' });
    expect((await view(other, invoiceId)).statusCode).toBe(404);
    const res = await simulate(other, invoiceId, 'pay');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('payment.invoice_not_found');
    expect((await simulate(null, invoiceId, 'pay')).statusCode).toBe(401);
    await settle();
    expect(await usdBalance(ctx, user.id)).toBe(0);
  });

  it('simulates a partial payment (nothing credited, PaidPartial) and then expiry (Expired, nothing credited)', async () => {
    const { invoiceId } = await create(user, 40);
    expect((await simulate(user, invoiceId, 'partial')).json().invoice).toMatchObject({ status: 'New', additionalStatus: 'PaidPartial' });
    await settle();
    expect((await simulate(user, invoiceId, 'expire')).json().invoice).toMatchObject({ status: 'Expired', additionalStatus: 'PaidPartial' });
    await settle();
    expect(await usdBalance(ctx, user.id)).toBe(0);
    const mine = await ctx.app.inject({ method: 'GET', url: '/api/my-invoices', headers: { cookie: user.cookie } });
    expect(mine.json().invoices[0]).toMatchObject({ invoiceId, status: 'Expired', additionalStatus: 'PaidPartial', creditedAt: null });
    expect((await simulate(user, invoiceId, 'pay')).statusCode).toBe(409);
  });

  it('an unpaid sandbox invoice expires with time; reconciliation records it', async () => {
    const { invoiceId } = await create(user);
    await settle();
    ctx.clock.advance(31 * 60 * 1000);
    expect((await view(user, invoiceId)).json().invoice.status).toBe('Expired');
    await ctx.app.deps.services.payments.reconcile();
    const mine = await ctx.app.inject({ method: 'GET', url: '/api/my-invoices', headers: { cookie: user.cookie } });
    expect(mine.json().invoices[0].status).toBe('Expired');
  });

  it('answers the payment server health as sandbox', async () => {
    const admin = await asAdmin(ctx);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-btcpayserver-health', headers: { cookie: admin.cookie } });
    expect(res.json()).toMatchObject({ mode: 'sandbox', reachable: true, synchronized: true, version: 'sandbox', webhookRegistered: true });
    expect(res.json().message).toMatch(/^Sandbox mode/);
  });
});
