import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { makeUser, asAdmin } from '../../test/harness.ts';
import { ledgerDiscrepancies } from '../wallets/ledger.service.ts';
import { signBody } from './sandbox.ts';
import { btcpayWorld, createInvoice, creditRows, deliver, usdBalance, WEBHOOK_SECRET, type PayWorld } from './payments.testkit.ts';

let w: PayWorld;
beforeEach(async () => {
  w = await btcpayWorld();
});
afterEach(async () => w.close());

const ev = (id: string, type: string, opts: Parameters<PayWorld['fake']['event']>[2] extends infer O ? Partial<O> : never = {}) =>
  w.fake.event(id, type, { secret: WEBHOOK_SECRET, ...opts });
const invoiceRow = (btcpayId: string) => w.ctx.app.deps.db.selectFrom('invoices').selectAll().where('btcpay_id', '=', btcpayId).executeTakeFirstOrThrow();
const deliveries = () => w.ctx.app.deps.db.selectFrom('webhook_deliveries').selectAll().execute();

describe('the webhook signature', () => {
  it('matches the known answer of INTEGRATIONS.md, and is HMAC-SHA256 over the exact bytes', () => {
    expect(signBody('secret', '{}')).toBe('sha256=77325902caca812dc259733aacd046b73817372c777b8d95b402647474516e13');
    const body = '{\n  "type": "InvoiceSettled"\n}';
    expect(signBody('s3', body)).toBe(`sha256=${createHmac('sha256', 's3').update(body).digest('hex')}`);
  });

  it('refuses a missing, wrong or re-serialised signature with 401 and changes nothing', async () => {
    const id = await createInvoice(w.ctx, w.user);
    w.fake.set(id, 'Settled');
    const d = ev(id, 'InvoiceSettled');
    const before = await deliveries();
    const cases = [
      { 'btcpay-sig': undefined },
      { 'btcpay-sig': 'sha256=' + '0'.repeat(64) },
      { 'btcpay-sig': signBody('another-secret', d.body) },
      // the same JSON without BTCPay's indentation: a different byte string, so a different signature
      { 'btcpay-sig': signBody(WEBHOOK_SECRET, JSON.stringify(JSON.parse(d.body))) },
      { 'btcpay-sig': d.signature.slice(0, -1) },
    ];
    for (const c of cases) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (c['btcpay-sig']) headers['btcpay-sig'] = c['btcpay-sig'];
      const res = await w.ctx.app.inject({ method: 'POST', url: '/api/webhooks/btcpay', headers, payload: d.body });
      expect(res.statusCode, c['btcpay-sig']).toBe(401);
      expect(res.json().code).toBe('payment.webhook_signature_invalid');
    }
    await w.ctx.app.deps.services.payments.drain();
    expect(await deliveries()).toEqual(before);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(0);
  });

  it('takes a body sent as application/json; charset=utf-8', async () => {
    const id = await createInvoice(w.ctx, w.user);
    const d = ev(id, 'InvoiceCreated');
    const res = await w.ctx.app.inject({
      method: 'POST',
      url: '/api/webhooks/btcpay',
      headers: { 'content-type': 'application/json; charset=utf-8', 'btcpay-sig': d.signature },
      payload: d.body,
    });
    expect(res.statusCode, res.body).toBe(200);
    await w.ctx.app.deps.services.payments.drain();
    expect(await deliveries()).toHaveLength(1);
  });

  it('takes a signature in upper case hex the same (BTCPay sends lower case; the value is what counts)', async () => {
    const id = await createInvoice(w.ctx, w.user);
    const d = ev(id, 'InvoiceCreated');
    const res = await deliver(w.ctx, { ...d, signature: 'sha256=' + d.signature.slice(7).toUpperCase() });
    expect(res.statusCode).toBe(200);
  });
});

