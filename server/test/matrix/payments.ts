import { signBody } from '../../modules/payments/sandbox.ts';
import { OWNER, OWNER_AND_STAFF, PUBLIC, SIGNED_IN, STAFF, type MatrixRow } from './vocabulary.ts';

/** The webhook secret of the matrix's app (authorization-matrix.test.ts sets it), so a row can sign as BTCPay does. */
export const MATRIX_WEBHOOK_SECRET = 'matrix-webhook-secret';
// A signed event of a type we do not use: answered 200 and ignored, whoever sends it.
const IGNORED_EVENT = JSON.stringify(
  {
    deliveryId: 'matrix-1',
    webhookId: 'w',
    originalDeliveryId: 'matrix-1',
    isRedelivery: false,
    type: 'PayoutCreated',
    timestamp: 1,
    storeId: 'sandbox-store',
  },
  null,
  2,
);

export const rows: MatrixRow[] = [
  { route: 'POST /api/create-btc-payment-invoice', expect: SIGNED_IN, allowed: 200, request: () => ({ payload: { amount: '10.00' } }) },
  // BTCPay's: no session, the signature is the authentication (refusals: payments.test.ts).
  {
    route: 'POST /api/webhooks/btcpay',
    expect: PUBLIC,
    allowed: 200,
    request: () => ({ payload: IGNORED_EVENT, headers: { 'content-type': 'application/json', 'btcpay-sig': signBody(MATRIX_WEBHOOK_SECRET, IGNORED_EVENT) } }),
  },
  { route: 'GET /api/payment-provider', expect: PUBLIC, allowed: 200 },
  { route: 'GET /api/my-invoices', expect: SIGNED_IN, allowed: 200, lists: ['invoice'] },
  { route: 'GET /api/wallet-transactions', expect: SIGNED_IN, allowed: 200 },
  {
    route: 'GET /api/wallet-transactions',
    target: 'provider.usdWallet',
    expect: OWNER,
    allowed: 200,
    notYours: 404,
    mirror: true,
    policy: ['wallets', 'use'],
    request: (c) => ({ url: `/api/wallet-transactions?walletId=${c.id('provider.usdWallet')}` }),
  },
  {
    route: 'GET /api/sandbox/invoices/:invoiceId',
    target: 'provider.invoice',
    expect: OWNER_AND_STAFF,
    allowed: 200,
    notYours: 404,
    mirror: true,
    policy: ['payments', 'view'],
  },
  {
    route: 'POST /api/sandbox/invoices/:invoiceId/simulate',
    target: 'provider.invoice',
    expect: OWNER_AND_STAFF,
    allowed: 200,
    notYours: 404,
    mirror: true,
    policy: [
      ['payments', 'view'],
      ['payments', 'simulate'],
    ],
    request: () => ({ payload: { action: 'expire' } }),
  },
  { route: 'GET /api/admin/get-btcpayserver-health', expect: STAFF, allowed: 200 },
  { route: 'GET /api/admin/get-invoices', expect: STAFF, allowed: 200 },
];
