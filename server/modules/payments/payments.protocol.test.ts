import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser } from '../../test/harness.ts';
import { FakeBtcpay } from '../../test/fakes/btcpay.ts';
import { startSmtpSink } from '../../test/fakes/smtp.ts';
import { ledgerDiscrepancies } from '../wallets/ledger.service.ts';
import { currentPhase } from '../../../src/state/payments.ts';
import { btcpayEnv, btcpayWorld, createInvoice, deliver, usdBalance, WEBHOOK_SECRET, type PayWorld } from './payments.testkit.ts';

// Bitcoin top-ups against BTCPay Server's protocol (INTEGRATIONS.md): what the wallet says of a
// late payment, events about reads that were not applied, reads that arrive after newer ones,
// invoices BTCPay fails on, and receipts kept out of the delivery queue.

/**
 * A real HTTP hop between the app and the fake BTCPay: it can hold one invoice read that BTCPay has
 * already answered (a slow link), answer 500 for given invoices (BTCPay failing on one invoice
 * while answering the others), or drop every connection (BTCPay down).
 */
class Link {
  server!: http.Server;
  url = '';
  readonly failing = new Set<string>();
  /** BTCPay down: every connection is dropped unanswered. */
  down = false;
  private holdNext = false;
  private release: (() => void) | null = null;
  private onCaptured!: (body: string) => void;
  captured: Promise<string> = new Promise((r) => (this.onCaptured = r));
  private readonly upstream: () => string;
  constructor(upstream: () => string) {
    this.upstream = upstream;
  }
  holdNextInvoiceRead() {
    this.holdNext = true;
  }
  releaseHeld() {
    this.release?.();
  }
  async start() {
    this.server = http.createServer((req, res) => {
      if (this.down) {
        req.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const read = req.method === 'GET' ? /\/invoices\/([^/?]+)$/.exec(req.url ?? '') : null;
          if (read && this.failing.has(decodeURIComponent(read[1]))) {
            res.writeHead(500, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ code: 'generic-error', message: 'Object reference not set to an instance of an object.' }));
            return;
          }
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
          const up = await fetch(this.upstream() + req.url, {
            method: req.method,
            headers,
            body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
          });
          const text = await up.text();
          if (this.holdNext && read) {
            this.holdNext = false;
            const gate = new Promise<void>((r) => (this.release = r));
            this.onCaptured(text);
            await gate;
          }
          res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
          res.end(text);
        })();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }
  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

let w: PayWorld;
let link: Link;
let fakeUrl = '';
let events: { type: string; invoiceId: string; status: string }[];

const ev = (id: string, type: string, extra?: Record<string, unknown>) => w.fake.event(id, type, { secret: WEBHOOK_SECRET, ...(extra ? { extra } : {}) });
const row = (id: string) => w.ctx.app.deps.db.selectFrom('invoices').selectAll().where('btcpay_id', '=', id).executeTakeFirstOrThrow();
const audits = (action: string) => w.ctx.app.deps.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute();
const enText = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../../src/i18n/locales/en/payments.json'), 'utf8')) as {
  phaseText: Record<string, string>;
};

/**
 * What the wallet's current-invoice panel says: the record from GET /api/my-invoices (read after
 * the last socket update, as the wallet reads it again after each) and that update, combined as
 * MyWallet.tsx does.
 */
async function walletPanel(id: string) {
  const res = await w.ctx.app.inject({ method: 'GET', url: '/api/my-invoices', headers: { cookie: w.user.cookie } });
  const record = (res.json().invoices as { invoiceId: string; status: string; additionalStatus: string }[]).find((i) => i.invoiceId === id)!;
  const update = events.filter((e) => e.invoiceId === id).at(-1) ?? null;
  const phase = currentPhase(record as never, update, false, true);
  // Before the record is read again, the update alone (beside the record from before it) must not say otherwise.
  const beforeRead = update ? currentPhase(null, update, false) : phase;
  return { phase, beforeRead, text: phase ? enText.phaseText[phase] : null };
}

