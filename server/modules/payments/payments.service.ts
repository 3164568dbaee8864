import { timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { transactionAs, type SessionUser } from '../../core/auth.ts';
import { isStaff, type Actor } from '../../core/policy.ts';
import { writeAudit } from '../../core/audit.ts';
import type { Said } from '../../../contract/api/common.ts';
import { AppError, Conflict, Forbidden, Invalid, NotFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { paging } from '../../core/http.ts';
import { jobReport, type JobReport } from '../../core/report.ts';
import { WindowLimiter } from '../../core/ratelimit.ts';
import { centsToDecimal, decimalToCents, formatUsd, topUpCents } from '../../../contract/amount.ts';
import type {
  AdminInvoice,
  Invoice,
  InvoiceEvent,
  InvoiceStatus,
  PaymentServerHealth,
  SandboxAction,
  SandboxInvoice,
  Transaction,
} from '../../../contract/api/payments.ts';
import { postToLedger } from '../wallets/ledger.service.ts';
import { usableWallet } from '../wallets/wallets.service.ts';
import * as walletsRepo from '../wallets/wallets.repository.ts';
import { GreenfieldClient } from './btcpay.client.ts';
import { GreenfieldError, KNOWN_EVENTS, secondsToIso, type GreenfieldInvoice, type PaymentProvider } from './provider.ts';
import { SANDBOX_STORE_ID, SandboxProvider, signBody } from './sandbox.ts';
import { composeMail, pageLink, utcMoment, type MailLocale } from '../../core/mail-templates.ts';
import { can } from './payments.policy.ts';
import * as repo from './payments.repository.ts';
import { recoverUnknownInvoice } from './payments.recover.ts';

/** PRODUCT §6: at most this many unpaid invoices per user. */
export const MAX_OPEN_INVOICES = 5;
export const INVOICE_MINUTES = 30;
/** How long after its expiry an invoice is still watched every minute (BTCPay keeps monitoring for late payments). */
const RECONCILE_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * How long after its expiry an Expired/Invalid invoice never credited is still asked about by
 * expire-invoices, in case staff mark it Settled days later and that one webhook is lost. Past this
 * it is no longer asked: a marking that late is for staff to reconcile by hand.
 */
const LATE_MARK_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
/** An intent whose answer never came (a crash while asking BTCPay) is looked up by order id after this, and dropped after ten minutes. */
const CREATING_GRACE_MS = 2 * 60 * 1000;
const CREATING_GIVE_UP_MS = 10 * 60 * 1000;

/** What processing a delivery or a reconciliation did to an invoice. */
type Outcome = 'credited' | 'already_credited' | 'status_changed' | 'no_change' | 'refused_mismatch' | 'unknown_at_server';

const EVENT_OF_STATUS: Record<InvoiceStatus, string | null> = {
  // Back to New from Processing (a payment stopped counting: BTCPay sends no webhook for it).
  New: 'INVOICESTATUSCHANGED',
  Processing: 'INVOICEPROCESSING',
  Settled: 'INVOICESETTLED',
  Expired: 'INVOICEEXPIRED',
  Invalid: 'INVOICEINVALID',
};

const toInvoiceDto = (r: repo.InvoiceRow): Invoice => ({
  invoiceId: r.btcpay_id ?? r.id,
  walletId: r.wallet_id,
  amountCents: r.amount_cents,
  status: r.status === 'Creating' ? 'New' : r.status,
  additionalStatus: r.additional_status,
  checkoutLink: r.checkout_link ?? '',
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  creditedAt: r.credited_at,
});

/**
 * Bitcoin top-ups (PRODUCT §6, INTEGRATIONS.md). A top-up is: an invoice row (an intent, before
 * BTCPay is asked, so nothing is half-created and a crash can be recovered by order id), BTCPay's
 * signed webhooks stored in an inbox and answered at once, then processed one at a time: each
 * re-reads the invoice from BTCPay and applies what it says; the USD wallet is credited when BTCPay
 * says Settled, in one transaction with the ledger row whose UNIQUE key `invoice:<id>` makes it
 * once, whatever the deliveries do. The reconcile-invoices job does the same for open invoices
 * every minute, so a lost webhook never loses money.
 */
/** Our page languages as BTCPay's checkout names them (its wwwroot/locales/checkout files). */
const CHECKOUT_LANGUAGE: Record<MailLocale, string> = { en: 'en', es: 'es-ES', pt: 'pt-BR' };

export class PaymentsService {
  private readonly deps: AppDeps;
  readonly provider: PaymentProvider;
  /** The sandbox, when BTCPay is not configured. */
  readonly sandbox: SandboxProvider | null;
  private chain: Promise<void> = Promise.resolve();
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
        throw new AppError(400, 'payment.server_rejected', { message: err.message });
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

  /** Resolves once every queued delivery has been processed (tests; shutdown). */
  async drain(): Promise<void> {
    for (;;) {
      const c = this.chain;
      await c;
      if (c === this.chain) return;
    }
  }

  /** Processes a stored delivery: re-reads the invoice from BTCPay and applies it. Left pending when BTCPay cannot be asked. */
  async processDelivery(originalDeliveryId: string): Promise<Outcome | null> {
    const d = await repo.findDelivery(this.deps.db, originalDeliveryId);
    if (!d || d.processed_at) return null;
    const invoice = await repo.findInvoice(this.deps.db, d.invoice_id);
    if (!invoice?.btcpay_id) return null;
    let gf: GreenfieldInvoice | null;
    try {
      gf = await this.provider.getInvoice(invoice.btcpay_id);
    } catch (err) {
      await repo.failDelivery(this.deps.db, originalDeliveryId, err instanceof Error ? err.message : String(err));
      this.deps.log.warn({ err, originalDeliveryId }, 'payments: could not re-read the invoice; the delivery waits for reconciliation');
      return null;
    }
    return this.apply(invoice, gf, { deliveryId: originalDeliveryId, type: d.type });
  }

  /**
   * Applies what BTCPay says of an invoice, in one transaction: its status, and when Settled the
   * credit (ledger key `invoice:<BTCPay id>`: once, whoever gets there first). Then tells the
   * owner's sockets, and e-mails the receipt when this call credited it.
   */
  private async apply(
    invoice: repo.InvoiceRow,
    gf: GreenfieldInvoice | null,
    source: { deliveryId: string; type: string } | { reconcile: true },
  ): Promise<Outcome> {
    const at = this.now();
    const btcpayId = invoice.btcpay_id!;
    let outcome: Outcome;
    let status: InvoiceStatus | null = gf?.status ?? null;
    let balanceCents = 0;
    let stale = false;
    await this.deps.db.transaction().execute(async (trx) => {
      const current = (await repo.findInvoice(trx, invoice.id))!;
      if (!gf) {
        outcome = 'unknown_at_server';
        await repo.noteChecked(trx, current.id, at);
      } else if (
        gf.id !== btcpayId ||
        decimalToCents(gf.amount) !== current.amount_cents ||
        gf.currency.toUpperCase() !== 'USD' ||
        (typeof gf.metadata.orderId === 'string' && gf.metadata.orderId !== current.id)
      ) {
        outcome = 'refused_mismatch';
        await repo.noteChecked(trx, current.id, at);
        this.deps.log.error(
          { invoiceId: btcpayId, amount: gf.amount, currency: gf.currency },
          'payments: BTCPay describes this invoice differently from ours; nothing applied',
        );
      } else if ((current.status === 'Settled' || current.credited_at) && gf.status !== 'Settled' && gf.status !== 'Invalid') {
        // BTCPay never takes a Settled invoice back to New, Processing or Expired (only staff's
        // Invalid mark moves it on): such an answer was read before the settlement and arrived
        // after it (a slow reconcile read racing the webhook, or another process's). Not applied.
        outcome = 'no_change';
        stale = true;
        await repo.noteChecked(trx, current.id, at);
        status = current.status === 'Creating' ? null : current.status;
      } else {
        const changed = current.status !== gf.status || current.additional_status !== gf.additionalStatus;
        await repo.setStatus(trx, current.id, { status: gf.status, additionalStatus: gf.additionalStatus, at });
        if (current.credited_at && gf.status !== 'Settled' && changed) {
          // Credited once Settled, now something else (staff marked it Invalid after marking it
          // Settled): the credit stands (it may be spent), staff decide; it is logged and audited.
          this.deps.log.error(
            { invoiceId: btcpayId, status: gf.status, additionalStatus: gf.additionalStatus },
            'payments: a credited invoice is no longer Settled',
          );
          await writeAudit(trx, {
            actor: null,
            action: 'invoice.unsettled_after_credit',
            targetType: 'invoice',
            targetId: btcpayId,
            before: { status: current.status, creditedAt: current.credited_at },
            after: { status: gf.status, additionalStatus: gf.additionalStatus, userId: current.user_id, amountCents: current.amount_cents },
            at,
          });
        }
        outcome = changed ? 'status_changed' : 'no_change';
        if (gf.status === 'Settled') {
          const r = await postToLedger(trx, {
            walletId: current.wallet_id,
            amountCents: current.amount_cents,
            kind: 'invoice_credit',
            reference: btcpayId,
            idempotencyKey: `invoice:${btcpayId}`,
            at,
          });
          if (r.applied) {
            await repo.markCredited(trx, current.id, at);
            outcome = 'credited';
            balanceCents = (await walletsRepo.findWallet(trx, current.wallet_id))!.balance_cents;
            const owner = await trx.selectFrom('users').select('deleted_at').where('id', '=', current.user_id).executeTakeFirst();
            if (owner?.deleted_at) {
              // Paid after its owner deleted the account: the money is in a wallet nobody can reach
              // (the ledger keeps it), and no receipt goes. Staff see it, to refund it by hand.
              this.deps.log.error({ invoiceId: btcpayId, userId: current.user_id }, 'payments: an invoice settled after its owner deleted the account');
              await writeAudit(trx, {
                actor: null,
                action: 'invoice.credited_after_deletion',
                targetType: 'invoice',
                targetId: btcpayId,
                after: { userId: current.user_id, amountCents: current.amount_cents, deletedAt: owner.deleted_at },
                at,
              });
            }
          } else {
            outcome = current.credited_at ? 'already_credited' : 'credited';
            if (!current.credited_at) await repo.markCredited(trx, current.id, at);
          }
        }
      }
      if ('deliveryId' in source) {
        await repo.finishDelivery(trx, source.deliveryId, { status, outcome: outcome!, at });
      } else if (outcome! === 'status_changed' || outcome! === 'credited') {
        const id = `reconcile:${newId(16)}`;
        await repo.insertDelivery(trx, { originalDeliveryId: id, deliveryId: '-', invoiceId: current.id, type: 'Reconciled', body: null, at });
        await repo.finishDelivery(trx, id, { status, outcome: outcome!, at });
      }
    });
    outcome = outcome!;
    if (status === null) status = invoice.status === 'Creating' ? 'New' : invoice.status;
    // After commit: the event says what changed; the client reads the rest again.
    const type = 'deliveryId' in source ? source.type.toUpperCase() : outcome === 'status_changed' || outcome === 'credited' ? EVENT_OF_STATUS[status] : null;
    if (type && !stale) this.deps.hub.sendToUser(invoice.user_id, 'invoiceStatusUpdate', { type, invoiceId: btcpayId, status });
    if (outcome === 'credited' && balanceCents > 0) await this.sendReceipt(invoice, balanceCents, at);
    return outcome;
  }

  private async sendReceipt(invoice: repo.InvoiceRow, balanceCents: number, at: string): Promise<void> {
    const user = await this.deps.db.selectFrom('users').select(['email', 'deleted_at']).where('id', '=', invoice.user_id).executeTakeFirst();
    if (!user || user.deleted_at) return;
    try {
      await this.deps.mailer.send(
        composeMail('topUpCredited', invoice.locale, user.email, {
          amount: formatUsd(invoice.amount_cents, invoice.locale),
          balance: formatUsd(balanceCents, invoice.locale),
          invoice: invoice.btcpay_id!,
          date: utcMoment(at, invoice.locale),
          link: pageLink(this.deps.config.publicUrl, invoice.locale, '/admin/dashboard/my-wallet'),
        }),
      );
    } catch (err) {
      // The money is in the wallet either way; the receipt is a courtesy.
      this.deps.log.error({ err, invoiceId: invoice.btcpay_id }, 'payments: could not e-mail the top-up receipt');
    }
  }

  // ---- the jobs ----

  /** Deliveries stored but never processed (a crash, BTCPay down): processed now. */
  async resumePending(): Promise<number> {
    const ids = await repo.pendingDeliveries(this.deps.db, 200);
    for (const id of ids) this.enqueue(id);
    await this.drain();
    return ids.length;
  }

  /**
   * Re-reads open invoices (and settled ones not yet credited) and applies what BTCPay says; finds
   * invoices created just before a crash. Expired and Invalid invoices never credited are re-read
   * too: staff may mark one Settled, and if that single webhook is lost only this finds it.
   */
  async reconcile(opts: { expired: boolean } = { expired: false }): Promise<JobReport> {
    const nowMs = this.deps.clock.now().getTime();
    const pending = opts.expired ? 0 : await this.resumePending();
    const windowStart = new Date(nowMs - RECONCILE_WINDOW_MS).toISOString();
    const rows = await repo.invoicesToReconcile(this.deps.db, {
      // reconcile-invoices: not yet expired, or expired within the day BTCPay keeps watching;
      // expire-invoices: the older open ones, asked one last time, and the older Expired/Invalid
      // ones for LATE_MARK_WINDOW_MS, 200 a run least recently checked first (every read records
      // checked_at), so they take turns instead of all being asked every run.
      expiresAfter: opts.expired ? new Date(0).toISOString() : windowStart,
      markableAfter: opts.expired ? new Date(nowMs - LATE_MARK_WINDOW_MS).toISOString() : windowStart,
      expiresBefore: opts.expired ? windowStart : null,
      limit: 200,
    });
    const counts: Record<string, number> = {};
    let unreachable = 0;
    for (const inv of rows) {
      let gf: GreenfieldInvoice | null;
      try {
        gf = await this.provider.getInvoice(inv.btcpay_id!);
      } catch (err) {
        unreachable++;
        this.deps.log.warn({ err, invoiceId: inv.btcpay_id }, 'payments: reconciliation could not read an invoice');
        if (unreachable >= 3) break; // BTCPay is down: try again next minute
        continue;
      }
      if (!gf && opts.expired && inv.status !== 'Expired' && inv.status !== 'Invalid') {
        // BTCPay forgot it (a wiped store) long after it expired: close it here. One closed
        // already keeps its status (apply() only records the check).
        await repo.setStatus(this.deps.db, inv.id, { status: 'Expired', additionalStatus: inv.additional_status, at: this.now() });
        counts.closed = (counts.closed ?? 0) + 1;
        continue;
      }
      const outcome = await this.apply(inv, gf, { reconcile: true });
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
    const adopted = opts.expired ? 0 : await this.recoverCreating(nowMs);
    const parts = [`${rows.length} invoice(s) checked`, ...Object.entries(counts).map(([k, n]) => `${n} ${k}`)];
    const said = Object.entries(counts).map(([k, n]) => ({ code: `cron.invoices.${k}`, params: { count: n } }));
    if (pending) parts.push(`${pending} stored delivery(ies) processed`);
    if (pending) said.push({ code: 'cron.deliveries_processed', params: { count: pending } });
    if (adopted) parts.push(`${adopted} interrupted creation(s) recovered`);
    if (adopted) said.push({ code: 'cron.creations_recovered', params: { count: adopted } });
    if (unreachable) parts.push(`payment server unreachable for ${unreachable}`);
    if (unreachable) said.push({ code: 'cron.invoices_unreachable', params: { count: unreachable } });
    return jobReport(parts.join(', '), 'cron.invoices_checked', { count: rows.length }, said);
  }

  /** Intents left 'Creating' by a crash: BTCPay is asked for invoices carrying the order id; found → kept, not found after ten minutes → dropped. */
  private async recoverCreating(nowMs: number): Promise<number> {
    let adopted = 0;
    for (const inv of await repo.staleCreating(this.deps.db, new Date(nowMs - CREATING_GRACE_MS).toISOString())) {
      let found: GreenfieldInvoice[];
      try {
        found = await this.provider.findInvoicesByOrderId(inv.id);
      } catch {
        return adopted;
      }
      const gf = found.find((g) => decimalToCents(g.amount) === inv.amount_cents);
      if (gf && (await repo.adoptCreating(this.deps.db, inv.id, gf.id, this.now()))) {
        await repo.completeCreation(this.deps.db, inv.id, {
          btcpayId: gf.id,
          status: gf.status,
          additionalStatus: gf.additionalStatus,
          checkoutLink: gf.checkoutLink,
          expiresAt: secondsToIso(gf.expirationTime),
          at: this.now(),
        });
        await this.apply((await repo.findInvoice(this.deps.db, inv.id))!, gf, { reconcile: true });
        adopted++;
      } else if (!gf && Date.parse(inv.created_at) <= nowMs - CREATING_GIVE_UP_MS) {
        await repo.deleteCreating(this.deps.db, inv.id);
      }
    }
    return adopted;
  }

  // ---- reads ----

  async listMine(userId: string, q: { page?: number; pageSize?: number }) {
    const { page, pageSize, offset } = paging(q);
    const { rows, total } = await repo.listForUser(this.deps.db, userId, { offset, limit: pageSize });
    return { invoices: rows.map(toInvoiceDto), total, page, pageSize };
  }

  async transactions(actor: SessionUser, q: { page?: number; pageSize?: number; walletId?: string }) {
    const { page, pageSize, offset } = paging(q);
    if (q.walletId !== undefined) await usableWallet(this.deps.db, actor, q.walletId);
    const { rows, total } = await repo.transactions(this.deps.db, { userId: actor.id, walletId: q.walletId, offset, limit: pageSize });
    const transactions: Transaction[] = rows.map((r) => ({
      id: r.id,
      walletId: r.wallet_id,
      walletType: r.wallet_type,
      kind: r.kind,
      amountCents: r.amount_cents,
      balanceAfterCents: r.balance_after,
      reference: r.reference,
      createdAt: r.created_at,
    }));
    return { transactions, total, page, pageSize };
  }

  async adminList(q: { page?: number; pageSize?: number; query?: string; status?: InvoiceStatus }) {
    const { page, pageSize, offset } = paging(q);
    const { rows, total } = await repo.listForStaff(this.deps.db, { query: q.query, status: q.status, offset, limit: pageSize });
    const events = await repo.eventsOf(
      this.deps.db,
      rows.map((r) => r.id),
    );
    const byInvoice = new Map<string, InvoiceEvent[]>();
    for (const e of events) {
      const list = byInvoice.get(e.invoice_id) ?? [];
      list.push({ type: e.type, status: e.status, receivedAt: e.received_at, processedAt: e.processed_at, outcome: e.outcome });
      byInvoice.set(e.invoice_id, list);
    }
    const invoices: AdminInvoice[] = rows.map((r) => ({
      ...toInvoiceDto(r),
      userId: r.user_id,
      userEmail: r.user_email ?? null,
      events: byInvoice.get(r.id) ?? [],
    }));
    return { invoices, total, page, pageSize };
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

  async health(): Promise<PaymentServerHealth> {
    const now = this.now();
    const [lastWebhookAt, openInvoices] = await Promise.all([repo.lastWebhookAt(this.deps.db), repo.countOpenAll(this.deps.db, now)]);
    const h: PaymentServerHealth = {
      mode: this.mode,
      reachable: false,
      synchronized: false,
      version: null,
      storeId: this.storeId,
      webhookRegistered: false,
      lastWebhookAt,
      openInvoices,
      checkedAt: now,
      message: 'ok',
      problems: [],
    };
    // Each problem in English words (logs) and as a code the payment server page words in its language.
    const words: string[] = [];
    const problem = (text: string, said: Said) => {
      words.push(text);
      h.problems.push(said);
    };
    try {
      h.synchronized = (await this.provider.health()).synchronized;
      h.reachable = true;
      if (!h.synchronized) problem('BTCPay Server is still synchronizing its nodes: payments are seen late', { code: 'payment.syncing' });
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      h.message = `Payment server unreachable: ${detail}`;
      h.problems.push({ code: 'payment.unreachable', detail });
      return h;
    }
    try {
      h.version = (await this.provider.serverInfo()).version;
      const hooks = await this.provider.listWebhooks();
      h.webhookRegistered = hooks.some((w) => w.enabled && w.url === this.webhookUrl);
      if (!h.webhookRegistered) {
        problem(`no enabled webhook to ${this.webhookUrl} on the store: run npm run btcpay:connect`, {
          code: 'payment.no_webhook_to',
          params: { url: this.webhookUrl },
        });
      }
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      if (err instanceof GreenfieldError && err.kind === 'auth') problem(`BTCPay refused our API key: ${detail}`, { code: 'payment.key_refused', detail });
      else problem(`could not read the store: ${detail}`, { code: 'payment.store_unreadable', detail });
    }
    if (this.sandbox) {
      words.unshift('Sandbox mode: BTCPay Server is not configured, no real payments are taken');
      h.problems.unshift({ code: 'payment.sandbox' });
    }
    h.message = words.length ? words.join('; ') : 'ok';
    return h;
  }
}
