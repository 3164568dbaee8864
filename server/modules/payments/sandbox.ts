import { createHmac } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { newId } from '../../core/ids.ts';
import { Conflict } from '../../core/errors.ts';
import { decimalToCents } from '../../../contract/amount.ts';
import type { SandboxAction } from '../../../contract/api/payments.ts';
import { toInvoice } from './btcpay.client.ts';
import type { CreateInvoiceRequest, GreenfieldInvoice, GreenfieldWebhook, PaymentProvider } from './provider.ts';

export const SANDBOX_STORE_ID = 'sandbox-store';
const WEBHOOK_ID = 'sandbox-webhook';

/** Sends one signed delivery to our webhook endpoint (the routes plugin wires it to app.inject). */
export type Deliver = (rawBody: string, signature: string) => Promise<number>;

/** BTCPay's signature header value: HMAC-SHA256 of the raw body with the secret's UTF-8 bytes. */
export function signBody(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest('hex')}`;
}

/**
 * A webhook body as BTCPay Server sends it: the event's own fields first, then the common ones,
 * serialised with 2-space indentation and no trailing newline.
 */
export function webhookBody(e: {
  type: string;
  deliveryId: string;
  originalDeliveryId?: string;
  isRedelivery?: boolean;
  timestamp: number;
  storeId: string;
  invoiceId: string;
  metadata: Record<string, unknown>;
  extra?: Record<string, unknown>;
}): string {
  return JSON.stringify(
    {
      ...e.extra,
      deliveryId: e.deliveryId,
      webhookId: WEBHOOK_ID,
      originalDeliveryId: e.originalDeliveryId ?? e.deliveryId,
      isRedelivery: e.isRedelivery ?? false,
      type: e.type,
      timestamp: e.timestamp,
      storeId: e.storeId,
      invoiceId: e.invoiceId,
      metadata: e.metadata,
    },
    null,
    2,
  );
}

type Row = {
  id: string;
  store_id: string;
  order_id: string;
  amount: string;
  paid_cents: number;
  status: string;
  additional_status: string;
  metadata_json: string;
  redirect_url: string;
  created_time: number;
  expiration_time: number;
  /** When a paid (Processing) invoice settles (ISO), and the payment it settles; null otherwise (0045). */
  settle_at: string | null;
  settle_cents: number | null;
};

/**
 * The payment provider when BTCPay is not configured (development, a fresh `npm start`): the same
 * invoices, kept in our database, and the same signed webhooks, delivered to the same endpoint in
 * the order BTCPay sends them. Its checkout page (/sandbox/checkout/:id) offers "simulate
 * payment", "simulate partial payment" and "simulate expiry". Refused in production (config.ts).
 */
/**
 * The payer's language, as the invoice's way back says it (/es/…, /pt/…): the sandbox's checkout
 * page is ours, so its link carries it as BTCPay's checkout follows defaultLanguage.
 */
function languagePrefix(redirectUrl: string): string {
  try {
    return /^\/(es|pt)\//.exec(new URL(redirectUrl).pathname)?.[0].slice(0, 3) ?? '';
  } catch {
    return '';
  }
}

export class SandboxProvider implements PaymentProvider {
  readonly mode = 'sandbox' as const;
  private readonly deps: AppDeps;
  private deliver: Deliver | null = null;
  /** Deliveries go one after another, as BTCPay sends them to one webhook. */
  private queue: Promise<void> = Promise.resolve();
  private readonly settleDelayMs: number;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private closed = false;

  constructor(deps: AppDeps, opts: { settleDelayMs: number }) {
    this.deps = deps;
    this.settleDelayMs = opts.settleDelayMs;
  }

  /**
   * Set when the app starts: invoices paid before (by a process that stopped within the settle
   * delay, or before 0045) are then settled, each at its time, as their lost timers would have.
   */
  setDeliverer(d: Deliver | null): void {
    this.deliver = d;
    if (d) this.queue = this.queue.then(() => this.resume());
  }

  /** Resolves when every delivery asked for so far has been made. */
  async idle(): Promise<void> {
    for (;;) {
      const q = this.queue;
      await q;
      if (q === this.queue && this.timers.size === 0) return;
      if (this.timers.size) await new Promise((r) => setTimeout(r, 5));
    }
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private nowSeconds(): number {
    return Math.floor(this.deps.clock.now().getTime() / 1000);
  }

  private row(id: string): Promise<Row | undefined> {
    return this.deps.db.selectFrom('sandbox_invoices').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The invoice as it stands now: one whose settle time has passed is settled first (see settle). */
  private async current(r: Row): Promise<Row> {
    if (r.status !== 'Processing' || r.settle_at === null || r.settle_at >= this.deps.clock.now().toISOString()) return r;
    await this.settle(r.id, true);
    return (await this.row(r.id)) ?? r;
  }

  private schedule(invoiceId: string, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      // Kept in `timers` until its webhooks are queued, so idle() waits for them.
      void this.settle(invoiceId, false)
        .catch((err: unknown) => this.deps.log.error({ err, invoiceId }, 'sandbox: settling failed'))
        .finally(() => this.timers.delete(timer));
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Schedules the settlement of every paid invoice still waiting for it (on start). */
  private async resume(): Promise<void> {
    try {
      const rows = await this.deps.db
        .selectFrom('sandbox_invoices')
        .select(['id', 'settle_at'])
        .where('settle_at', 'is not', null)
        .where('status', '=', 'Processing')
        .execute();
      const now = this.deps.clock.now().getTime();
      // Never later than this process's own delay: a clock set back must not hold a payment for ever.
      for (const r of rows) this.schedule(r.id, Math.min(this.settleDelayMs, Math.max(0, Date.parse(r.settle_at!) - now)));
    } catch (err) {
      this.deps.log.error({ err }, 'sandbox: resuming settlements failed');
    }
  }

  /**
   * Processing → Settled, with the Settled webhooks, once: the conditional UPDATE is the claim, so
   * of two processes on one database (or a timer and a read in one) only the one that moved it
   * sends them. `onlyIfDue`: a read settles only once settle_at is past; a timer is its own time.
   */
  private async settle(invoiceId: string, onlyIfDue: boolean): Promise<void> {
    if (!onlyIfDue && this.closed) return;
    const r = await this.row(invoiceId);
    if (!r || r.status !== 'Processing' || r.settle_at === null) return;
    if (onlyIfDue && r.settle_at >= this.deps.clock.now().toISOString()) return;
    const claimed = await this.deps.db
      .updateTable('sandbox_invoices')
      .set({ status: 'Settled', settle_at: null, settle_cents: null })
      .where('id', '=', invoiceId)
      .where('status', '=', 'Processing')
      .where('settle_at', '=', r.settle_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return;
    const settled: Row = { ...r, status: 'Settled', settle_at: null, settle_cents: null };
    // Paid before 0045 the payment is not known: the whole amount stands for it.
    this.send(settled, 'InvoicePaymentSettled', this.payment(r.settle_cents ?? r.paid_cents));
    this.send(settled, 'InvoiceSettled', { manuallyMarked: false, overPaid: false });
  }

  private toGreenfield(r: Row): GreenfieldInvoice {
    // Like BTCPay, an unpaid invoice is Expired once its time is up, whether or not anyone looked.
    const expired = r.status === 'New' && this.nowSeconds() >= r.expiration_time;
    return toInvoice({
      id: r.id,
      storeId: r.store_id,
      amount: r.amount,
      paidAmount: (r.paid_cents / 100).toFixed(2),
      currency: 'USD',
      status: expired ? 'Expired' : r.status,
      additionalStatus: r.additional_status,
      checkoutLink: `${this.deps.config.publicUrl}${languagePrefix(r.redirect_url)}/sandbox/checkout/${r.id}`,
      createdTime: r.created_time,
      expirationTime: r.expiration_time,
      metadata: JSON.parse(r.metadata_json),
    });
  }

  async createInvoice(req: CreateInvoiceRequest): Promise<GreenfieldInvoice> {
    const now = this.nowSeconds();
    const row: Row = {
      id: newId(22),
      store_id: SANDBOX_STORE_ID,
      order_id: req.metadata.orderId,
      amount: req.amount,
      paid_cents: 0,
      status: 'New',
      additional_status: 'None',
      metadata_json: JSON.stringify(req.metadata),
      redirect_url: req.checkout.redirectURL,
      created_time: now,
      expiration_time: now + req.checkout.expirationMinutes * 60,
      settle_at: null,
      settle_cents: null,
    };
    await this.deps.db.insertInto('sandbox_invoices').values(row).execute();
    this.send(row, 'InvoiceCreated');
    return this.toGreenfield(row);
  }

  async getInvoice(invoiceId: string): Promise<GreenfieldInvoice | null> {
    const r = await this.row(invoiceId);
    return r ? this.toGreenfield(await this.current(r)) : null;
  }

  async findInvoicesByOrderId(orderId: string): Promise<GreenfieldInvoice[]> {
    const rows = await this.deps.db.selectFrom('sandbox_invoices').selectAll().where('order_id', '=', orderId).execute();
    const out: GreenfieldInvoice[] = [];
    for (const r of rows) out.push(this.toGreenfield(await this.current(r)));
    return out;
  }

  async health() {
    return { synchronized: true };
  }

  async serverInfo() {
    return { version: 'sandbox' };
  }

  async listWebhooks(): Promise<GreenfieldWebhook[]> {
    return [{ id: WEBHOOK_ID, enabled: true, automaticRedelivery: false, url: `${this.deps.config.publicUrl}/api/webhooks/btcpay` }];
  }

  /** The redirect URL the invoice was created with (the wallet page). */
  async redirectUrl(invoiceId: string): Promise<string | null> {
    return (await this.row(invoiceId))?.redirect_url ?? null;
  }

  /**
   * Plays a payer: 'pay' (received → processing, then settled after a moment, as a confirmation
   * would; the moment is kept with the invoice, so a restart meanwhile does not lose it),
   * 'partial' (half of what is due: the invoice stays New, PaidPartial), 'expire'.
   */
  async simulate(invoiceId: string, action: SandboxAction): Promise<GreenfieldInvoice> {
    const found = await this.row(invoiceId);
    if (!found) throw new Error('sandbox: unknown invoice');
    const r = await this.current(found);
    if (this.toGreenfield(r).status !== 'New') throw new Conflict('payment.sandbox_invoice_closed');
    const due = decimalToCents(r.amount)!;
    const update = async (set: Partial<Row>) => {
      await this.deps.db.updateTable('sandbox_invoices').set(set).where('id', '=', r.id).execute();
      return (await this.row(r.id))!;
    };
    if (action === 'expire') {
      const now = await update({ status: 'Expired', additional_status: r.paid_cents > 0 ? 'PaidPartial' : 'None' });
      this.send(now, 'InvoiceExpired', { partiallyPaid: r.paid_cents > 0 });
      return this.toGreenfield(now);
    }
    if (action === 'partial') {
      const part = Math.max(1, Math.floor((due - r.paid_cents) / 2));
      const now = await update({ paid_cents: r.paid_cents + part, additional_status: 'PaidPartial' });
      this.send(now, 'InvoiceReceivedPayment', this.payment(part));
      return this.toGreenfield(now);
    }
    const rest = due - r.paid_cents;
    // When it settles is stored with it: a restart within the delay must not lose the payment.
    const settleAt = new Date(this.deps.clock.now().getTime() + this.settleDelayMs).toISOString();
    const now = await update({ paid_cents: due, status: 'Processing', additional_status: 'None', settle_at: settleAt, settle_cents: rest });
    this.send(now, 'InvoiceReceivedPayment', this.payment(rest));
    this.send(now, 'InvoiceProcessing', { overPaid: false });
    this.schedule(now.id, this.settleDelayMs);
    return this.toGreenfield(now);
  }

  private payment(cents: number) {
    return {
      afterExpiration: false,
      paymentMethodId: 'BTC-CHAIN',
      payment: {
        id: newId(16),
        receivedDate: this.nowSeconds(),
        value: (cents / 100).toFixed(2),
        fee: '0.00',
        status: 'Settled',
        destination: 'sandbox-address',
      },
    };
  }

  private send(r: Row, type: string, extra?: Record<string, unknown>): void {
    const body = webhookBody({
      type,
      deliveryId: newId(22),
      timestamp: this.nowSeconds(),
      storeId: r.store_id,
      invoiceId: r.id,
      metadata: JSON.parse(r.metadata_json),
      extra,
    });
    const signature = signBody(this.deps.config.btcpay.webhookSecret, body);
    this.queue = this.queue.then(async () => {
      if (!this.deliver) return;
      try {
        const status = await this.deliver(body, signature);
        if (status < 200 || status > 299) this.deps.log.warn({ status, type }, 'sandbox: webhook delivery refused');
      } catch (err) {
        this.deps.log.warn({ err, type }, 'sandbox: webhook delivery failed');
      }
    });
  }
}
