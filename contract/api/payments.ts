import { Type, type Static } from 'typebox';
import { Errors, PageInfo, Paging, SaidSchema } from './common.ts';
import type { RouteContract } from './types.ts';

/** BTCPay Server's invoice statuses (Greenfield), kept as BTCPay spells them. */
export const InvoiceStatusSchema = Type.Union([
  Type.Literal('New'),
  Type.Literal('Processing'),
  Type.Literal('Settled'),
  Type.Literal('Expired'),
  Type.Literal('Invalid'),
]);
export type InvoiceStatus = Static<typeof InvoiceStatusSchema>;

/** Where the payments come from: BTCPay Server, or the local sandbox when BTCPay is not configured. */
export const PaymentModeSchema = Type.Union([Type.Literal('btcpay'), Type.Literal('sandbox')]);
export type PaymentMode = Static<typeof PaymentModeSchema>;

/**
 * A Bitcoin top-up of the user's USD wallet. `invoiceId` is BTCPay's invoice id (the one its
 * webhooks and our `invoiceStatusUpdate` events carry). `additionalStatus`: None, PaidLate,
 * PaidPartial, Marked, PaidOver. `creditedAt` is set once the wallet was credited (exactly once).
 */
export const InvoiceSchema = Type.Object({
  invoiceId: Type.String(),
  walletId: Type.String(),
  amountCents: Type.Integer(),
  status: InvoiceStatusSchema,
  additionalStatus: Type.String(),
  checkoutLink: Type.String(),
  createdAt: Type.String(),
  expiresAt: Type.String(),
  creditedAt: Type.Union([Type.String(), Type.Null()]),
});
export type Invoice = Static<typeof InvoiceSchema>;

/** One webhook delivery (or reconciliation) recorded for an invoice: what support reads. */
export const InvoiceEventSchema = Type.Object({
  /** BTCPay's event type as sent (InvoiceSettled…), or `Reconciled` when the cron job applied what BTCPay said. */
  type: Type.String(),
  /** The invoice's status BTCPay gave when the event was processed (null while waiting to be processed). */
  status: Type.Union([Type.String(), Type.Null()]),
  receivedAt: Type.String(),
  processedAt: Type.Union([Type.String(), Type.Null()]),
  /** What processing did: credited, no_change, ignored… */
  outcome: Type.Union([Type.String(), Type.Null()]),
});
export type InvoiceEvent = Static<typeof InvoiceEventSchema>;

/** An invoice as staff see it: with its owner and every event. */
export const AdminInvoiceSchema = Type.Object({
  ...InvoiceSchema.properties,
  userId: Type.String(),
  userEmail: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(InvoiceEventSchema),
});
export type AdminInvoice = Static<typeof AdminInvoiceSchema>;

