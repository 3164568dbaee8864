import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { setCurrentInvoice, setInvoiceRefresher, type InvoiceStatusUpdate } from './socket';
import { paymentsApi, type AdminInvoicesQuery, type CreatedInvoice, type Invoice, type PageQuery } from '../api/payments';
import { decimalPointText } from '../lib/money';

// The payments data areas: the user's Bitcoin invoices and wallet history (wallet screen), the
// invoice the wallet screen watches, the payment provider's mode, and the staff's payment-server
// screen (health and invoices with their events).

export const INVOICES_PAGE_SIZE = 10;
export const TRANSACTIONS_PAGE_SIZE = 10;
export const ADMIN_INVOICES_PAGE_SIZE = 20;
/** Bursts of invoice events (received, processing, settled) are read once, this long after the last. */
export const INVOICE_REFRESH_DELAY_MS = 150;

const firstPage = (pageSize: number): PageQuery => ({ page: 1, pageSize });

export const myInvoicesStore = createResource((q: PageQuery) => paymentsApi.myInvoices(q));
export const invoicesQuery = proxy(firstPage(INVOICES_PAGE_SIZE));
export const transactionsStore = createResource((q: PageQuery) => paymentsApi.transactions(q));
export const transactionsQuery = proxy(firstPage(TRANSACTIONS_PAGE_SIZE));
/** Where payments go: BTCPay Server, or the local sandbox. */
export const paymentModeStore = createResource(async () => (await paymentsApi.provider()).mode);

/**
 * The invoice the wallet screen follows (the last one created here). Its id is kept in
 * localStorage (not sessionStorage: BTCPay's redirect back lands in the checkout's own tab, which
 * was opened before the invoice existed), so the wallet shows it again after a reload, after that
 * redirect, or in another tab opening the wallet; its status is read from GET /api/my-invoices and
 * then follows the socket's events. Logout and sign-in forget it.
 */
export const currentInvoice = proxy({
  id: null as string | null,
  /** The server's record of it, once read from the invoices list. */
  invoice: null as Invoice | null,
  checkoutLink: null as string | null,
  /** Created by this page a moment ago: it is new, even before the list is read again. */
  fresh: false,
  /** `invoice` was asked for after the last socket update about it arrived: it knows at least as much, and wins over it. */
  recordIsNewer: false,
});

/** How many socket updates about the watched invoice arrived: a read asked for before the last one knows less than it. */
let updatesSeen = 0;

const STORAGE_KEY = 'xg.currentInvoice';

function remember(id: string | null): void {
  try {
    if (id) localStorage.setItem(STORAGE_KEY, id);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage refused (private mode, quota): the invoice is followed for this page only
  }
}

