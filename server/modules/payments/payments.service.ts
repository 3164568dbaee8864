import { timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import type { SessionUser } from '../../core/auth.ts';
import type { Actor } from '../../core/policy.ts';
import { AppError } from '../../core/errors.ts';
import type { JobReport } from '../../core/report.ts';
import { WindowLimiter } from '../../core/ratelimit.ts';
import type { InvoiceStatus, PaymentServerHealth, SandboxAction, SandboxInvoice } from '../../../contract/api/payments.ts';
import { GreenfieldClient } from './btcpay.client.ts';
import { KNOWN_EVENTS, type PaymentProvider } from './provider.ts';
import { SANDBOX_STORE_ID, SandboxProvider, signBody } from './sandbox.ts';
import type { MailLocale } from '../../core/mail-templates.ts';
import * as repo from './payments.repository.ts';
import { recoverUnknownInvoice } from './payments.recover.ts';
import { applyInvoice, readInvoice, ReadFailure, type Outcome } from './payments.apply.ts';
import { reconcileInvoices } from './payments.reconcile.ts';
import * as reads from './payments.reads.ts';
import { paymentServerHealth } from './payments.health.ts';
import * as creating from './payments.create.ts';
import * as sandboxPages from './payments.sandbox.ts';

/**
 * Bitcoin top-ups (PRODUCT §6, INTEGRATIONS.md). A top-up is: an invoice row (an intent, before
 * BTCPay is asked, so nothing is half-created and a crash can be recovered by order id), BTCPay's
 * signed webhooks stored in an inbox and answered at once, then processed one at a time: each
 * re-reads the invoice from BTCPay and applies what it says; the USD wallet is credited when BTCPay
 * says Settled, in one transaction with the ledger row whose UNIQUE key `invoice:<id>` makes it
 * once, whatever the deliveries do. The reconcile-invoices job does the same for open invoices
 * every minute, so a lost webhook never loses money (payments.create.ts makes the invoice,
 * payments.apply.ts applies what BTCPay says, payments.reconcile.ts runs the jobs).
 */

export class PaymentsService {
  private readonly deps: AppDeps;
  readonly provider: PaymentProvider;
  /** The sandbox, when BTCPay is not configured. */
  readonly sandbox: SandboxProvider | null;
  private chain: Promise<void> = Promise.resolve();
  /** Receipts being sent (not awaited by the delivery queue). */
  private readonly receipts = new Set<Promise<void>>();
  private readonly createLimiter: WindowLimiter;

  constructor(deps: AppDeps) {
    this.deps = deps;
    const b = deps.config.btcpay;
    if (b.url && b.storeId && b.apiKey) {
      this.provider = new GreenfieldClient({ url: b.url, storeId: b.storeId, apiKey: b.apiKey, timeoutMs: deps.config.nodeEnv === 'test' ? 2000 : 10_000 });
      this.sandbox = null;
    } else {
      this.sandbox = new SandboxProvider(deps, { settleDelayMs: deps.config.sandboxSettleMs });
      this.provider = this.sandbox;
    }
    this.createLimiter = new WindowLimiter(deps.clock, 20, 60 * 60 * 1000);
  }

  get mode() {
    return this.provider.mode;
  }

  get storeId(): string {
    return this.sandbox ? SANDBOX_STORE_ID : this.deps.config.btcpay.storeId!;
  }

  get webhookUrl(): string {
    return `${this.deps.config.publicUrl}/api/webhooks/btcpay`;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  // ---- creating an invoice (payments.create.ts) ----

  createInvoice(actor: SessionUser, input: { amount: number | string; locale: MailLocale }): Promise<{ invoiceId: string; checkoutLink: string }> {
    return creating.createInvoice(this.deps, { provider: this.provider, limiter: this.createLimiter }, actor, input);
  }

  // ---- the webhook ----

  /** True when `header` is BTCPay's signature of exactly these bytes (constant-time comparison). */
  verifySignature(raw: Buffer, header: string | undefined): boolean {
    if (typeof header !== 'string') return false;
    const expected = Buffer.from(signBody(this.deps.config.btcpay.webhookSecret, raw), 'utf8');
    const given = Buffer.from(header.trim().toLowerCase(), 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * Takes one delivery: checks the signature (401), stores it once per originalDeliveryId and
   * queues its processing; the caller answers 200 at once. Unknown event types and other stores
   * are logged and ignored; an invoice of our store we do not know is re-read from BTCPay
   * (recoverUnknown).
   */
  async receiveWebhook(raw: Buffer, signature: string | undefined): Promise<void> {
    if (!this.verifySignature(raw, signature)) throw new AppError(401, 'payment.webhook_signature_invalid');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AppError(400, 'payment.webhook_malformed');
    }
    const str = (k: string) => (body && typeof body[k] === 'string' && (body[k] as string).length <= 200 ? (body[k] as string) : null);
    const type = str('type');
    const deliveryId = str('deliveryId');
    const invoiceId = str('invoiceId');
    if (!body || typeof body !== 'object' || Array.isArray(body) || !type || !deliveryId) throw new AppError(400, 'payment.webhook_malformed');
    const originalDeliveryId = str('originalDeliveryId') ?? deliveryId;
    const log = this.deps.log.child({ type, deliveryId, originalDeliveryId, invoiceId });
    if (!KNOWN_EVENTS.has(type) || !invoiceId) {
      log.info('payments: webhook event of a type we do not use, ignored');
      return;
    }
    if (str('storeId') !== this.storeId) {
      log.warn({ storeId: body.storeId }, 'payments: webhook for another store, ignored');
      return;
    }
    const at = this.now();
    let invoice = await repo.findByBtcpayId(this.deps.db, invoiceId);
    if (!invoice) {
      // A webhook can overtake BTCPay's answer to our create call (or the answer was lost in a
      // crash): the signed metadata names our order, still waiting for its BTCPay id.
      const meta = body.metadata as Record<string, unknown> | undefined;
      const orderId = typeof meta?.orderId === 'string' ? meta.orderId : null;
      if (orderId && (await repo.adoptCreating(this.deps.db, orderId, invoiceId, at))) invoice = await repo.findByBtcpayId(this.deps.db, invoiceId);
    }
    if (!invoice)
      invoice = await recoverUnknownInvoice(
        this.deps,
        this.provider,
        invoiceId,
        { type, originalDeliveryId, body: raw.toString('utf8').slice(0, 20_000) },
        log,
      );
    if (!invoice) return;
    const stored = await repo.insertDelivery(this.deps.db, {
      originalDeliveryId,
      deliveryId,
      invoiceId: invoice.id,
      type,
      body: raw.toString('utf8').slice(0, 20_000),
      at,
    });
    if (!stored) {
      await repo.noteRedelivery(this.deps.db, originalDeliveryId, deliveryId);
      const earlier = await repo.findDelivery(this.deps.db, originalDeliveryId);
      if (earlier?.processed_at) return; // done already: a redelivery changes nothing
    }
    this.enqueue(originalDeliveryId);
  }

  /** Deliveries are processed one at a time, in the order they came (as BTCPay sends them). */
  private enqueue(originalDeliveryId: string): void {
    this.chain = this.chain
      .then(async () => {
        await this.processDelivery(originalDeliveryId);
      })
      .catch((err: unknown) => this.deps.log.error({ err, originalDeliveryId }, 'payments: processing a webhook delivery failed'));
  }

  /** Resolves once every queued delivery has been processed. */
  private async drainQueue(): Promise<void> {
    for (;;) {
      const c = this.chain;
      await c;
      if (c === this.chain) return;
    }
  }

  /**
   * Receipts go out after the commit, beside the queue: a mail relay that hangs (up to its socket
   * timeout) must not hold every other provider's credit behind one courtesy e-mail.
   */
  private readonly background = (task: Promise<void>): void => {
    this.receipts.add(task);
    void task.finally(() => this.receipts.delete(task));
  };

  /** Resolves once every queued delivery has been processed and every receipt sent or given up (tests; shutdown). */
  async drain(): Promise<void> {
    for (;;) {
      const c = this.chain;
      await this.drainQueue();
      await Promise.all([...this.receipts]);
      if (c === this.chain && this.receipts.size === 0) return;
    }
  }

  /** Processes a stored delivery: re-reads the invoice from BTCPay and applies it. Left pending when BTCPay cannot be asked. */
  async processDelivery(originalDeliveryId: string): Promise<Outcome | null> {
    const d = await repo.findDelivery(this.deps.db, originalDeliveryId);
    if (!d || d.processed_at) return null;
    const invoice = await repo.findInvoice(this.deps.db, d.invoice_id);
    if (!invoice?.btcpay_id) return null;
    const read = () => readInvoice(this.provider, invoice.btcpay_id!);
    try {
      return await applyInvoice(
        this.deps,
        invoice,
        await read(),
        { deliveryId: originalDeliveryId, type: d.type },
        { reread: read, background: this.background },
      );
    } catch (err) {
      if (!(err instanceof ReadFailure)) throw err;
      await repo.failDelivery(this.deps.db, originalDeliveryId, err.message);
      this.deps.log.warn({ err: err.cause, originalDeliveryId }, 'payments: could not re-read the invoice; the delivery waits for reconciliation');
      return null;
    }
  }

  // ---- the jobs ----

  /** Deliveries stored but never processed (a crash, BTCPay down): processed now. */
  async resumePending(): Promise<number> {
    const ids = await repo.pendingDeliveries(this.deps.db, 200);
    for (const id of ids) this.enqueue(id);
    await this.drainQueue();
    return ids.length;
  }

  /** The reconcile-invoices job (open invoices), or with `expired` the expire-invoices one (payments.reconcile.ts). */
  reconcile(opts: { expired: boolean } = { expired: false }): Promise<JobReport> {
    return reconcileInvoices(this.deps, this.provider, opts, () => this.resumePending(), this.background);
  }

  // ---- reads (payments.reads.ts) ----

  listMine(userId: string, q: { page?: number; pageSize?: number }) {
    return reads.listMine(this.deps, userId, q);
  }

  transactions(actor: SessionUser, q: { page?: number; pageSize?: number; walletId?: string }) {
    return reads.transactions(this.deps, actor, q);
  }

  adminList(q: { page?: number; pageSize?: number; query?: string; status?: InvoiceStatus }) {
    return reads.adminList(this.deps, q);
  }

  // ---- the sandbox's checkout page (payments.sandbox.ts) ----

  sandboxInvoice(actor: Actor, invoiceId: string, fromLoopback: boolean): Promise<SandboxInvoice> {
    return sandboxPages.sandboxInvoice(this.deps, this.sandbox, actor, invoiceId, fromLoopback);
  }

  simulate(actor: Actor, invoiceId: string, action: SandboxAction, fromLoopback: boolean): Promise<SandboxInvoice> {
    return sandboxPages.simulate(this.deps, this.sandbox, actor, invoiceId, action, fromLoopback);
  }

  // ---- health ----

  health(): Promise<PaymentServerHealth> {
    return paymentServerHealth(this.deps, { provider: this.provider, sandbox: this.sandbox !== null, storeId: this.storeId, webhookUrl: this.webhookUrl });
  }
}
