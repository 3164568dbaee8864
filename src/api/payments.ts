import { api } from './client';
import type { paymentsApi as contract } from '../../contract/api/payments.ts';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

type Payments = typeof contract;
type CreateInvoice = Payments['POST /api/create-btc-payment-invoice'];
type MyInvoices = Payments['GET /api/my-invoices'];
type Transactions = Payments['GET /api/wallet-transactions'];
type SandboxGet = Payments['GET /api/sandbox/invoices/:invoiceId'];
type SandboxSimulate = Payments['POST /api/sandbox/invoices/:invoiceId/simulate'];
type Health = Payments['GET /api/admin/get-btcpayserver-health'];
type AdminInvoices = Payments['GET /api/admin/get-invoices'];

export type CreatedInvoice = ResponseOf<CreateInvoice>;
export type InvoicesPage = ResponseOf<MyInvoices>;
/** A Bitcoin top-up of the user's USD wallet, as GET /api/my-invoices lists it. */
export type Invoice = InvoicesPage['invoices'][number];
export type InvoiceStatus = Invoice['status'];
export type TransactionsPage = ResponseOf<Transactions>;
/** One ledger entry of the user's wallets, with the balance right after it. */
export type Transaction = TransactionsPage['transactions'][number];
export type PaymentMode = ResponseOf<Payments['GET /api/payment-provider']>['mode'];
export type SandboxInvoice = ResponseOf<SandboxGet>['invoice'];
export type SandboxAction = BodyOf<SandboxSimulate>['action'];
export type PaymentServerHealth = ResponseOf<Health>;
export type AdminInvoicesPage = ResponseOf<AdminInvoices>;
/** An invoice as staff see it: its owner and every webhook event recorded for it. */
export type AdminInvoice = AdminInvoicesPage['invoices'][number];

export type PageQuery = Required<QueryOf<MyInvoices>>;
/** The staff list's filter: every field set; an empty query or status means any (and is not sent). */
export type AdminInvoicesQuery = Required<Pick<QueryOf<AdminInvoices>, 'page' | 'pageSize'>> & { query: string; status: InvoiceStatus | '' };

/** The invoice id as one path segment. */
const seg = (id: string) => encodeURIComponent(id);

export const paymentsApi = {
  /** `amount` is the decimal text of US dollars ("25.00"): sent as text, never through a float. */
  createInvoice: (amount: string) => api.post<CreatedInvoice>('create-btc-payment-invoice', { json: { amount } satisfies BodyOf<CreateInvoice> }),
  provider: () => api.get<ResponseOf<Payments['GET /api/payment-provider']>>('payment-provider', { redirectOnAuth: false }),
  myInvoices: (q: PageQuery) => api.get<InvoicesPage>('my-invoices', { searchParams: q }),
  transactions: (q: PageQuery) => api.get<TransactionsPage>('wallet-transactions', { searchParams: q }),
  sandboxInvoice: (invoiceId: string) => api.get<ResponseOf<SandboxGet>>(`sandbox/invoices/${seg(invoiceId)}`),
  /** A refusal (403: not staff, not on the server) is shown on the page; it is not a reason to sign in again. */
  simulate: (invoiceId: string, action: SandboxAction) =>
    api.post<ResponseOf<SandboxSimulate>>(`sandbox/invoices/${seg(invoiceId)}/simulate`, {
      json: { action } satisfies BodyOf<SandboxSimulate>,
      redirectOnAuth: false,
    }),
  health: () => api.get<PaymentServerHealth>('admin/get-btcpayserver-health'),
  adminInvoices: ({ query, status, ...paging }: AdminInvoicesQuery) =>
    api.get<AdminInvoicesPage>('admin/get-invoices', {
      searchParams: { ...paging, ...(query.trim() ? { query: query.trim() } : {}), ...(status ? { status } : {}) },
    }),
};