/** One ledger entry of the user's wallets, with the wallet's balance right after it. */
export const TransactionSchema = Type.Object({
  id: Type.Integer(),
  walletId: Type.String(),
  walletType: Type.Union([Type.Literal('USD'), Type.Literal('XG-PROMO-WALLET')]),
  /** promo_credit, ad_payment, ad_refund, bump_payment, invoice_credit, adjustment */
  kind: Type.String(),
  amountCents: Type.Integer(),
  balanceAfterCents: Type.Integer(),
  /** What it was for: an ad id, an invoice id, a promo code id. */
  reference: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  /**
   * An ad's payment, refund, bump or renewal: the ad's title (its last stored one once the ad is
   * deleted; null when that is no longer stored either). Null for other kinds.
   */
  adTitle: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** An ad's payment, refund, bump or renewal: whether the ad was deleted since. Null for other kinds. */
  adDeleted: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  /** A promo credit: the code as it was redeemed. Null for other kinds. */
  promoCode: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** A Bitcoin top-up: BTCPay's invoice id. Null for other kinds. */
  invoiceId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type Transaction = Static<typeof TransactionSchema>;

/** The payment server as the back office sees it. */
export const PaymentServerHealthSchema = Type.Object({
  mode: PaymentModeSchema,
  reachable: Type.Boolean(),
  synchronized: Type.Boolean(),
  version: Type.Union([Type.String(), Type.Null()]),
  storeId: Type.Union([Type.String(), Type.Null()]),
  webhookRegistered: Type.Boolean(),
  lastWebhookAt: Type.Union([Type.String(), Type.Null()]),
  openInvoices: Type.Integer(),
  checkedAt: Type.String(),
  /** Plain English words on what is wrong (or "ok"), for logs. */
  message: Type.String(),
  /** The same, each problem as a code the page words in its language (empty when nothing is wrong). */
  problems: Type.Array(SaidSchema),
});
export type PaymentServerHealth = Static<typeof PaymentServerHealthSchema>;

/** A sandbox invoice on the sandbox checkout page. */
export const SandboxInvoiceSchema = Type.Object({
  invoiceId: Type.String(),
  amountCents: Type.Integer(),
  status: InvoiceStatusSchema,
  additionalStatus: Type.String(),
  expiresAt: Type.String(),
  /** The wallet page to return to. */
  redirectUrl: Type.String(),
  /** Whether this visitor may press the simulation buttons (staff, or the server's own machine). */
  canSimulate: Type.Boolean(),
});
export type SandboxInvoice = Static<typeof SandboxInvoiceSchema>;

export const SandboxActionSchema = Type.Union([Type.Literal('pay'), Type.Literal('partial'), Type.Literal('expire')]);
export type SandboxAction = Static<typeof SandboxActionSchema>;

const Pages = Type.Object({ ...Paging });

/** The payments module's routes: "METHOD /path" → the schemas of its request and answers. */
export const paymentsApi = {
  /**
   * Creates a BTCPay invoice topping up the user's USD wallet by `amount` US dollars (10.00–1,000.00,
   * at most two decimals; a JSON number or a decimal string). At most 5 open invoices per user (409).
   * 502 when the payment server cannot be reached (nothing is created).
   */
  'POST /api/create-btc-payment-invoice': {
    // String first: ajv coerces types, and a decimal string must reach the rule as written.
    body: Type.Object({ amount: Type.Union([Type.String({ maxLength: 20 }), Type.Number()]) }),
    response: { 200: Type.Object({ invoiceId: Type.String(), checkoutLink: Type.String() }), ...Errors },
  },
  /**
   * BTCPay's webhook (public; BTCPay-Sig checked on the raw bytes, 401 when wrong). Each delivery
   * is stored, answered at once and processed after; unknown events and invoices are answered 200
   * and ignored.
   */
  'POST /api/webhooks/btcpay': {
    consumes: ['application/json'],
    response: { 200: Type.Object({ received: Type.Literal(true) }), ...Errors },
  },
  /** Where payments go now: 'sandbox' when BTCPay is not configured (public: the banner and the wallet say so). */
  'GET /api/payment-provider': {
    response: { 200: Type.Object({ mode: PaymentModeSchema }), ...Errors },
  },
  /** The user's Bitcoin invoices, newest first. */
  'GET /api/my-invoices': {
    querystring: Pages,
    response: { 200: Type.Object({ invoices: Type.Array(InvoiceSchema), ...PageInfo }), ...Errors },
  },
  /** Every ledger entry of the user's wallets (or of one of them), newest first, with the balance after each. */
  'GET /api/wallet-transactions': {
    querystring: Type.Object({ ...Paging, walletId: Type.Optional(Type.String({ maxLength: 40 })) }),
    response: { 200: Type.Object({ transactions: Type.Array(TransactionSchema), ...PageInfo }), ...Errors },
  },
  /** The sandbox checkout page's invoice: its owner or staff; 404 to anyone else and when BTCPay is configured. */
  'GET /api/sandbox/invoices/:invoiceId': {
    params: Type.Object({ invoiceId: Type.String({ maxLength: 64 }) }),
    response: { 200: Type.Object({ invoice: SandboxInvoiceSchema }), ...Errors },
  },
  /**
   * Sandbox only: plays what a real payer would (pay in full, pay part, let it expire); BTCPay's
   * signed webhooks follow to /api/webhooks/btcpay. Staff, or a request from the server's own
   * machine (loopback, not through a proxy), may; anyone else 403.
   */
  'POST /api/sandbox/invoices/:invoiceId/simulate': {
    params: Type.Object({ invoiceId: Type.String({ maxLength: 64 }) }),
    body: Type.Object({ action: SandboxActionSchema }),
    response: { 200: Type.Object({ invoice: SandboxInvoiceSchema }), ...Errors },
  },
  /** Staff: the payment server's health (asks BTCPay now). */
  'GET /api/admin/get-btcpayserver-health': {
    response: { 200: PaymentServerHealthSchema, ...Errors },
  },
  /** Staff: recent invoices with their owner and events; `query` matches an invoice id, a user id or an e-mail. */
  'GET /api/admin/get-invoices': {
    querystring: Type.Object({
      ...Paging,
      query: Type.Optional(Type.String({ maxLength: 254 })),
      status: Type.Optional(InvoiceStatusSchema),
    }),
    response: { 200: Type.Object({ invoices: Type.Array(AdminInvoiceSchema), ...PageInfo }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
