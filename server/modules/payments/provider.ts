import type { InvoiceStatus, PaymentMode } from '../../../contract/api/payments.ts';

/** Greenfield's times (Unix seconds) as our ISO strings. */
export const secondsToIso = (s: number) => new Date(s * 1000).toISOString();

/** An invoice as Greenfield answers it (the fields we read; times are Unix seconds, amounts decimal strings). */
export interface GreenfieldInvoice {
  id: string;
  storeId: string;
  amount: string;
  currency: string;
  status: InvoiceStatus;
  additionalStatus: string;
  checkoutLink: string;
  createdTime: number;
  expirationTime: number;
  metadata: Record<string, unknown>;
}

export interface CreateInvoiceRequest {
  amount: string;
  currency: 'USD';
  metadata: { orderId: string; userId: string; walletId: string };
  /** defaultLanguage: the checkout page's language, one of BTCPay's checkout locales (wwwroot/locales/checkout: en, es-ES, pt-BR…). */
  checkout: { speedPolicy: 'MediumSpeed'; expirationMinutes: number; paymentTolerance: number; redirectURL: string; defaultLanguage: string };
}

/** A webhook as Greenfield lists it. */
export interface GreenfieldWebhook {
  id: string;
  enabled: boolean;
  automaticRedelivery: boolean;
  url: string;
  authorizedEvents?: { everything: boolean; specificEvents: string[] };
}

export type GreenfieldFailure = 'unreachable' | 'validation' | 'business' | 'auth' | 'not_found';

/** A Greenfield call that did not succeed: `kind` says how; `message` is BTCPay's own words when it gave some. */
export class GreenfieldError extends Error {
  readonly kind: GreenfieldFailure;
  readonly status: number | null;
  constructor(kind: GreenfieldFailure, message: string, status: number | null = null) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

/** What the payments service needs of a payment server: BTCPay's Greenfield API, or the sandbox. */
export interface PaymentProvider {
  readonly mode: PaymentMode;
  createInvoice(req: CreateInvoiceRequest): Promise<GreenfieldInvoice>;
  /** null when the payment server does not know it (404). */
  getInvoice(invoiceId: string): Promise<GreenfieldInvoice | null>;
  /** The invoices carrying our order id (to find one created just before a crash). */
  findInvoicesByOrderId(orderId: string): Promise<GreenfieldInvoice[]>;
  health(): Promise<{ synchronized: boolean }>;
  serverInfo(): Promise<{ version: string | null }>;
  listWebhooks(): Promise<GreenfieldWebhook[]>;
}

/** The webhook events we register for (INTEGRATIONS.md). */
export const WEBHOOK_EVENTS = [
  'InvoiceCreated',
  'InvoiceReceivedPayment',
  'InvoicePaymentSettled',
  'InvoiceProcessing',
  'InvoiceSettled',
  'InvoiceExpired',
  'InvoiceInvalid',
] as const;

/** Every event type we store and process; newer servers send the last three too. Anything else is answered 200 and ignored. */
export const KNOWN_EVENTS: ReadonlySet<string> = new Set([...WEBHOOK_EVENTS, 'InvoiceExpiredPaidPartial', 'InvoicePaidAfterExpiration', 'InvoiceRefund']);

const STATUSES: ReadonlySet<string> = new Set(['New', 'Processing', 'Settled', 'Expired', 'Invalid']);
export const isInvoiceStatus = (s: unknown): s is InvoiceStatus => typeof s === 'string' && STATUSES.has(s);