beforeEach(async () => {
  // The link forwards to whatever URL the fake BTCPay gets; the app talks to the link.
  link = await new Link(() => fakeUrl).start();
  w = await btcpayWorld({ BTCPAY_URL: link.url });
  fakeUrl = w.fake.url;
  events = [];
  const hub = w.ctx.app.deps.hub;
  const send = hub.sendToUser.bind(hub);
  hub.sendToUser = ((userId: string, type: string, payload: { type: string; invoiceId: string; status: string }) => {
    if (type === 'invoiceStatusUpdate') events.push({ type: payload.type, invoiceId: payload.invoiceId, status: payload.status });
    return send(userId, type as never, payload as never);
  }) as typeof hub.sendToUser;
});
afterEach(async () => {
  link.releaseHeld();
  await w.close();
  await link.stop();
});

describe('what the wallet says', () => {
  // BTCPay keeps a payment that reaches it after the invoice expired; the invoice stays
  // Expired/PaidLate until staff mark it. The wallet must not say that nothing arrived and nothing
  // was charged (they would pay again and never ask about the first): it says a payment arrived
  // late, to contact us with the invoice number; and staff see it in the audit log.
  it('a payment received after expiry (Expired/PaidLate) is shown as paid late, and audited for staff once', async () => {
    const id = await createInvoice(w.ctx, w.user, 25);
    w.fake.set(id, 'Expired');
    await deliver(w.ctx, ev(id, 'InvoiceExpired', { partiallyPaid: false }));
    expect(await audits('invoice.paid_late')).toEqual([]);
    w.fake.set(id, 'Expired', 'PaidLate');
    const payment = { id: 'late1', receivedDate: 1, value: '0.0004', fee: '0.000002', status: 'Settled', destination: 'bc1qlate' };
    await deliver(w.ctx, ev(id, 'InvoiceReceivedPayment', { afterExpiration: true, paymentMethodId: 'BTC-CHAIN', payment }));
    await deliver(w.ctx, ev(id, 'InvoicePaymentSettled', { afterExpiration: true, paymentMethodId: 'BTC-CHAIN', payment }));
    expect(await row(id)).toMatchObject({ status: 'Expired', additional_status: 'PaidLate', credited_at: null });
    expect(await usdBalance(w.ctx, w.user.id)).toBe(0);
    const panel = await walletPanel(id);
    expect(panel).toEqual({ phase: 'paidLate', beforeRead: 'paidLate', text: enText.phaseText.paidLate });
    expect(panel.text).not.toMatch(/no payment arrived|Nothing was charged/);
    const audited = await audits('invoice.paid_late');
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actor_id: null, target_type: 'invoice', target_id: id });
    expect(JSON.parse(audited[0].after_json!)).toEqual({ status: 'Expired', additionalStatus: 'PaidLate', userId: w.user.id, amountCents: 2500 });
  });

  // BTCPay describes the invoice differently from ours (another currency): nothing is applied or
  // credited (refused_mismatch), so the owner's event carries our record's status, not the one
  // refused (the wallet would say "Paid. The money is in your USD wallet." with nothing credited).
  it('an invoice refused for a currency mismatch is announced with our record status, not as Settled', async () => {
    const id = await createInvoice(w.ctx, w.user, 20);
    Object.assign(w.fake.invoice(id), { status: 'Settled', currency: 'EUR' });
    await deliver(w.ctx, ev(id, 'InvoiceSettled', { manuallyMarked: false, overPaid: false }));
    expect(await usdBalance(w.ctx, w.user.id)).toBe(0);
    expect((await row(id)).status).toBe('New');
    expect(events).toEqual([{ type: 'INVOICESETTLED', invoiceId: id, status: 'New' }]);
  });

  // A Processing invoice can fall back to New without a webhook, and BTCPay's InvoiceProcessing
  // delivery can arrive after that (retries: 10 s, 1 min, then every 10 min). The server re-reads
  // and sends {type: INVOICEPROCESSING, status: New}: the invoice is payable again, and the wallet
  // says so (with the checkout link), not "Payment received" until it expires.
  it('an InvoiceProcessing delivery whose re-read says New leaves the wallet showing the invoice payable', async () => {
    const id = await createInvoice(w.ctx, w.user, 30);
    w.fake.set(id, 'New');
    await deliver(w.ctx, ev(id, 'InvoiceProcessing', { overPaid: false }));
    expect(await row(id)).toMatchObject({ status: 'New', additional_status: 'None' });
    expect(events.at(-1)).toMatchObject({ type: 'INVOICEPROCESSING', status: 'New' });
    expect(await walletPanel(id)).toEqual({ phase: 'created', beforeRead: 'created', text: enText.phaseText.created });
  });
});