describe('creating an invoice', () => {
  it('asks BTCPay for a USD invoice with the amount as a decimal string, our metadata and a 30-minute checkout back to the wallet', async () => {
    const res = await w.ctx.app.inject({
      method: 'POST',
      url: '/api/create-btc-payment-invoice',
      headers: { cookie: w.user.cookie, 'x-locale': 'pt' },
      payload: { amount: 25.5 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { invoiceId, checkoutLink } = res.json();
    const sent = w.fake.requests.find((r) => r.method === 'POST' && r.url.endsWith('/invoices'))!;
    expect(sent.auth).toBe(`token ${w.fake.apiKey}`);
    const wallet = await w.ctx.app.deps.db.selectFrom('wallets').select('id').where('user_id', '=', w.user.id).executeTakeFirstOrThrow();
    const row = await invoiceRow(invoiceId);
    expect(sent.body).toEqual({
      amount: '25.50',
      currency: 'USD',
      metadata: { orderId: row.id, userId: w.user.id, walletId: wallet.id },
      // The checkout page and the way back in the payer's language (this payer asked in Portuguese).
      // No tolerance: a store-wide one in BTCPay would settle an underpaid invoice we credit in full.
      checkout: {
        speedPolicy: 'MediumSpeed',
        expirationMinutes: 30,
        paymentTolerance: 0,
        defaultLanguage: 'pt-BR',
        redirectURL: `${w.ctx.config.publicUrl}/pt/admin/dashboard/my-wallet`,
      },
    });
    expect(invoiceId).toBe(w.fake.invoice(invoiceId).id);
    expect(checkoutLink).toBe(`${w.fake.url}/i/${invoiceId}`);
    expect(row).toMatchObject({ user_id: w.user.id, wallet_id: wallet.id, amount_cents: 2550, status: 'New', checkout_link: checkoutLink, locale: 'pt' });
    expect(row.expires_at).toBe(new Date(w.fake.invoice(invoiceId).expirationTime * 1000).toISOString());
    const mine = await w.ctx.app.inject({ method: 'GET', url: '/api/my-invoices', headers: { cookie: w.user.cookie } });
    expect(mine.json()).toMatchObject({ total: 1, invoices: [{ invoiceId, amountCents: 2550, status: 'New', creditedAt: null }] });
  });

  it('refuses amounts outside 10.00–1,000.00 or with more than two decimals, before asking BTCPay', async () => {
    for (const amount of [9.99, 1000.01, 10.001, '10.001', 0, -10, '1e3', '', 'ten', 1e21, '10,00', ' 10', '0x10']) {
      const res = await w.ctx.app.inject({ method: 'POST', url: '/api/create-btc-payment-invoice', headers: { cookie: w.user.cookie }, payload: { amount } });
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'payment.amount_invalid', params: { field: 'amount' } });
    }
    for (const [amount, cents] of [
      [10, 1000],
      ['1000.00', 100000],
      ['19.99', 1999],
      [19.99, 1999],
      ['10.000', 1000],
    ] as const) {
      const id = await createInvoice(w.ctx, await makeUser(w.ctx), amount);
      expect((await invoiceRow(id)).amount_cents, String(amount)).toBe(cents);
    }
    expect(w.fake.invoices.size).toBe(5);
    const extra = await w.ctx.app.inject({
      method: 'POST',
      url: '/api/create-btc-payment-invoice',
      headers: { cookie: w.user.cookie },
      payload: { amount: 20, userId: 'x' },
    });
    expect(extra.statusCode).toBe(400);
  });

  it('allows five open invoices per user; the sixth is a 409 until one is paid or expires', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await createInvoice(w.ctx, w.user, 10 + i));
    const sixth = await w.ctx.app.inject({
      method: 'POST',
      url: '/api/create-btc-payment-invoice',
      headers: { cookie: w.user.cookie },
      payload: { amount: 50 },
    });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json()).toMatchObject({ code: 'payment.too_many_open_invoices', params: { max: 5 } });
    expect(w.fake.invoices.size).toBe(5);
    // Another user is not held back by this one.
    await createInvoice(w.ctx, await makeUser(w.ctx));
    // One expires: a place frees up.
    w.ctx.clock.advance(31 * 60 * 1000);
    await createInvoice(w.ctx, w.user);
  });

  it("turns BTCPay's 422 into a 400 with our reason (payments.refusal.test.ts), and an unreachable server into a 502; nothing is left behind", async () => {
    w.fake.rejectNextCreate = 'Amount is below the store minimum';
    const refused = await w.ctx.app.inject({
      method: 'POST',
      url: '/api/create-btc-payment-invoice',
      headers: { cookie: w.user.cookie },
      payload: { amount: 20 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      code: 'payment.server_rejected',
      message: 'The payment server refused the invoice: it does not accept this amount. Try another amount.',
      params: { rule: 'payment_amount', reason: 'it does not accept this amount. Try another amount.' },
    });
    w.fake.failWith = 503;
    const down = await w.ctx.app.inject({
      method: 'POST',
      url: '/api/create-btc-payment-invoice',
      headers: { cookie: w.user.cookie },
      payload: { amount: 20 },
    });
    expect(down.statusCode).toBe(502);
    expect(down.json().code).toBe('payment.server_unavailable');
    w.fake.failWith = null;
    await w.fake.stop();
    const gone = await w.ctx.app.inject({
      method: 'POST',
      url: '/api/create-btc-payment-invoice',
      headers: { cookie: w.user.cookie },
      payload: { amount: 20 },
    });
    expect(gone.statusCode).toBe(502);
    expect(await w.ctx.app.deps.db.selectFrom('invoices').selectAll().execute()).toEqual([]);
  });
});

