import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { signBody, webhookBody } from '../../modules/payments/sandbox.ts';

// A fake BTCPay Server for tests: a real HTTP server on 127.0.0.1 speaking the Greenfield subset
// we use (INTEGRATIONS.md): `Authorization: token <key>`, invoices with decimal-string amounts and
// Unix-second times, 422 `[{path, message}]` validation errors, health, server info, the current
// API key, webhooks. It delivers webhooks as BTCPay does: 2-space JSON, the event's own fields
// first, signed with BTCPay-Sig over the exact bytes, redeliveries with a new deliveryId and the
// same originalDeliveryId. Tests steer it (statuses, holds, outages) through its methods.

export interface FakeInvoice {
  id: string;
  storeId: string;
  amount: string;
  currency: string;
  status: string;
  additionalStatus: string;
  checkoutLink: string;
  createdTime: number;
  expirationTime: number;
  monitoringExpiration: number;
  metadata: Record<string, unknown>;
  checkout: Record<string, unknown>;
}

export interface FakeWebhook {
  id: string;
  enabled: boolean;
  automaticRedelivery: boolean;
  url: string;
  authorizedEvents: { everything: boolean; specificEvents: string[] };
  secret?: string;
}

export interface Delivery {
  body: string;
  signature: string;
  deliveryId: string;
  originalDeliveryId: string;
}

export class FakeBtcpay {
  readonly app: FastifyInstance;
  url = '';
  readonly storeId = 'FakeStore' + randomBytes(4).toString('hex');
  readonly apiKey = randomBytes(20).toString('hex');
  permissions: string[];
  synchronized = true;
  version = '2.4.1';
  readonly invoices = new Map<string, FakeInvoice>();
  readonly webhooks: FakeWebhook[] = [];
  /** Every request it got: method, url, authorization header and body. */
  readonly requests: { method: string; url: string; auth: string | undefined; body: unknown }[] = [];
  /** Answer every request with this status (e.g. 503) while set. */
  failWith: number | null = null;
  /** The next invoice creation answers 422 with this message. */
  rejectNextCreate: string | null = null;
  /** While set, GET of an invoice waits for this promise (then answers); `onHold` is called when one arrives. */
  holdReads: Promise<void> | null = null;
  onHold: (() => void) | null = null;
  /** Its clock (ms): tests hand it the app's ManualClock so expiry times agree. */
  now: () => number = () => Date.now();
  private seq = 0;