describe('a read of BTCPay taken before a change we applied, arriving after it', () => {
  // Staff mark an Invalid invoice Settled while a slow reconcile read (saying Invalid) is on its
  // way; the webhook credits it; then the old read lands. Applied, it would put our record back to
  // Invalid for good (a credited Invalid invoice is never read again), tell the owner "Invalid",
  // and raise a false "credited invoice no longer Settled" alarm inviting staff to take the money
  // back. Our row moved on while it was read: it is read again, and BTCPay says Settled.
  it('a read from before staff marked an Invalid invoice Settled, arriving after the credit, is not applied', async () => {
    const id = await createInvoice(w.ctx, w.user, 40);
    w.fake.set(id, 'Invalid');
    await deliver(w.ctx, ev(id, 'InvoiceInvalid', { manuallyMarked: false }));
    w.ctx.clock.advance(2 * 24 * 60 * 60 * 1000); // expire-invoices asks Expired/Invalid ones for 30 days
    const payments = w.ctx.app.deps.services.payments;
    link.holdNextInvoiceRead();
    const job = payments.reconcile({ expired: true });
    expect(JSON.parse(await link.captured).status).toBe('Invalid');
    // Meanwhile staff mark it Settled in BTCPay; its webhook credits the wallet.
    w.fake.set(id, 'Settled', 'Marked');
    await deliver(w.ctx, ev(id, 'InvoiceSettled', { manuallyMarked: true, overPaid: false }));
    expect(await usdBalance(w.ctx, w.user.id)).toBe(4000);
    const afterCredit = events.length;
    link.releaseHeld();
    await job;
    await payments.reconcile({ expired: true });
    const r = await row(id);
    expect(await ledgerDiscrepancies(w.ctx.app.deps.db)).toEqual([]);
    expect(await usdBalance(w.ctx, w.user.id)).toBe(4000);
    expect({ status: r.status, alarms: (await audits('invoice.unsettled_after_credit')).length, eventsAfter: events.slice(afterCredit) }).toEqual({
      status: 'Settled',
      alarms: 0,
      eventsAfter: [],
    });
  });

  // A reconcile read taken while the invoice was New, arriving after the InvoiceProcessing
  // webhook was applied, would take it back to New (and tell the owner it is payable again).
  it('a read taken while New, arriving after Processing was applied, does not take the invoice back to New', async () => {
    const id = await createInvoice(w.ctx, w.user, 35);
    w.ctx.clock.advance(60_000);
    link.holdNextInvoiceRead();
    const job = w.ctx.app.deps.services.payments.reconcile();
    expect(JSON.parse(await link.captured).status).toBe('New');
    w.fake.set(id, 'Processing');
    await deliver(w.ctx, ev(id, 'InvoiceProcessing', { overPaid: false }));
    expect((await row(id)).status).toBe('Processing');
    const afterProcessing = events.length;
    link.releaseHeld();
    await job;
    expect((await row(id)).status).toBe('Processing');
    expect(events.slice(afterProcessing)).toEqual([]);
  });
});