function recalled(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Follows `id` (or nothing): the socket keeps its updates, and the id survives a reload. */
export function watchInvoice(id: string | null, checkoutLink: string | null = null, fresh = false): void {
  Object.assign(currentInvoice, { id, invoice: null, checkoutLink, fresh, recordIsNewer: false });
  setCurrentInvoice(id);
  remember(id);
}

/** Follows an invoice of the list (its checkout was opened from there). */
export function followInvoice(invoice: Readonly<Invoice>): void {
  watchInvoice(invoice.invoiceId, invoice.checkoutLink);
  currentInvoice.invoice = { ...invoice }; // a copy: a snapshot is frozen
}

/**
 * The amount as typed, in the form the shared rule reads (decimalPointText: "$20,50" → "20.50"). A
 * comma before three digits is a thousands separator ("1,000"): left alone, and refused by the rule.
 */
export function amountText(typed: string): string {
  return decimalPointText(typed);
}

/** On opening the wallet: follow the invoice remembered from before (this tab or another). */
export function restoreCurrentInvoice(): void {
  const id = recalled();
  if (id && id !== currentInvoice.id) watchInvoice(id);
  else setCurrentInvoice(currentInvoice.id);
}

/**
 * Takes the watched invoice's record from a page of the user's invoices; `newest` when it is the
 * first page; `seen`: updatesSeen when the page was asked for.
 */
function adoptCurrent(watched: string, invoices: readonly Invoice[], newest: boolean, seen: number): void {
  if (currentInvoice.id !== watched) return; // another invoice is watched since this was asked
  const found = invoices.find((i) => i.invoiceId === watched);
  if (found) {
    currentInvoice.invoice = found;
    currentInvoice.checkoutLink = found.checkoutLink;
    currentInvoice.fresh = false;
    // The server announces a change after committing it: a record asked for after the update knows it.
    currentInvoice.recordIsNewer = seen === updatesSeen;
  } else if (newest && !currentInvoice.invoice && !currentInvoice.fresh) {
    watchInvoice(null); // remembered from another account, or long gone: not this user's to show
  }
}

export async function loadInvoices(change: Partial<PageQuery> = {}) {
  Object.assign(invoicesQuery, change);
  const watched = currentInvoice.id;
  const seen = updatesSeen;
  const data = await myInvoicesStore.load({ ...invoicesQuery });
  if (data && watched) adoptCurrent(watched, data.invoices, data.page === 1, seen);
  return data;
}

export function loadTransactions(change: Partial<PageQuery> = {}) {
  Object.assign(transactionsQuery, change);
  return transactionsStore.load({ ...transactionsQuery });
}

/** The watched invoice's record when the list shows another page than the newest. */
async function refreshCurrentFromFirstPage(): Promise<void> {
  const watched = currentInvoice.id;
  if (!watched || invoicesQuery.page === 1) return;
  const seen = updatesSeen;
  try {
    const page = await paymentsApi.myInvoices(firstPage(INVOICES_PAGE_SIZE));
    adoptCurrent(watched, page.invoices, true, seen);
  } catch {
    // the list shows its own error; the panel keeps what it knew
  }
}

/** Reads the invoices, the watched invoice and the wallets' history again. */
export async function refreshPayments(): Promise<void> {
  await Promise.all([loadInvoices(), loadTransactions(), refreshCurrentFromFirstPage()]);
}

/**
 * Creates a Bitcoin invoice for `amount` US dollars (decimal text, already checked with
 * topUpCents) and follows it, unless its user signed out meanwhile (not the next user's to show).
 */
export async function createTopUp(amount: string): Promise<CreatedInvoice> {
  const unchanged = sessionCheck();
  const created = await paymentsApi.createInvoice(amount);
  if (!unchanged()) return created;
  watchInvoice(created.invoiceId, created.checkoutLink, true);
  void refreshPayments();
  return created;
}

let refreshTimer: ReturnType<typeof setTimeout> | null = null;

// Every invoice event re-reads the areas the wallet screen shows, once they were opened.
setInvoiceRefresher((u) => {
  if (u.invoiceId && u.invoiceId === currentInvoice.id) {
    updatesSeen++;
    currentInvoice.recordIsNewer = false;
  }
  if (myInvoicesStore.state.data === null && transactionsStore.state.data === null && !currentInvoice.id) return;
  if (refreshTimer) clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void refreshPayments();
  }, INVOICE_REFRESH_DELAY_MS);
});

/**
 * How far an invoice got, in the words the wallet shows: created (waiting for payment), partial
 * (part paid, still open), received (paid, waiting for confirmation), then one of the ends;
 * paidLate: paid after it expired (BTCPay keeps the money, staff decide: not credited by itself).
 */
export type InvoicePhase = 'created' | 'partial' | 'received' | 'settled' | 'expired' | 'expiredPartial' | 'paidLate' | 'invalid';
/**
 * How far each phase is along, to tell which of a record and an update is the newer when it is not
 * known: a late payment comes after the expiry; staff's Settled or Invalid mark after either.
 */
const RANK: Record<InvoicePhase, number> = { created: 0, partial: 1, received: 2, expired: 3, expiredPartial: 3, paidLate: 4, settled: 5, invalid: 5 };

/** The phase of an invoice record (BTCPay's status and additional status). */
export function phaseOfStatus(status: string, additionalStatus = ''): InvoicePhase {
  const partial = additionalStatus === 'PaidPartial';
  switch (status) {
    case 'Settled':
      return 'settled';
    case 'Processing':
      return 'received';
    case 'Expired':
      return additionalStatus === 'PaidLate' ? 'paidLate' : partial ? 'expiredPartial' : 'expired';
    case 'Invalid':
      return 'invalid';
    default:
      return partial ? 'partial' : 'created';
  }
}