  constructor() {
    this.permissions = [`btcpay.store.canmodifystoresettings:${this.storeId}`];
    const app = Fastify();
    this.app = app;
    app.addHook('onRequest', async (req, reply) => {
      this.requests.push({ method: req.method, url: req.url, auth: req.headers.authorization, body: undefined });
      if (this.failWith) return reply.code(this.failWith).send({ code: 'unavailable', message: 'fake outage' });
      if (req.url === '/api/v1/health') return;
      if (req.headers.authorization !== `token ${this.apiKey}`)
        return reply.code(401).send({ code: 'unauthenticated', message: 'Authentication is required for accessing this endpoint' });
    });
    app.addHook('preHandler', async (req) => {
      this.requests[this.requests.length - 1].body = req.body;
    });
    const store = (params: unknown, reply: { code(n: number): { send(b: unknown): unknown } }) => {
      if ((params as { storeId: string }).storeId !== this.storeId) {
        reply.code(403).send({ code: 'unauthorized', message: 'not this store' });
        return false;
      }
      return true;
    };

    app.get('/api/v1/health', async () => ({ synchronized: this.synchronized }));
    app.get('/api/v1/server/info', async () => ({
      version: this.version,
      onion: null,
      supportedPaymentMethods: ['BTC-CHAIN'],
      fullySynched: this.synchronized,
      syncStatus: [],
    }));
    app.get('/api/v1/api-keys/current', async () => ({ apiKey: this.apiKey, label: 'xg-marketplace', permissions: this.permissions }));

    app.post('/api/v1/stores/:storeId/invoices', async (req, reply) => {
      if (!store(req.params, reply)) return;
      const b = req.body as { amount?: unknown; currency?: string; metadata?: Record<string, unknown>; checkout?: Record<string, unknown> };
      if (this.rejectNextCreate) {
        const message = this.rejectNextCreate;
        this.rejectNextCreate = null;
        return reply.code(422).send([{ path: 'amount', message }]);
      }
      if (typeof b.amount !== 'string' || !/^\d+(\.\d+)?$/.test(b.amount) || Number(b.amount) <= 0) {
        return reply.code(422).send([{ path: 'amount', message: 'The amount should be a positive decimal' }]);
      }
      const now = Math.floor(this.now() / 1000);
      const id = `Fk${++this.seq}${randomBytes(8).toString('hex')}`;
      const minutes = Number(b.checkout?.expirationMinutes ?? 15);
      const inv: FakeInvoice = {
        id,
        storeId: this.storeId,
        // BTCPay answers with its own number of decimals: "25.5" for "25.50".
        amount: String(Number(b.amount)),
        currency: b.currency ?? 'USD',
        status: 'New',
        additionalStatus: 'None',
        checkoutLink: `${this.url}/i/${id}`,
        createdTime: now,
        expirationTime: now + minutes * 60,
        monitoringExpiration: now + minutes * 60 + 86400,
        metadata: b.metadata ?? {},
        checkout: b.checkout ?? {},
      };
      this.invoices.set(id, inv);
      return { ...inv, paidAmount: '0', type: 'Standard', archived: false };
    });

    app.get('/api/v1/stores/:storeId/invoices', async (req, reply) => {
      if (!store(req.params, reply)) return;
      const orderId = (req.query as { orderId?: string }).orderId;
      return [...this.invoices.values()].filter((i) => !orderId || i.metadata.orderId === orderId);
    });

    app.get('/api/v1/stores/:storeId/invoices/:id', async (req, reply) => {
      if (!store(req.params, reply)) return;
      if (this.holdReads) {
        this.onHold?.();
        await this.holdReads;
      }
      const inv = this.invoices.get((req.params as { id: string }).id);
      if (!inv) return reply.code(404).send({ code: 'invoice-not-found', message: 'The invoice was not found' });
      return { ...inv, paidAmount: inv.status === 'Settled' ? inv.amount : '0' };
    });

    app.get('/api/v1/stores/:storeId/webhooks', async (req, reply) => {
      if (!store(req.params, reply)) return;
      return this.webhooks.map(({ secret: _secret, ...w }) => w);
    });
    app.post('/api/v1/stores/:storeId/webhooks', async (req, reply) => {
      if (!store(req.params, reply)) return;
      const b = req.body as Omit<FakeWebhook, 'id'>;
      const w: FakeWebhook = {
        id: `wh${++this.seq}`,
        enabled: b.enabled ?? true,
        automaticRedelivery: b.automaticRedelivery ?? true,
        url: b.url,
        authorizedEvents: b.authorizedEvents ?? { everything: true, specificEvents: [] },
        secret: b.secret,
      };
      this.webhooks.push(w);
      const { secret: _secret, ...shown } = w;
      return { ...shown, secret: w.secret };
    });
    app.put('/api/v1/stores/:storeId/webhooks/:id', async (req, reply) => {
      if (!store(req.params, reply)) return;
      const w = this.webhooks.find((x) => x.id === (req.params as { id: string }).id);
      if (!w) return reply.code(404).send({ code: 'webhook-not-found', message: 'The webhook was not found' });
      Object.assign(w, req.body as Partial<FakeWebhook>);
      const { secret: _secret, ...shown } = w;
      return shown;
    });
  }

  async start(): Promise<this> {
    this.url = await this.app.listen({ host: '127.0.0.1', port: 0 });
    return this;
  }

  async stop(): Promise<void> {
    await this.app.close();
  }

  invoice(id: string): FakeInvoice {
    const inv = this.invoices.get(id);
    if (!inv) throw new Error(`fake BTCPay has no invoice ${id}`);
    return inv;
  }

  set(id: string, status: string, additionalStatus = 'None'): void {
    Object.assign(this.invoice(id), { status, additionalStatus });
  }

  /** A webhook body and signature for one event of an invoice, as BTCPay would send it. */
  event(id: string, type: string, opts: { extra?: Record<string, unknown>; originalDeliveryId?: string; secret: string; storeId?: string }): Delivery {
    const inv = this.invoice(id);
    const deliveryId = randomBytes(11).toString('hex');
    const originalDeliveryId = opts.originalDeliveryId ?? deliveryId;
    const body = webhookBody({
      type,
      deliveryId,
      originalDeliveryId,
      isRedelivery: originalDeliveryId !== deliveryId,
      timestamp: Math.floor(this.now() / 1000),
      storeId: opts.storeId ?? this.storeId,
      invoiceId: inv.id,
      metadata: inv.metadata,
      extra: opts.extra ?? defaultExtra(type),
    });
    return { body, signature: signBody(opts.secret, body), deliveryId, originalDeliveryId };
  }
}

/** The fields BTCPay adds to each event type. */
export function defaultExtra(type: string): Record<string, unknown> {
  const payment = {
    afterExpiration: false,
    paymentMethodId: 'BTC-CHAIN',
    payment: {
      id: randomBytes(8).toString('hex'),
      receivedDate: Math.floor(Date.now() / 1000),
      value: '0.00041',
      fee: '0.0000021',
      status: 'Settled',
      destination: 'bc1qfake',
    },
  };
  switch (type) {
    case 'InvoiceSettled':
      return { manuallyMarked: false, overPaid: false };
    case 'InvoiceProcessing':
      return { overPaid: false };
    case 'InvoiceExpired':
      return { partiallyPaid: false };
    case 'InvoiceInvalid':
      return { manuallyMarked: false };
    case 'InvoiceReceivedPayment':
    case 'InvoicePaymentSettled':
      return payment;
    default:
      return {};
  }
}
