import { proxy } from 'valtio';
import { loadSession } from './session';
import { parseSocketMessage, sendPublicMessage as postPublicMessage, type ServerEvent, type PublicMessageText, type ServerEventData } from '../api/socket';

// The socket's data area and the server events it handles: the store the events fill, the
// listeners' registry and its dispatch, the invoice updates, the staff announcements, and the
// re-reading of the ads' areas. The connection itself (open, probe, reconnect) is socket.ts.

/** An `invoiceStatusUpdate` as the wallet keeps it (type upper-cased). */
export type InvoiceStatusUpdate = ServerEventData<'invoiceStatusUpdate'>;
/** A staff announcement (`publicMessage`): its texts by language and when it was sent. */
export type PublicMessage = ServerEventData<'publicMessage'>;

/**
 * The seed's socket data area: the connection flag, the invoice update the wallet shows, and
 * the latest staff announcement, shown by the dashboard layout until dismissed or replaced.
 */
export const socketStore = proxy({
  connected: false,
  invoiceUpdate: null as InvoiceStatusUpdate | null,
  publicMessage: null as PublicMessage | null,
  /** The invoice the wallet screen is waiting on (set by it); updates for it are kept. */
  currentInvoiceId: null as string | null,
});

type Handler = (data: unknown) => void;
const handlers = new Map<string, Set<Handler>>();

/**
 * Listens to one server event (contract/events.ts), with its payload's type; returns the function
 * that stops listening. Name the event literally: realtime.events.test.ts finds the handlers by
 * reading the sources, and fails when the server sends an event nobody here listens to.
 */
export function onSocketEvent<E extends ServerEvent>(event: E, handler: (data: ServerEventData<E>) => void): () => void {
  let set = handlers.get(event);
  if (!set) handlers.set(event, (set = new Set()));
  set.add(handler as Handler);
  return () => {
    set.delete(handler as Handler);
  };
}

export function dispatch(raw: unknown): void {
  const msg = parseSocketMessage(raw);
  if (!msg) return;
  for (const h of [...(handlers.get(msg.event) ?? [])]) {
    try {
      h(msg.data);
    } catch (e) {
      console.error(e); // one broken listener must not starve the others
    }
  }
}

let reloadWallets: (() => void) | null = null;
/** The wallet store registers how to reload wallets; payments arriving trigger it. */
export function setWalletReloader(fn: (() => void) | null): void {
  reloadWallets = fn;
}

let refreshInvoices: ((u: InvoiceStatusUpdate) => void) | null = null;
/**
 * The payments store registers how to read the invoices and the wallets' history again; every
 * invoice update triggers it (the list shows all the user's invoices, not only the watched one).
 */
export function setInvoiceRefresher(fn: ((u: InvoiceStatusUpdate) => void) | null): void {
  refreshInvoices = fn;
}

export function setCurrentInvoice(invoiceId: string | null): void {
  socketStore.currentInvoiceId = invoiceId;
}

/**
 * Seed §4: keep an update when it announces a new invoice or concerns the one being watched;
 * reload the wallets once money is seen (received or settled), whichever invoice it is.
 */
export function applyInvoiceUpdate(u: InvoiceStatusUpdate): void {
  // Frames are typed by the contract, not checked: a malformed one is dropped rather than thrown on.
  if (!u || typeof u.type !== 'string') return;
  const type = u.type.toUpperCase();
  const invoiceId = typeof u.invoiceId === 'string' ? u.invoiceId : '';
  if (type === 'INVOICECREATED' || (invoiceId && invoiceId === socketStore.currentInvoiceId)) {
    socketStore.invoiceUpdate = { type, invoiceId, status: typeof u.status === 'string' ? u.status : '' };
  }
  if (type === 'INVOICERECEIVEDPAYMENT' || type === 'INVOICESETTLED') reloadWallets?.();
  // A credited top-up is news on an open dashboard too (its recent activity lists money moving).
  if (type === 'INVOICESETTLED') void import('./myDashboard').then(({ myDashboardStore: d }) => (d.state.data !== null ? d.load() : undefined));
  refreshInvoices?.({ type, invoiceId, status: typeof u.status === 'string' ? u.status : '' });
}
onSocketEvent('invoiceStatusUpdate', applyInvoiceUpdate);

/**
 * A staff announcement replaces the one shown (even a dismissed one: it is news). Kept only with
 * its English text and time; a language that is not text is left out, so the page falls back to
 * English for it.
 */
export function applyPublicMessage(m: PublicMessage): void {
  const text = m?.text as Partial<Record<keyof PublicMessageText, unknown>> | undefined;
  if (!text || typeof text !== 'object' || typeof text.en !== 'string' || typeof m.at !== 'string') return;
  const kept: PublicMessageText = { en: text.en };
  if (typeof text.es === 'string') kept.es = text.es;
  if (typeof text.pt === 'string') kept.pt = text.pt;
  socketStore.publicMessage = { text: kept, at: m.at };
}
onSocketEvent('publicMessage', applyPublicMessage);

export function dismissPublicMessage(): void {
  socketStore.publicMessage = null;
}

/** Staff: announces `text` to everyone connected now (languages left empty are not sent); answers how many connections it reached. */
export async function sendPublicMessage(text: { en: string; es: string; pt: string }): Promise<number> {
  const body: PublicMessageText = { en: text.en };
  if (text.es.trim()) body.es = text.es;
  if (text.pt.trim()) body.pt = text.pt;
  return (await postPublicMessage(body)).sent;
}

/** A review decides many ads at once, one event each: one reading of the ads follows the burst. */
export const ADS_REFRESH_DELAY_MS = 200;
let adsRefresh: ReturnType<typeof setTimeout> | null = null;

/**
 * One of the user's ads changed status (paid, approved, rejected, expired): the data areas that
 * show the user's ads are read again, those already loaded only (one not yet opened loads when it
 * is). Imported when needed: those stores import the wallets store, which imports this one.
 */
async function refreshAdAreas(): Promise<void> {
  const [{ myAdsStore }, { cartStore }, { myDashboardStore }, { walletsStore }, { transactionsStore, loadTransactions }] = await Promise.all([
    import('./ads'),
    import('./cart'),
    import('./myDashboard'),
    import('./wallets'),
    import('./payments'),
  ]);
  // A decision can move money too (a rejection refunds the price): the wallets and their history as well.
  await Promise.all([
    ...[myAdsStore, cartStore, myDashboardStore, walletsStore].filter((s) => s.state.data !== null).map((s) => s.load()),
    ...(transactionsStore.state.data !== null ? [loadTransactions()] : []),
  ]);
}

function refreshAdAreasSoon(): void {
  adsRefresh ??= setTimeout(() => {
    adsRefresh = null;
    void refreshAdAreas();
  }, ADS_REFRESH_DELAY_MS);
}

onSocketEvent('adStatusUpdate', refreshAdAreasSoon);

/** Forgets a re-reading of the ads' areas still waiting (the reset, socket.ts). */
export function cancelAdsRefresh(): void {
  if (adsRefresh) clearTimeout(adsRefresh);
  adsRefresh = null;
}

// A master approved the account (its ads show, held paid terms start) or set it back to pending:
// the session (role, status) and the ads' areas are read again, without a reload.
onSocketEvent('accountStatusUpdate', () => {
  void loadSession();
  refreshAdAreasSoon();
});