describe('settling', () => {
  it('credits the USD wallet once on InvoiceSettled, after the re-read says Settled, and e-mails a receipt in the page language', async () => {
    const res = await w.ctx.app.inject({
      method: 'POST',
      url: '/api/create-btc-payment-invoice',
      headers: { cookie: w.user.cookie, 'accept-language': 'es-MX,es;q=0.9' },
      payload: { amount: '42.10' },
    });
    const id = res.json().invoiceId as string;
    for (const type of ['InvoiceCreated', 'InvoiceReceivedPayment', 'InvoiceProcessing'] as const) {
      if (type !== 'InvoiceCreated') w.fake.set(id, 'Processing');
      expect((await deliver(w.ctx, ev(id, type))).statusCode).toBe(200);
      expect(await usdBalance(w.ctx, w.user.id)).toBe(0);
    }
    expect((await invoiceRow(id)).status).toBe('Processing');
    w.fake.set(id, 'Settled');
    await deliver(w.ctx, ev(id, 'InvoicePaymentSettled'));
    const settled = await deliver(w.ctx, ev(id, 'InvoiceSettled'));
    expect(settled.statusCode).toBe(200);
    expect(settled.json()).toEqual({ received: true });
    expect(await usdBalance(w.ctx, w.user.id)).toBe(4210);
    expect(await creditRows(w.ctx, id)).toHaveLength(1);
    expect((await invoiceRow(id)).credited_at).not.toBeNull();
    expect(w.ctx.mailer.sent.filter((m) => m.to === w.user.email)).toHaveLength(1);
    const mail = w.ctx.mailer.sent.find((m) => m.to === w.user.email)!;
    expect(mail.subject).toBe('Tu billetera fue recargada: 42,10\u00a0US$'); // written the Spanish way, as the wallet page does
    expect(mail.text).toContain(id);
    expect(mail.html).toContain('42,10');
    expect(await ledgerDiscrepancies(w.ctx.app.deps.db)).toEqual([]);
    // Processing arrived after PaymentSettled? Irrelevant: every delivery is stored once and processed.
    expect((await deliveries()).map((d) => [d.type, d.outcome])).toEqual([
      ['InvoiceCreated', 'no_change'],
      ['InvoiceReceivedPayment', 'status_changed'],
      ['InvoiceProcessing', 'no_change'],
      ['InvoicePaymentSettled', 'credited'],
      ['InvoiceSettled', 'already_credited'],
    ]);
  });

  it('stores a redelivery (new deliveryId, same originalDeliveryId) once and credits once', async () => {
    const id = await createInvoice(w.ctx, w.user);
    w.fake.set(id, 'Settled');
    const first = ev(id, 'InvoiceSettled');
    const again = ev(id, 'InvoiceSettled', { originalDeliveryId: first.originalDeliveryId });
    expect(JSON.parse(again.body)).toMatchObject({ isRedelivery: true, originalDeliveryId: first.deliveryId });
    expect(again.deliveryId).not.toBe(first.deliveryId);
    expect((await deliver(w.ctx, first)).statusCode).toBe(200);
    expect((await deliver(w.ctx, again)).statusCode).toBe(200);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(2500);
    const rows = await deliveries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ original_delivery_id: first.deliveryId, delivery_id: again.deliveryId, redeliveries: 1, outcome: 'credited' });
  });

  it('credits once for 20 identical Settled deliveries at once, and for 20 distinct ones', async () => {
    const id = await createInvoice(w.ctx, w.user, 30);
    w.fake.set(id, 'Settled');
    const d = ev(id, 'InvoiceSettled');
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(w.ctx, d, { wait: false })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const distinct = await Promise.all(Array.from({ length: 20 }, () => deliver(w.ctx, ev(id, 'InvoiceSettled'), { wait: false })));
    expect(distinct.every((a) => a.statusCode === 200)).toBe(true);
    await w.ctx.app.deps.services.payments.drain();
    expect(await usdBalance(w.ctx, w.user.id)).toBe(3000);
    expect(await creditRows(w.ctx, id)).toHaveLength(1);
    expect(await deliveries()).toHaveLength(21);
    expect(w.ctx.mailer.sent.filter((m) => m.to === w.user.email)).toHaveLength(1);
  });

  it("works in Lightning's order: PaymentSettled before ReceivedPayment", async () => {
    const id = await createInvoice(w.ctx, w.user, 15);
    w.fake.set(id, 'Settled');
    await deliver(
      w.ctx,
      ev(id, 'InvoicePaymentSettled', {
        extra: {
          afterExpiration: false,
          paymentMethodId: 'BTC-LN',
          payment: { id: 'ln1', receivedDate: 1, value: '0.0002', fee: '0', status: 'Settled', destination: 'lnbc1' },
        },
      }),
    );
    await deliver(w.ctx, ev(id, 'InvoiceReceivedPayment'));
    await deliver(w.ctx, ev(id, 'InvoiceSettled'));
    expect(await usdBalance(w.ctx, w.user.id)).toBe(1500);
    expect(await creditRows(w.ctx, id)).toHaveLength(1);
  });

  it('credits an expired invoice only when staff mark it settled in BTCPay (manuallyMarked)', async () => {
    const id = await createInvoice(w.ctx, w.user, 12);
    w.fake.set(id, 'Expired', 'PaidPartial');
    await deliver(w.ctx, ev(id, 'InvoiceExpired', { extra: { partiallyPaid: true } }));
    await deliver(w.ctx, ev(id, 'InvoicePaidAfterExpiration'));
    expect(await usdBalance(w.ctx, w.user.id)).toBe(0);
    expect((await invoiceRow(id)).status).toBe('Expired');
    w.fake.set(id, 'Settled', 'Marked');
    await deliver(w.ctx, ev(id, 'InvoiceSettled', { extra: { manuallyMarked: true, overPaid: false } }));
    expect(await usdBalance(w.ctx, w.user.id)).toBe(1200);
    expect(await invoiceRow(id)).toMatchObject({ status: 'Settled', additional_status: 'Marked' });
  });

  it('credits nothing for a Settled delivery when the re-read says Expired, Invalid, or New', async () => {
    for (const [status, extra] of [
      ['Expired', 'None'],
      ['Expired', 'PaidLate'],
      ['Invalid', 'None'],
      ['New', 'PaidPartial'],
      ['Processing', 'None'],
    ] as const) {
      const u = await makeUser(w.ctx);
      const id = await createInvoice(w.ctx, u, 20);
      w.fake.set(id, status, extra);
      expect((await deliver(w.ctx, ev(id, 'InvoiceSettled'))).statusCode).toBe(200);
      expect(await usdBalance(w.ctx, u.id), `${status}/${extra}`).toBe(0);
      expect(await invoiceRow(id)).toMatchObject({ status, additional_status: extra, credited_at: null });
    }
    expect(await w.ctx.app.deps.db.selectFrom('ledger_entries').selectAll().where('kind', '=', 'invoice_credit').execute()).toEqual([]);
  });

  it('refuses to credit when BTCPay describes the invoice with another amount or currency', async () => {
    const id = await createInvoice(w.ctx, w.user, 20);
    Object.assign(w.fake.invoice(id), { status: 'Settled', amount: '2000' });
    await deliver(w.ctx, ev(id, 'InvoiceSettled'));
    expect(await usdBalance(w.ctx, w.user.id)).toBe(0);
    expect((await deliveries())[0].outcome).toBe('refused_mismatch');
  });

  it('answers 200 and changes nothing for unknown event types, unknown invoices and other stores', async () => {
    const id = await createInvoice(w.ctx, w.user);
    w.fake.set(id, 'Settled');
    const before = JSON.stringify(await w.ctx.app.deps.db.selectFrom('invoices').selectAll().execute());
    for (const d of [ev(id, 'PayoutCreated'), ev(id, 'InvoiceSettled', { storeId: 'another-store' })]) {
      expect((await deliver(w.ctx, d)).statusCode).toBe(200);
    }
    w.fake.invoices.set('UnknownInvoice1', { ...w.fake.invoice(id), id: 'UnknownInvoice1', metadata: { orderId: 'not-ours' } });
    expect((await deliver(w.ctx, ev('UnknownInvoice1', 'InvoiceSettled'))).statusCode).toBe(200);
    expect(await deliveries()).toEqual([]);
    expect(JSON.stringify(await w.ctx.app.deps.db.selectFrom('invoices').selectAll().execute())).toBe(before);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(0);
    const garbage = signBody(WEBHOOK_SECRET, 'not json');
    const bad = await w.ctx.app.inject({
      method: 'POST',
      url: '/api/webhooks/btcpay',
      headers: { 'content-type': 'application/json', 'btcpay-sig': garbage },
      payload: 'not json',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('payment.webhook_malformed');
  });
});