/**
 * The phase an `invoiceStatusUpdate` announces. Its status is the server's re-read of the invoice
 * and comes first: the type only says which webhook led to it (an InvoiceProcessing delivery can
 * arrive after the invoice fell back to New: payable again). The type tells apart what the status
 * alone cannot (money on a New invoice: a partial payment; on an Expired one: a late payment), and
 * stands alone when there is no status.
 */
export function phaseOfUpdate(u: Pick<InvoiceStatusUpdate, 'type' | 'status'>): InvoicePhase {
  const type = u.type.toUpperCase();
  const money = type === 'INVOICERECEIVEDPAYMENT' || type === 'INVOICEPAYMENTSETTLED';
  switch (u.status) {
    case 'New':
      // Money arrived but the invoice is still New: it was not enough.
      return money ? 'partial' : 'created';
    case 'Expired':
      if (money || type === 'INVOICEPAIDAFTEREXPIRATION') return 'paidLate';
      return type === 'INVOICEEXPIREDPAIDPARTIAL' ? 'expiredPartial' : 'expired';
    case 'Processing':
    case 'Settled':
    case 'Invalid':
      return phaseOfStatus(u.status);
  }
  switch (type) {
    case 'INVOICESETTLED':
      return 'settled';
    case 'INVOICEPROCESSING':
    case 'INVOICERECEIVEDPAYMENT':
    case 'INVOICEPAYMENTSETTLED':
      return 'received';
    case 'INVOICEEXPIRED':
      return 'expired';
    case 'INVOICEEXPIREDPAIDPARTIAL':
      return 'expiredPartial';
    case 'INVOICEPAIDAFTEREXPIRATION':
      return 'paidLate';
    case 'INVOICEINVALID':
      return 'invalid';
    default:
      return 'created';
  }
}

/**
 * The watched invoice's phase from its record and the last socket update about it. A record asked
 * for after the update (`recordIsNewer`) wins: the server announces a change once committed, so
 * that record knows it, and more (an invoice can fall back from Processing to New). Otherwise the
 * further of the two is taken as the newer (the record wins a tie: it knows the additional
 * status). Null when nothing is known yet.
 */
export function currentPhase(
  record: Pick<Invoice, 'status' | 'additionalStatus'> | null,
  update: Pick<InvoiceStatusUpdate, 'type' | 'status'> | null,
  fresh = false,
  recordIsNewer = false,
): InvoicePhase | null {
  const a = record ? phaseOfStatus(record.status, record.additionalStatus) : fresh ? 'created' : null;
  const b = update ? phaseOfUpdate(update) : null;
  if (!a) return b;
  if (!b || recordIsNewer) return a;
  return RANK[b] > RANK[a] ? b : a;
}

/** Whether the invoice may still be paid (its checkout link is worth showing). */
export const isOpenPhase = (p: InvoicePhase | null) => p === 'created' || p === 'partial';

// Staff: the payment server's screen.
export const paymentHealthStore = createResource(() => paymentsApi.health());
export const adminInvoicesStore = createResource((q: AdminInvoicesQuery) => paymentsApi.adminInvoices(q));
const initialAdminQuery = (): AdminInvoicesQuery => ({ page: 1, pageSize: ADMIN_INVOICES_PAGE_SIZE, query: '', status: '' });
export const adminInvoicesQuery = proxy(initialAdminQuery());

export function loadAdminInvoices(change: Partial<AdminInvoicesQuery> = {}) {
  Object.assign(adminInvoicesQuery, change);
  return adminInvoicesStore.load({ ...adminInvoicesQuery });
}

// Logout (and a sign-in) forgets the invoice and the lists' pages of the previous user.
onReset(() => {
  if (refreshTimer) clearTimeout(refreshTimer);
  refreshTimer = null;
  Object.assign(currentInvoice, { id: null, invoice: null, checkoutLink: null, fresh: false, recordIsNewer: false });
  remember(null);
  Object.assign(invoicesQuery, firstPage(INVOICES_PAGE_SIZE));
  Object.assign(transactionsQuery, firstPage(TRANSACTIONS_PAGE_SIZE));
  Object.assign(adminInvoicesQuery, initialAdminQuery());
});