describe('reconciliation when BTCPay fails', () => {
  // BTCPay answers 500 for a few invoices (a removed payment method plugin) and answers every
  // other. Stopping at the third failure, with failed reads not recording checked_at, kept those
  // three first in the least-recently-checked order: every run stopped on them, and a settled
  // invoice whose webhook was lost was never credited ("a lost webhook never loses money").
  it('three invoices BTCPay fails to answer do not stop reconciliation from crediting a settled one', async () => {
    const failing: string[] = [];
    for (let i = 0; i < 3; i++) failing.push(await createInvoice(w.ctx, await makeUser(w.ctx), 10 + i));
    for (const f of failing) link.failing.add(f);
    const id = await createInvoice(w.ctx, w.user, 50);
    w.fake.set(id, 'Settled'); // its InvoiceSettled webhook was lost (BTCPay restarted)
    w.ctx.clock.advance(60_000);
    const report = await w.ctx.app.deps.services.payments.reconcile();
    expect(await usdBalance(w.ctx, w.user.id)).toBe(5000);
    expect(report.message).toMatch(/payment server unreachable for 3/);
    // The failed reads were recorded as checks too: they go to the back of the rotation.
    for (const f of failing) expect((await row(f)).checked_at).toBe(w.ctx.clock.now().toISOString());
  });

  // BTCPay down (no connection at all): the run stops after three reads in a row, and the next
  // run starts with the invoices not asked yet (the three asked recorded their check).
  it('BTCPay down: a run stops after three unanswered reads in a row, and the next run asks the others first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createInvoice(w.ctx, await makeUser(w.ctx), 10 + i));
    link.down = true;
    w.ctx.clock.advance(60_000);
    const first = await w.ctx.app.deps.services.payments.reconcile();
    expect(first.message).toMatch(/payment server unreachable for 3$/);
    const checked = async () => (await Promise.all(ids.map(row))).filter((r) => r.checked_at !== null).map((r) => r.btcpay_id);
    const firstAsked = await checked();
    expect(firstAsked).toHaveLength(3);
    link.down = false;
    for (const id of ids) w.fake.set(id, 'Settled');
    w.ctx.clock.advance(60_000);
    link.down = true;
    await w.ctx.app.deps.services.payments.reconcile();
    // The two not asked the first time were asked this time.
    expect((await checked()).sort()).toEqual([...ids].sort());
  });
});

describe('receipts and the delivery queue', () => {
  // The receipt is a courtesy (the money is in the wallet either way), yet it was sent inside the
  // one-at-a-time queue that processes every delivery: a mail relay that hangs (up to the 60 s
  // socket timeout) held every other provider's settlement behind one receipt.
  it("a hanging mail relay does not hold back another provider's credit", async () => {
    const relay = await startSmtpSink({ stall: true });
    const fake = await new FakeBtcpay().start();
    const ctx = await createTestApp({ mail: 'smtp', env: btcpayEnv(fake, { SMTP_URL: relay.url }) });
    fake.now = () => ctx.clock.now().getTime();
    try {
      const a = await makeUser(ctx, { status: 'approved' });
      const b = await makeUser(ctx, { status: 'approved' });
      const ia = await createInvoice(ctx, a, 20);
      const ib = await createInvoice(ctx, b, 30);
      fake.set(ia, 'Settled');
      fake.set(ib, 'Settled');
      expect((await deliver(ctx, fake.event(ia, 'InvoiceSettled', { secret: WEBHOOK_SECRET }), { wait: false })).statusCode).toBe(200);
      expect((await deliver(ctx, fake.event(ib, 'InvoiceSettled', { secret: WEBHOOK_SECRET }), { wait: false })).statusCode).toBe(200);
      await relay.waitFor(1); // A's receipt reached the relay, which does not answer
      const credited = async () => ({ a: await usdBalance(ctx, a.id), b: await usdBalance(ctx, b.id) });
      for (let i = 0; i < 40 && (await credited()).b === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await credited()).toEqual({ a: 2000, b: 3000 });
    } finally {
      await relay.close();
      await ctx.close();
      await fake.stop();
    }
  });

  // Tests (and shutdown) still wait for the receipts in flight: drain() waits for them.
  it('drain() waits for a receipt sent after the queue moved on', async () => {
    const relay = await startSmtpSink({ acceptAfterMs: 300 });
    const fake = await new FakeBtcpay().start();
    const ctx = await createTestApp({ mail: 'smtp', env: btcpayEnv(fake, { SMTP_URL: relay.url }) });
    fake.now = () => ctx.clock.now().getTime();
    try {
      const a = await makeUser(ctx, { status: 'approved' });
      const ia = await createInvoice(ctx, a, 20);
      fake.set(ia, 'Settled');
      await deliver(ctx, fake.event(ia, 'InvoiceSettled', { secret: WEBHOOK_SECRET })); // waits: drain()
      // Accepted by the relay (300 ms after it arrived) before drain() returned.
      expect(ctx.app.deps.mailer.lastSend?.()).toMatchObject({ ok: true });
      expect(relay.mails.filter((m) => m.to.includes(a.email))).toHaveLength(1);
    } finally {
      await relay.close();
      await ctx.close();
      await fake.stop();
    }
  });
});