describe('nothing lost', () => {
  it('recovers a lost webhook: reconcile-invoices reads the settled invoice and credits it once', async () => {
    const id = await createInvoice(w.ctx, w.user, 18);
    w.fake.set(id, 'Settled');
    const report = (await w.ctx.app.deps.services.payments.reconcile()).message;
    expect(report).toContain('1 credited');
    expect(await usdBalance(w.ctx, w.user.id)).toBe(1800);
    await w.ctx.app.deps.services.payments.reconcile();
    // The delivery that arrives late changes nothing.
    await deliver(w.ctx, ev(id, 'InvoiceSettled'));
    expect(await usdBalance(w.ctx, w.user.id)).toBe(1800);
    expect(await creditRows(w.ctx, id)).toHaveLength(1);
    expect((await deliveries()).map((d) => [d.type, d.outcome])).toEqual([
      ['Reconciled', 'credited'],
      ['InvoiceSettled', 'already_credited'],
    ]);
  });

  it('keeps a delivery that could not be processed (BTCPay down for the re-read) and processes it when BTCPay is back', async () => {
    const id = await createInvoice(w.ctx, w.user, 22);
    w.fake.set(id, 'Settled');
    w.fake.failWith = 503;
    expect((await deliver(w.ctx, ev(id, 'InvoiceSettled'))).statusCode).toBe(200);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(0);
    expect((await deliveries())[0]).toMatchObject({ processed_at: null, attempts: 1 });
    expect((await w.ctx.app.deps.services.payments.reconcile()).message).toContain('payment server unreachable');
    w.fake.failWith = null;
    await w.ctx.app.deps.services.payments.reconcile();
    expect(await usdBalance(w.ctx, w.user.id)).toBe(2200);
    expect((await deliveries())[0]).toMatchObject({ outcome: 'credited' });
  });

  it('expire-invoices closes what BTCPay expired long ago; reconcile leaves expired invoices alone after a day', async () => {
    const id = await createInvoice(w.ctx, w.user);
    w.fake.set(id, 'Expired');
    w.ctx.clock.advance(3 * 24 * 3600 * 1000);
    expect((await w.ctx.app.deps.services.payments.reconcile()).message).toContain('0 invoice(s) checked');
    expect((await w.ctx.app.deps.services.payments.reconcile({ expired: true })).message).toContain('1 status_changed');
    expect((await invoiceRow(id)).status).toBe('Expired');
  });

  it('recovers an invoice BTCPay created when the answer never reached us (found by its order id)', async () => {
    const id = await createInvoice(w.ctx, w.user, 33);
    const row = await invoiceRow(id);
    // As if we crashed between BTCPay's answer and storing it.
    await w.ctx.app.deps.db.updateTable('invoices').set({ btcpay_id: null, status: 'Creating', checkout_link: null }).where('id', '=', row.id).execute();
    w.fake.set(id, 'Settled');
    w.ctx.clock.advance(3 * 60 * 1000);
    expect((await w.ctx.app.deps.services.payments.reconcile()).message).toContain('1 interrupted creation(s) recovered');
    expect(await invoiceRow(id)).toMatchObject({ id: row.id, status: 'Settled' });
    expect(await usdBalance(w.ctx, w.user.id)).toBe(3300);
  });
});

