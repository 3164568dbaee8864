import { timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { transactionAs, type SessionUser } from '../../core/auth.ts';
import { isStaff, type Actor } from '../../core/policy.ts';
import { writeAudit } from '../../core/audit.ts';
import { AppError, Conflict, Forbidden, Invalid, NotFound, ruleWords } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { JobReport } from '../../core/report.ts';
import { WindowLimiter } from '../../core/ratelimit.ts';
import { centsToDecimal, decimalToCents, topUpCents } from '../../../contract/amount.ts';
import type { InvoiceStatus, PaymentServerHealth, SandboxAction, SandboxInvoice } from '../../../contract/api/payments.ts';
import * as walletsRepo from '../wallets/wallets.repository.ts';
import { GreenfieldClient, GreenfieldRefusal } from './btcpay.client.ts';
import { GreenfieldError, KNOWN_EVENTS, secondsToIso, type GreenfieldInvoice, type PaymentProvider } from './provider.ts';
import { SANDBOX_STORE_ID, SandboxProvider, signBody } from './sandbox.ts';
import { pageLink, type MailLocale } from '../../core/mail-templates.ts';
import { can } from './payments.policy.ts';
import * as repo from './payments.repository.ts';
import { recoverUnknownInvoice } from './payments.recover.ts';
import { applyInvoice, readInvoice, ReadFailure, type Outcome } from './payments.apply.ts';
import { reconcileInvoices } from './payments.reconcile.ts';
import * as reads from './payments.reads.ts';
import { paymentServerHealth } from './payments.health.ts';

/** PRODUCT §6: at most this many unpaid invoices per user. */
export const MAX_OPEN_INVOICES = 5;
export const INVOICE_MINUTES = 30;

/** Our page languages as BTCPay's checkout names them (its wwwroot/locales/checkout files). */
const CHECKOUT_LANGUAGE: Record<MailLocale, string> = { en: 'en', es: 'es-ES', pt: 'pt-BR' };

/**
 * Bitcoin top-ups (PRODUCT §6, INTEGRATIONS.md). A top-up is: an invoice row (an intent, before
 * BTCPay is asked, so nothing is half-created and a crash can be recovered by order id), BTCPay's
 * signed webhooks stored in an inbox and answered at once, then processed one at a time: each
 * re-reads the invoice from BTCPay and applies what it says; the USD wallet is credited when BTCPay
 * says Settled, in one transaction with the ledger row whose UNIQUE key `invoice:<id>` makes it
 * once, whatever the deliveries do. The reconcile-invoices job does the same for open invoices
 * every minute, so a lost webhook never loses money (payments.apply.ts applies what BTCPay says,
 * payments.reconcile.ts runs the jobs).
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

  // ---- creating an invoice ----

  async createInvoice(actor: SessionUser, input: { amount: number | string; locale: MailLocale }): Promise<{ invoiceId: string; checkoutLink: string }> {
    const cents = topUpCents(input.amount);
    if (cents === null) throw new Invalid('amount', 'payment.amount_invalid');
    this.createLimiter.hit([`user:${actor.id}`]);
    const wallet = await walletsRepo.findWalletByType(this.deps.db, actor.id, 'USD');
    if (!wallet) throw new NotFound('wallet.not_found');
    const orderId = newId();
    const at = this.now();
    await transactionAs(this.deps.db, actor, async (trx) => {
      // suspended or signed out while this waited: 401, no invoice
      // Counted and inserted in one write transaction: two tabs cannot both take the fifth place.
      if ((await repo.countOpen(trx, actor.id, at)) >= MAX_OPEN_INVOICES) throw new Conflict('payment.too_many_open_invoices', { max: MAX_OPEN_INVOICES });
      await repo.insertInvoice(trx, {
        id: orderId,
        btcpay_id: null,
        provider: this.mode,
        user_id: actor.id,
        wallet_id: wallet.id,
        amount_cents: cents,
        status: 'Creating',
        additional_status: 'None',
        checkout_link: null,
        locale: input.locale,
        created_at: at,
        expires_at: new Date(this.deps.clock.now().getTime() + INVOICE_MINUTES * 60_000).toISOString(),
        checked_at: null,
        credited_at: null,
        updated_at: at,
      });
    });
    let gf: GreenfieldInvoice;
    try {
      gf = await this.provider.createInvoice({
        amount: centsToDecimal(cents),
        currency: 'USD',
        metadata: { orderId, userId: actor.id, walletId: wallet.id },
        checkout: {
          speedPolicy: 'MediumSpeed',
          expirationMinutes: INVOICE_MINUTES,
          // The amount in full: a store-wide tolerance set in BTCPay would otherwise settle an
          // underpaid invoice, and we credit the invoice's amount.
          paymentTolerance: 0,
          // BTCPay's checkout page in the payer's language, and back to the wallet in it.
          defaultLanguage: CHECKOUT_LANGUAGE[input.locale],
          redirectURL: pageLink(this.deps.config.publicUrl, input.locale, '/admin/dashboard/my-wallet'),
        },
      });
    } catch (err) {
      // Nothing half-created: BTCPay made no invoice (or said so), so the intent goes.
      await repo.deleteCreating(this.deps.db, orderId);
      if (err instanceof GreenfieldError && (err.kind === 'validation' || err.kind === 'business')) {
        // BTCPay's words are English prose: logged, and the provider reads one of our reasons, worded
        // in their language (errors rule.*): the amount, which they can change, or anything else,
        // which is the store's setup (staff's to fix, from this log line).
        const amount = err instanceof GreenfieldRefusal && err.fields.some((f) => f.toLowerCase() === 'amount');
        const said = { orderId, userId: actor.id, amountCents: cents, status: err.status, btcpay: err.message };
        if (amount) this.deps.log.warn(said, 'payments: BTCPay refused the amount of an invoice');
        else this.deps.log.error(said, 'payments: BTCPay refused to create an invoice');
        const rule = amount ? 'payment_amount' : 'payment_store';
        throw new AppError(400, 'payment.server_rejected', { rule, reason: ruleWords({ rule }) });
      }
      this.deps.log.error({ err, orderId }, 'payments: could not create an invoice');
      throw new AppError(502, 'payment.server_unavailable');
    }
    if (decimalToCents(gf.amount) !== cents || gf.currency.toUpperCase() !== 'USD') {
      this.deps.log.error({ orderId, invoiceId: gf.id, amount: gf.amount, currency: gf.currency }, 'payments: BTCPay created an invoice for another amount');
      throw new AppError(502, 'payment.server_unavailable');
    }
    await repo.completeCreation(this.deps.db, orderId, {
      btcpayId: gf.id,
      status: gf.status,
      additionalStatus: gf.additionalStatus,
      checkoutLink: gf.checkoutLink,
      expiresAt: secondsToIso(gf.expirationTime),
      at: this.now(),
    });
    return { invoiceId: gf.id, checkoutLink: gf.checkoutLink };
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

  // ---- the sandbox ----

  private async sandboxInvoiceFor(actor: Actor, invoiceId: string, fromLoopback: boolean) {
    if (!this.sandbox) throw new NotFound('payment.sandbox_inactive');
    const invoice = await repo.findByBtcpayId(this.deps.db, invoiceId);
    if (!invoice || !can(actor, 'view', { ownerId: invoice.user_id, fromLoopback })) throw new NotFound('payment.invoice_not_found');
    return { sandbox: this.sandbox, invoice };
  }

  private async sandboxDto(
    sandbox: SandboxProvider,
    actor: Actor,
    invoice: repo.InvoiceRow,
    fromLoopback: boolean,
    gf?: GreenfieldInvoice,
  ): Promise<SandboxInvoice> {
    const g = gf ?? (await sandbox.getInvoice(invoice.btcpay_id!));
    if (!g) throw new NotFound('payment.invoice_not_found');
    return {
      invoiceId: g.id,
      amountCents: decimalToCents(g.amount) ?? invoice.amount_cents,
      status: g.status,
      additionalStatus: g.additionalStatus,
      expiresAt: secondsToIso(g.expirationTime),
      redirectUrl: (await sandbox.redirectUrl(g.id)) ?? `${this.deps.config.publicUrl}/admin/dashboard/my-wallet`,
      canSimulate: can(actor, 'simulate', { ownerId: invoice.user_id, fromLoopback }),
    };
  }

  async sandboxInvoice(actor: Actor, invoiceId: string, fromLoopback: boolean): Promise<SandboxInvoice> {
    const { sandbox, invoice } = await this.sandboxInvoiceFor(actor, invoiceId, fromLoopback);
    return this.sandboxDto(sandbox, actor, invoice, fromLoopback);
  }

  async simulate(actor: Actor, invoiceId: string, action: SandboxAction, fromLoopback: boolean): Promise<SandboxInvoice> {
    const { sandbox, invoice } = await this.sandboxInvoiceFor(actor, invoiceId, fromLoopback);
    if (!can(actor, 'simulate', { ownerId: invoice.user_id, fromLoopback })) throw new Forbidden('payment.sandbox_forbidden');
    const gf = await sandbox.simulate(invoice.btcpay_id!, action);
    this.deps.log.warn({ invoiceId, action, by: actor?.id }, 'sandbox: payment simulated');
    // Staff may settle anyone's test invoice (their own too, from anywhere): test money, but an act of staff's all the same.
    if (actor && isStaff(actor)) {
      await writeAudit(this.deps.db, {
        actor,
        action: 'invoice.simulate',
        targetType: 'invoice',
        targetId: invoiceId,
        after: { action, userId: invoice.user_id, amountCents: invoice.amount_cents },
        at: this.now(),
      });
    }
    return this.sandboxDto(sandbox, actor, invoice, fromLoopback, gf);
  }

  // ---- health ----

  health(): Promise<PaymentServerHealth> {
    return paymentServerHealth(this.deps, { provider: this.provider, sandbox: this.sandbox !== null, storeId: this.storeId, webhookUrl: this.webhookUrl });
  }
}