describe('reads', () => {
  it("lists the user's transactions newest first with the balance after each; another user's wallet is a 404", async () => {
    const id = await createInvoice(w.ctx, w.user, 40);
    w.fake.set(id, 'Settled');
    await deliver(w.ctx, ev(id, 'InvoiceSettled'));
    const id2 = await createInvoice(w.ctx, w.user, 10);
    w.fake.set(id2, 'Settled');
    await deliver(w.ctx, ev(id2, 'InvoiceSettled'));
    const res = await w.ctx.app.inject({ method: 'GET', url: '/api/wallet-transactions?pageSize=1&page=1', headers: { cookie: w.user.cookie } });
    expect(res.json()).toMatchObject({
      total: 2,
      page: 1,
      pageSize: 1,
      transactions: [{ kind: 'invoice_credit', amountCents: 1000, balanceAfterCents: 5000, reference: id2, walletType: 'USD' }],
    });
    const p2 = await w.ctx.app.inject({ method: 'GET', url: '/api/wallet-transactions?pageSize=1&page=2', headers: { cookie: w.user.cookie } });
    expect(p2.json().transactions[0]).toMatchObject({ amountCents: 4000, balanceAfterCents: 4000, reference: id });
    const other = await makeUser(w.ctx);
    const theirs = await w.ctx.app.inject({
      method: 'GET',
      url: `/api/wallet-transactions?walletId=${res.json().transactions[0].walletId}`,
      headers: { cookie: other.cookie },
    });
    expect(theirs.statusCode).toBe(404);
    const empty = await w.ctx.app.inject({ method: 'GET', url: '/api/wallet-transactions', headers: { cookie: other.cookie } });
    expect(empty.json()).toMatchObject({ total: 0, transactions: [] });
    expect((await w.ctx.app.inject({ method: 'GET', url: '/api/my-invoices', headers: { cookie: other.cookie } })).json().total).toBe(0);
  });

  it('gives staff the invoices with their events, searchable by e-mail and invoice id', async () => {
    const admin = await asAdmin(w.ctx);
    const id = await createInvoice(w.ctx, w.user, 40);
    await deliver(w.ctx, ev(id, 'InvoiceCreated'));
    await createInvoice(w.ctx, await makeUser(w.ctx));
    const all = await w.ctx.app.inject({ method: 'GET', url: '/api/admin/get-invoices', headers: { cookie: admin.cookie } });
    expect(all.json().total).toBe(2);
    for (const query of [w.user.email.toUpperCase(), id, w.user.id]) {
      const res = await w.ctx.app.inject({
        method: 'GET',
        url: `/api/admin/get-invoices?query=${encodeURIComponent(query)}`,
        headers: { cookie: admin.cookie },
      });
      expect(res.json(), query).toMatchObject({
        total: 1,
        invoices: [{ invoiceId: id, userEmail: w.user.email, events: [{ type: 'InvoiceCreated', status: 'New', outcome: 'no_change' }] }],
      });
    }
    const settled = await w.ctx.app.inject({ method: 'GET', url: '/api/admin/get-invoices?status=Settled', headers: { cookie: admin.cookie } });
    expect(settled.json().total).toBe(0);
  });

  it("reports the payment server's health: reachable, synchronized, webhook registered or not, unreachable", async () => {
    const admin = await asAdmin(w.ctx);
    const get = async () => (await w.ctx.app.inject({ method: 'GET', url: '/api/admin/get-btcpayserver-health', headers: { cookie: admin.cookie } })).json();
    expect(await get()).toMatchObject({
      mode: 'btcpay',
      reachable: true,
      synchronized: true,
      version: '2.4.1',
      storeId: w.fake.storeId,
      webhookRegistered: false,
      openInvoices: 0,
    });
    expect((await get()).message).toContain('npm run btcpay:connect');
    w.fake.webhooks.push({
      id: 'w1',
      enabled: true,
      automaticRedelivery: true,
      url: `${w.ctx.config.publicUrl}/api/webhooks/btcpay`,
      authorizedEvents: { everything: true, specificEvents: [] },
    });
    const id = await createInvoice(w.ctx, w.user);
    await deliver(w.ctx, ev(id, 'InvoiceCreated'));
    expect(await get()).toMatchObject({ webhookRegistered: true, openInvoices: 1, message: 'ok', lastWebhookAt: w.ctx.clock.now().toISOString() });
    w.fake.synchronized = false;
    expect(await get()).toMatchObject({ reachable: true, synchronized: false });
    await w.fake.stop();
    expect(await get()).toMatchObject({ reachable: false, synchronized: false, webhookRegistered: false });
  });
});

describe('an invoice BTCPay takes back from Processing to New', () => {
  it('(a payment stopped counting: BTCPay sends no webhook) reconciliation tells the owner, so the wallet shows it payable again', async () => {
    const sent: { type: string; status: string }[] = [];
    const hub = w.ctx.app.deps.hub;
    const send = hub.sendToUser.bind(hub);
    hub.sendToUser = ((userId: string, event: 'invoiceStatusUpdate', data: { type: string; invoiceId: string; status: string }) => {
      if (event === 'invoiceStatusUpdate') sent.push({ type: data.type, status: data.status });
      return send(userId, event, data);
    }) as typeof hub.sendToUser;
    const id = await createInvoice(w.ctx, w.user, 25);
    w.fake.set(id, 'Processing');
    await deliver(w.ctx, w.fake.event(id, 'InvoiceProcessing', { secret: WEBHOOK_SECRET }));
    w.fake.set(id, 'New', 'PaidPartial'); // replaced by a fee bump, or double-spent
    expect((await w.ctx.app.deps.services.payments.reconcile()).message).toContain('1 status_changed');
    expect(sent.at(-1)).toEqual({ type: 'INVOICESTATUSCHANGED', status: 'New' });
    const mine = await w.ctx.app.inject({ method: 'GET', url: '/api/my-invoices', headers: { cookie: w.user.cookie } });
    expect(mine.json().invoices[0]).toMatchObject({ status: 'New', additionalStatus: 'PaidPartial' });
  });
});

describe('an invoice staff mark Settled, then Invalid', () => {
  it('keeps its credit (it may be spent) and says so: logged, and audited for staff to decide', async () => {
    const id = await createInvoice(w.ctx, w.user, 50);
    w.fake.set(id, 'Settled', 'Marked');
    await deliver(w.ctx, ev(id, 'InvoiceSettled', { extra: { manuallyMarked: true, overPaid: false } }));
    expect(await usdBalance(w.ctx, w.user.id)).toBe(5000);
    w.fake.set(id, 'Invalid', 'Marked');
    await deliver(w.ctx, ev(id, 'InvoiceInvalid', { extra: { manuallyMarked: true } }));
    expect((await invoiceRow(id)).status).toBe('Invalid');
    expect(await usdBalance(w.ctx, w.user.id)).toBe(5000);
    const audit = await w.ctx.app.deps.db
      .selectFrom('audit_log')
      .select(['actor_id', 'action', 'target_id', 'after_json'])
      .where('action', '=', 'invoice.unsettled_after_credit')
      .execute();
    expect(audit).toEqual([
      {
        actor_id: null,
        action: 'invoice.unsettled_after_credit',
        target_id: id,
        after_json: JSON.stringify({ status: 'Invalid', additionalStatus: 'Marked', userId: w.user.id, amountCents: 5000 }),
      },
    ]);
  });
});

describe('an invoice paid after its owner deleted the account', () => {
  // The Bitcoin arrives in a wallet nobody can reach any more (the ledger keeps it, once): no
  // receipt goes to the erased address, and staff see it in the audit, to refund it by hand.
  it('is credited once, mails nobody, and is audited for staff', async () => {
    const id = await createInvoice(w.ctx, w.user, 30);
    const erased = await w.ctx.app.inject({
      method: 'DELETE',
      url: '/api/delete-my-profile?confirm=true',
      payload: { password: w.user.password },
      headers: { cookie: w.user.cookie },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const mailsBefore = w.ctx.mailer.sent.length;
    w.fake.set(id, 'Settled');
    expect((await deliver(w.ctx, ev(id, 'InvoiceSettled'))).statusCode).toBe(200);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(3000);
    expect(await creditRows(w.ctx, id)).toHaveLength(1);
    expect(w.ctx.mailer.sent.length).toBe(mailsBefore);
    const audit = await w.ctx.app.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'invoice.credited_after_deletion').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: null, target_type: 'invoice', target_id: id });
    expect(JSON.parse(audit[0].after_json!)).toMatchObject({ userId: w.user.id, amountCents: 3000 });
    // A second delivery of the same settlement credits and audits nothing more.
    expect((await deliver(w.ctx, ev(id, 'InvoiceSettled'))).statusCode).toBe(200);
    expect(await creditRows(w.ctx, id)).toHaveLength(1);
    expect(await w.ctx.app.deps.db.selectFrom('audit_log').select('id').where('action', '=', 'invoice.credited_after_deletion').execute()).toHaveLength(1);
  });
});
