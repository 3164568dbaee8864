import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { http, HttpResponse } from 'msw';
import Value from 'typebox/value';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { apiError, promoWallet, usdWallet } from '../../components/market/testing';
import { sessionStore } from '../../state/session';
import { startSocket } from '../../state/socket';
import type { ErrorBody } from '../../../contract/errors/index.ts';
import type { Invoice, Transaction } from '../../api/payments';
import type { Wallet } from '../../api/wallets';
import { serverEvents, type ServerEventData } from '../../../contract/events.ts';
import { Router } from 'wouter';
import MyWallet from './MyWallet';

// Error answers as the server sends them; apiJson checks each against the route's 4xx schema
// at run time (its static type only knows the numbered answers, hence `as never` below).
const ALREADY_USED: ErrorBody = { message: 'You have already used this promo code.', code: 'wallet.promo_code_already_used' };
const EXPIRED: ErrorBody = { message: 'This promo code has expired.', code: 'wallet.promo_code_expired', params: { field: 'code' } };
const ALREADY_SENT: ErrorBody = { message: 'Your welcome promo code was already sent to you.', code: 'wallet.welcome_code_already_sent' };

const WALLET_PAGE = '/admin/dashboard/my-wallet';
const when = (iso: string, lng = 'en') => new Date(iso).toLocaleString(lng, { dateStyle: 'medium', timeStyle: 'short' });

function makeInvoice(n: number, over: Partial<Invoice> = {}): Invoice {
  return {
    invoiceId: `inv-${n}`,
    walletId: 'w-usd',
    amountCents: 2000,
    status: 'New',
    additionalStatus: 'None',
    checkoutLink: `http://localhost:3000/sandbox/checkout/inv-${n}`,
    createdAt: new Date(Date.UTC(2026, 0, 15, 12, n)).toISOString(),
    expiresAt: new Date(Date.UTC(2026, 0, 15, 12, n + 15)).toISOString(),
    creditedAt: null,
    ...over,
  };
}

function makeTransaction(id: number, over: Partial<Transaction> = {}): Transaction {
  return {
    id,
    walletId: 'w-usd',
    walletType: 'USD',
    kind: 'invoice_credit',
    amountCents: 2000,
    balanceAfterCents: 2000,
    reference: `inv-${id}`,
    createdAt: new Date(Date.UTC(2026, 0, 15, 13, id)).toISOString(),
    invoiceId: `inv-${id}`,
    ...over,
  };
}

/**
 * A fake of the wallet's and payments' routes over mutable lists (newest first, as the server
 * sorts); every answer goes through apiJson. `create` decides the answer to a new invoice.
 */
function walletServer(opts: { mode?: 'btcpay' | 'sandbox'; create?: () => Response } = {}) {
  const db = { wallets: [usdWallet(0)] as Wallet[], invoices: [] as Invoice[], transactions: [] as Transaction[] };
  const log: string[] = [];
  const bodies: unknown[] = [];
  const paged = <T,>(list: T[], request: Request) => {
    const q = new URL(request.url).searchParams;
    const page = Number(q.get('page') ?? 1);
    const pageSize = Number(q.get('pageSize') ?? 20);
    return { items: list.slice((page - 1) * pageSize, page * pageSize), total: list.length, page, pageSize };
  };
  server.use(
    http.get('/api/all-wallets-by-user', () => {
      log.push('wallets');
      return apiJson('GET /api/all-wallets-by-user', { wallets: db.wallets });
    }),
    http.get('/api/payment-provider', () => apiJson('GET /api/payment-provider', { mode: opts.mode ?? 'btcpay' })),
    http.get('/api/my-invoices', ({ request }) => {
      const { items, ...info } = paged(db.invoices, request);
      log.push(`invoices p${info.page}`);
      return apiJson('GET /api/my-invoices', { invoices: items, ...info });
    }),
    http.get('/api/wallet-transactions', ({ request }) => {
      const { items, ...info } = paged(db.transactions, request);
      log.push(`transactions p${info.page}`);
      return apiJson('GET /api/wallet-transactions', { transactions: items, ...info });
    }),
    http.post('/api/create-btc-payment-invoice', async ({ request }) => {
      bodies.push(await request.json());
      log.push('create');
      if (opts.create) return opts.create();
      const inv = makeInvoice(db.invoices.length + 1, { amountCents: Math.round(Number((bodies.at(-1) as { amount: string }).amount) * 100) });
      db.invoices.unshift(inv);
      return apiJson('POST /api/create-btc-payment-invoice', { invoiceId: inv.invoiceId, checkoutLink: inv.checkoutLink });
    }),
  );
  return { db, log, bodies };
}

/** A tab as window.open gives it: the page points it at the checkout. */
function fakeTab() {
  return { closed: false, opener: {} as unknown, location: { href: '' }, close: vi.fn(), document: { title: '', body: { textContent: '' } } };
}

/** The browser's WebSocket, played from the test: the server's events are checked against contract/events.ts. */
class FakeWebSocket {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  url: string;
  constructor(url: string) {
    this.url = url;
    FakeWebSocket.instances.push(this);
  }
  send() {}
  close() {
    this.readyState = 3;
  }
  accept() {
    this.readyState = 1;
    this.onopen?.();
  }
  push(data: ServerEventData<'invoiceStatusUpdate'>) {
    if (!Value.Check(serverEvents.invoiceStatusUpdate, data)) throw new Error(`not an event the server could send: ${JSON.stringify(data)}`);
    this.onmessage?.({ data: JSON.stringify({ event: 'invoiceStatusUpdate', data }) });
  }
}

const panelStatus = () => screen.getByRole('status', { name: 'Invoice status' });
const amountField = () => screen.getByRole('textbox', { name: 'Amount in US dollars' }) as HTMLInputElement;
const payButton = () => screen.getByRole('button', { name: 'Pay with Bitcoin' });
const tableRows = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('my wallet', () => {
  let stopSocket: (() => void) | null = null;
  beforeEach(() => {
    FakeWebSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeWebSocket);
  });
  afterEach(() => {
    stopSocket?.();
    stopSocket = null;
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('checks the code first, creates the promo wallet on first use, redeems and shows the new balance; a refused code shows the server message', async () => {
    const requests: string[] = [];
    const redeemed = new Set<string>();
    const srv = walletServer();
    srv.db.wallets = [usdWallet(1234)];
    server.use(
      http.post('/api/create-promo-wallet', () => {
        requests.push('create');
        srv.db.wallets = [usdWallet(1234), promoWallet(0)];
        return apiJson('POST /api/create-promo-wallet', { wallet: promoWallet(0) });
      }),
      http.post('/api/add-promo-code-to-promo-wallet', async ({ request }) => {
        const { code } = (await request.json()) as { code: string };
        requests.push(`add ${code}`);
        if (redeemed.has(code)) {
          return apiJson('POST /api/add-promo-code-to-promo-wallet', ALREADY_USED as never, 409);
        }
        redeemed.add(code);
        srv.db.wallets = [usdWallet(1234), promoWallet(2000)]; // the wallets read again after a refusal show the credit
        srv.db.transactions = [
          makeTransaction(1, { walletId: 'w-promo', walletType: 'XG-PROMO-WALLET', kind: 'promo_credit', amountCents: 2000, balanceAfterCents: 2000 }),
        ];
        return apiJson('POST /api/add-promo-code-to-promo-wallet', { wallet: promoWallet(2000) });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyWallet />, WALLET_PAGE);
    const balances = () => screen.getAllByRole('list')[0]; // the wallets' balances, above the history

    expect(await screen.findByText('$12.34')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create my promo wallet' })).toBeTruthy();

    const input = screen.getByLabelText('Promo code');
    await user.type(input, 'ab');
    await user.click(screen.getByRole('button', { name: 'Add promo code' }));
    expect(screen.getByText('Promo code must be 4–32 of A–Z, 0–9 and -.', { selector: '.field-error' })).toBeTruthy();
    expect(requests).toEqual([]);

    await user.clear(input);
    await user.type(input, 'welcome-20'); // typed in lower case, sent in capitals
    await user.click(screen.getByRole('button', { name: 'Add promo code' }));
    expect((await screen.findByText(/Promo code added/)).textContent).toBe('Promo code added. Your promo balance is $20.00.');
    expect(within(balances()).getByText('$20.00')).toBeTruthy();
    expect(requests).toEqual(['create', 'add WELCOME-20']);
    expect(screen.queryByRole('button', { name: 'Create my promo wallet' })).toBeNull();
    // The credit is a row of the history on the same page, at once.
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Transaction history' })).getByText('Promo code')).toBeTruthy());

    await user.type(input, 'WELCOME-20');
    await user.click(screen.getByRole('button', { name: 'Add promo code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You have already used this promo code.');
    // The refusal is about the field: a screen reader hears it with the field, which is marked invalid.
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const description = (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(description).toContain('You have already used this promo code.');
    expect(within(balances()).getByText('$20.00')).toBeTruthy();
    expect(requests).toEqual(['create', 'add WELCOME-20', 'add WELCOME-20']);
  });

  it('e-mails a welcome code on request; the Bitcoin section is a real form now', async () => {
    let mailed = 0;
    const srv = walletServer();
    srv.db.wallets = [usdWallet(0), promoWallet(500)];
    server.use(
      http.get('/api/email-wallet-promo-code', () => (mailed++, apiJson('GET /api/email-wallet-promo-code', { sent: true, email: 'ann@example.com' }))),
    );
    const user = userEvent.setup();
    const view = renderAt(<MyWallet />, WALLET_PAGE);
    expect(await screen.findByText('$5.00')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'E-mail me a welcome promo code' }));
    await waitFor(() => expect(screen.getByText('Check your inbox: we sent you a welcome promo code.')).toBeTruthy());
    expect(mailed).toBe(1);
    const slot = view.container.querySelector('section#bitcoin-topup')!;
    expect(slot.textContent).not.toContain('arrives with the payments release');
    expect(within(slot as HTMLElement).getByRole('button', { name: 'Pay with Bitcoin' })).toBeTruthy();
    expect(screen.queryByText(/Test mode/)).toBeNull(); // BTCPay mode: no sandbox note
    expect(await screen.findByText('You have no Bitcoin invoices yet.')).toBeTruthy();
    expect(screen.getByText('No transactions yet.')).toBeTruthy();
  });

  it('shows a refused code and a refused welcome e-mail in the page language', async () => {
    const srv = walletServer();
    srv.db.wallets = [usdWallet(0), promoWallet(0)];
    server.use(
      http.post('/api/add-promo-code-to-promo-wallet', () => apiJson('POST /api/add-promo-code-to-promo-wallet', EXPIRED as never, 400)),
      http.get('/api/email-wallet-promo-code', () => apiJson('GET /api/email-wallet-promo-code', ALREADY_SENT as never, 409)),
    );
    await i18n.changeLanguage('es');
    try {
      const user = userEvent.setup();
      renderAt(<MyWallet />, `/es${WALLET_PAGE}`);
      await user.type(await screen.findByLabelText('Código promocional'), 'SPRING-20');
      await user.click(screen.getByRole('button', { name: 'Añadir código promocional' }));
      expect((await screen.findByRole('alert')).textContent).toBe('Este código promocional venció.');
      await user.click(screen.getByRole('button', { name: /bienvenida/ }));
      await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Ya te enviamos tu código promocional de bienvenida.'));
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('writes the quick amounts, and what each history row was for, the way the page’s language does', async () => {
    const srv = walletServer({ mode: 'sandbox' });
    srv.db.transactions = [
      makeTransaction(2, { kind: 'ad_payment', amountCents: -1500, reference: 'ad-id-1', adTitle: 'Tardes tranquilas', adDeleted: true, invoiceId: null }),
      makeTransaction(1, { kind: 'promo_credit', reference: 'code-id-1', promoCode: 'SPRING-2026', invoiceId: null }),
    ];
    const money = (lng: string, n: number) => new Intl.NumberFormat(lng, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(n);
    try {
      await i18n.changeLanguage('es');
      const page = renderAt(<MyWallet />, `/es${WALLET_PAGE}`);
      const presets = within(await screen.findByRole('group', { name: 'Montos rápidos' }));
      expect(presets.getAllByRole('button').map((b) => b.textContent)).toEqual([money('es', 20), money('es', 50), money('es', 100)]);
      expect(money('es', 20)).not.toMatch(/^\$/);
      await waitFor(() => expect(tableRows('Historial de movimientos').map((r) => r[5])).toEqual(['«Tardes tranquilas», eliminado', 'SPRING-2026']));
      page.unmount();
      await i18n.changeLanguage('pt');
      renderAt(<MyWallet />, `/pt${WALLET_PAGE}`);
      const pt = within(await screen.findByRole('group', { name: 'Valores rápidos' }));
      expect(pt.getAllByRole('button').map((b) => b.textContent)).toEqual([money('pt', 20), money('pt', 50), money('pt', 100)]);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('refuses amounts outside 10.00–1,000.00 or with more than two decimals before sending; presets fill the field', async () => {
    const srv = walletServer({ mode: 'sandbox' });
    const open = vi.spyOn(window, 'open');
    const user = userEvent.setup();
    renderAt(<MyWallet />, WALLET_PAGE);
    expect(await screen.findByText('Test mode: payments go to the sandbox. No real Bitcoin is needed and no real money moves.')).toBeTruthy();

    const rule = 'Enter an amount from $10.00 to $1,000.00, with at most two decimals.';
    for (const bad of ['9.99', '1000.01', '10.001', '', '1,000', '10,001', '20e1', '-20']) {
      await user.clear(amountField());
      if (bad) await user.type(amountField(), bad);
      await user.click(payButton());
      expect(screen.getByText(rule, { selector: '.field-error' }), bad).toBeTruthy();
      expect(amountField().getAttribute('aria-invalid'), bad).toBe('true');
    }
    expect(srv.log).not.toContain('create');
    expect(open).not.toHaveBeenCalled();

    const presets = within(screen.getByRole('group', { name: 'Quick amounts' }));
    expect(presets.getAllByRole('button').map((b) => b.textContent)).toEqual(['$20', '$50', '$100']);
    await user.click(presets.getByRole('button', { name: '$50' }));
    expect(amountField().value).toBe('50.00');
    expect(presets.getByRole('button', { name: '$50' }).getAttribute('aria-pressed')).toBe('true');
    expect(presets.getByRole('button', { name: '$20' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByText(rule)).toBeNull(); // the field holds a good amount again
    await user.click(presets.getByRole('button', { name: '$100' }));
    expect(amountField().value).toBe('100.00');

    // The bounds themselves are fine, and so is a decimal comma (Spanish and Portuguese keyboards).
    for (const good of ['1000', '10', '20,50', '$25']) {
      await user.clear(amountField());
      await user.type(amountField(), good);
      expect(screen.queryByText(rule), good).toBeNull();
    }
    expect(presets.getByRole('button', { name: '$20' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('creates the invoice, opens its checkout in the tab opened on the click, and shows its status and the invoice in the list', async () => {
    const srv = walletServer();
    const tab = fakeTab();
    const open = vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
    const user = userEvent.setup();
    renderAt(<MyWallet />, WALLET_PAGE);
    await screen.findByText('You have no Bitcoin invoices yet.');

    await user.type(amountField(), '19.99');
    await user.click(payButton());

    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(tab.location.href).toBe('http://localhost:3000/sandbox/checkout/inv-1'));
    expect(tab.opener).toBeNull();
    expect(srv.bodies).toEqual([{ amount: '19.99' }]);
    await waitFor(() => expect(panelStatus().textContent).toBe('Waiting for your payment. Pay in the checkout tab; this page updates by itself.'));
    await waitFor(() => expect(amountField().value).toBe(''));
    expect(localStorage.getItem('xg.currentInvoice')).toBe('inv-1');

    await waitFor(() => expect(tableRows('My Bitcoin invoices')).toHaveLength(1));
    const inv = srv.db.invoices[0];
    expect(tableRows('My Bitcoin invoices')[0]).toEqual([when(inv.createdAt), '$19.99', 'Waiting for payment', 'inv-1', 'Open checkout']);
    const panel = screen.getByRole('region', { name: 'Current invoice' });
    expect(within(panel).getByText('$19.99')).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'Open checkout' }).getAttribute('href')).toBe(inv.checkoutLink);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('follows the invoice live from the socket (created → received → settled), reloading the wallets on money and the lists on every event', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    stopSocket = startSocket();
    const ws = FakeWebSocket.instances[0];
    ws.accept();
    const srv = walletServer();
    vi.spyOn(window, 'open').mockImplementation(() => fakeTab() as unknown as Window);
    const user = userEvent.setup();
    renderAt(<MyWallet />, WALLET_PAGE);
    await screen.findByText('You have no Bitcoin invoices yet.');

    await user.click(screen.getByRole('button', { name: '$20' }));
    await user.click(payButton());
    await waitFor(() => expect(tableRows('My Bitcoin invoices')).toHaveLength(1));
    ws.push({ type: 'INVOICECREATED', invoiceId: 'inv-1', status: 'New' });
    await waitFor(() => expect(panelStatus().textContent).toBe('Waiting for your payment. Pay in the checkout tab; this page updates by itself.'));
    const walletReads = () => srv.log.filter((l) => l === 'wallets').length;
    const before = walletReads();

    // Another invoice's event does not move this panel (but the lists are read again).
    ws.push({ type: 'INVOICEEXPIRED', invoiceId: 'inv-0', status: 'Expired' });
    await new Promise((r) => setTimeout(r, 50));
    expect(panelStatus().textContent).toBe('Waiting for your payment. Pay in the checkout tab; this page updates by itself.');
    expect(walletReads()).toBe(before);

    // Paid in full, waiting for confirmations: the server records it, then announces it. The
    // panel moves on the event, and the list read again after it says the same.
    srv.db.invoices[0] = { ...srv.db.invoices[0], status: 'Processing' };
    ws.push({ type: 'INVOICERECEIVEDPAYMENT', invoiceId: 'inv-1', status: 'Processing' });
    await waitFor(() => expect(panelStatus().textContent).toBe('Payment received. Waiting for the network to confirm it.'));
    await waitFor(() => expect(walletReads()).toBe(before + 1));
    const invoiceReadsNow = () => srv.log.filter((l) => l.startsWith('invoices')).length;
    const reads = invoiceReadsNow();
    await waitFor(() => expect(invoiceReadsNow()).toBe(reads + 1)); // the list was read again
    await new Promise((r) => setTimeout(r, 50));
    expect(panelStatus().textContent).toBe('Payment received. Waiting for the network to confirm it.');
    await waitFor(() => expect(tableRows('My Bitcoin invoices')[0][2]).toBe('Payment received'));

    // Settled: the wallet is credited and the ledger has the entry.
    srv.db.invoices[0] = { ...srv.db.invoices[0], status: 'Settled', creditedAt: '2026-01-15T12:20:00.000Z' };
    srv.db.wallets = [usdWallet(2000)];
    srv.db.transactions = [makeTransaction(1, { reference: 'inv-1', createdAt: '2026-01-15T12:20:00.000Z' })];
    const invoiceReads = invoiceReadsNow();
    ws.push({ type: 'INVOICESETTLED', invoiceId: 'inv-1', status: 'Settled' });
    await waitFor(() => expect(panelStatus().textContent).toBe('Paid. The money is in your USD wallet.'));
    await waitFor(() => expect(walletReads()).toBe(before + 2));
    expect(await screen.findByText('$20.00', { selector: 'strong' })).toBeTruthy();
    await waitFor(() =>
      expect(tableRows('Transaction history')).toEqual([[when('2026-01-15T12:20:00.000Z'), 'Bitcoin top-up', 'USD wallet', '+$20.00', '$20.00', 'inv-1']]),
    );
    expect(tableRows('My Bitcoin invoices')[0][2]).toBe('Paid');
    expect(tableRows('My Bitcoin invoices')[0][4]).toBe('—');
    expect(invoiceReadsNow()).toBe(invoiceReads + 1); // one reading for the event
    const panel = screen.getByRole('region', { name: 'Current invoice' });
    expect(within(panel).queryByRole('link', { name: 'Open checkout' })).toBeNull();
  });

  it('shows a partial payment and an expiry in words', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    stopSocket = startSocket();
    const ws = FakeWebSocket.instances[0];
    ws.accept();
    const srv = walletServer();
    srv.db.invoices = [makeInvoice(3)];
    localStorage.setItem('xg.currentInvoice', 'inv-3');
    renderAt(<MyWallet />, WALLET_PAGE);
    await waitFor(() => expect(panelStatus().textContent).toBe('Waiting for your payment. Pay in the checkout tab; this page updates by itself.'));
    srv.db.invoices[0] = { ...srv.db.invoices[0], additionalStatus: 'PaidPartial' };
    ws.push({ type: 'INVOICERECEIVEDPAYMENT', invoiceId: 'inv-3', status: 'New' });
    await waitFor(() => expect(panelStatus().textContent).toBe('Part of the amount was received. Pay the rest in the checkout before the invoice expires.'));
    await waitFor(() => expect(tableRows('My Bitcoin invoices')[0][2]).toBe('Partly paid'));
    srv.db.invoices[0] = { ...srv.db.invoices[0], status: 'Expired' };
    ws.push({ type: 'INVOICEEXPIRED', invoiceId: 'inv-3', status: 'Expired' });
    await waitFor(() => expect(panelStatus().textContent).toBe('Expired: no payment arrived in time. Nothing was charged; create a new invoice to top up.'));
    // The server's record knows more (part was paid): it wins once read.
    await waitFor(() => expect(panelStatus().textContent).toBe('Expired after a partial payment. Contact us with the invoice number to get it back.'));
  });

  it('an invoice BTCPay takes back from Processing to New (a payment stopped counting) is payable again, its checkout link back', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    stopSocket = startSocket();
    const ws = FakeWebSocket.instances[0];
    ws.accept();
    const srv = walletServer();
    srv.db.invoices = [makeInvoice(4)];
    localStorage.setItem('xg.currentInvoice', 'inv-4');
    renderAt(<MyWallet />, WALLET_PAGE);
    await waitFor(() => expect(panelStatus().textContent).toBe('Waiting for your payment. Pay in the checkout tab; this page updates by itself.'));
    srv.db.invoices[0] = { ...srv.db.invoices[0], status: 'Processing' };
    ws.push({ type: 'INVOICEPROCESSING', invoiceId: 'inv-4', status: 'Processing' });
    await waitFor(() => expect(tableRows('My Bitcoin invoices')[0][2]).not.toBe('Waiting for payment'));
    const panel = screen.getByRole('region', { name: 'Current invoice' });
    await waitFor(() => expect(within(panel).queryByRole('link', { name: 'Open checkout' })).toBeNull());
    // The payment is replaced: BTCPay puts the invoice back to New, partly paid; our server tells the page.
    srv.db.invoices[0] = { ...srv.db.invoices[0], status: 'New', additionalStatus: 'PaidPartial' };
    ws.push({ type: 'INVOICESTATUSCHANGED', invoiceId: 'inv-4', status: 'New' });
    await waitFor(() => expect(panelStatus().textContent).toBe('Part of the amount was received. Pay the rest in the checkout before the invoice expires.'));
    expect(within(panel).getByRole('link', { name: 'Open checkout' })).toBeTruthy();
  });

  it('a list read asked before an update does not move the panel back; one asked after it wins (a fall back to New whose event was lost)', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    stopSocket = startSocket();
    const ws = FakeWebSocket.instances[0];
    ws.accept();
    const srv = walletServer();
    srv.db.invoices = [makeInvoice(5)];
    localStorage.setItem('xg.currentInvoice', 'inv-5');
    renderAt(<MyWallet />, WALLET_PAGE);
    await waitFor(() => expect(panelStatus().textContent).toBe('Waiting for your payment. Pay in the checkout tab; this page updates by itself.'));
    const panel = screen.getByRole('region', { name: 'Current invoice' });
    const reRead = () => document.dispatchEvent(new Event('visibilitychange')); // back from the checkout tab

    // A read of the list is on its way (answered as the invoice was when asked) when the payment is announced.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = true;
    server.use(
      http.get('/api/my-invoices', async () => {
        if (!held) return undefined; // the fake's own answer
        held = false;
        const asked = srv.db.invoices.map((i) => ({ ...i }));
        await gate;
        return apiJson('GET /api/my-invoices', { invoices: asked, total: asked.length, page: 1, pageSize: 10 });
      }),
    );
    reRead();
    await waitFor(() => expect(held).toBe(false));
    srv.db.invoices[0] = { ...srv.db.invoices[0], status: 'Processing' };
    ws.push({ type: 'INVOICEPROCESSING', invoiceId: 'inv-5', status: 'Processing' });
    await waitFor(() => expect(panelStatus().textContent).toBe('Payment received. Waiting for the network to confirm it.'));
    release();
    await waitFor(() => expect(tableRows('My Bitcoin invoices')[0][2]).toBe('Payment received'));
    await new Promise((r) => setTimeout(r, 50));
    expect(panelStatus().textContent).toBe('Payment received. Waiting for the network to confirm it.');
    expect(within(panel).queryByRole('link', { name: 'Open checkout' })).toBeNull();

    // The payment stops counting: BTCPay puts the invoice back to New, and that event is lost. The
    // record read after the last update knows it: payable again, its checkout link back.
    srv.db.invoices[0] = { ...srv.db.invoices[0], status: 'New' };
    reRead();
    await waitFor(() => expect(panelStatus().textContent).toBe('Waiting for your payment. Pay in the checkout tab; this page updates by itself.'));
    expect(within(panel).getByRole('link', { name: 'Open checkout' })).toBeTruthy();
  });

  it('says a payment that arrived after the invoice expired was received late, and to contact us', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    stopSocket = startSocket();
    const ws = FakeWebSocket.instances[0];
    ws.accept();
    const srv = walletServer();
    srv.db.invoices = [makeInvoice(6, { status: 'Expired' })];
    localStorage.setItem('xg.currentInvoice', 'inv-6');
    renderAt(<MyWallet />, WALLET_PAGE);
    await waitFor(() => expect(panelStatus().textContent).toBe('Expired: no payment arrived in time. Nothing was charged; create a new invoice to top up.'));
    const late =
      'A payment arrived after the invoice expired, so it was not added to your wallet. Do not pay again: contact us with the invoice number and we will credit or refund it.';
    // The event alone says so, before the list is read again.
    ws.push({ type: 'INVOICERECEIVEDPAYMENT', invoiceId: 'inv-6', status: 'Expired' });
    await waitFor(() => expect(panelStatus().textContent).toBe(late));
    srv.db.invoices[0] = { ...srv.db.invoices[0], additionalStatus: 'PaidLate' };
    ws.push({ type: 'INVOICEPAYMENTSETTLED', invoiceId: 'inv-6', status: 'Expired' });
    await waitFor(() => expect(tableRows('My Bitcoin invoices')[0][2]).toBe('Expired, paid late'));
    expect(panelStatus().textContent).toBe(late);
    expect(panelStatus().className).toContain('alert-error');
    expect(within(screen.getByRole('region', { name: 'Current invoice' })).queryByRole('link', { name: 'Open checkout' })).toBeNull();
  });

  it('shows the remembered invoice after a reload (from GET /api/my-invoices), and forgets one the server does not know', async () => {
    const srv = walletServer();
    srv.db.invoices = [makeInvoice(2, { status: 'Settled', creditedAt: '2026-01-15T12:20:00.000Z', amountCents: 5000 }), makeInvoice(1, { status: 'Expired' })];
    localStorage.setItem('xg.currentInvoice', 'inv-2');
    const first = renderAt(<MyWallet />, WALLET_PAGE);
    await waitFor(() => expect(panelStatus().textContent).toBe('Paid. The money is in your USD wallet.'));
    expect(within(screen.getByRole('region', { name: 'Current invoice' })).getByText('$50.00')).toBeTruthy();
    first.unmount();

    localStorage.setItem('xg.currentInvoice', 'someone-elses');
    renderAt(<MyWallet />, WALLET_PAGE);
    await waitFor(() => expect(tableRows('My Bitcoin invoices')).toHaveLength(2));
    expect(screen.queryByRole('region', { name: 'Current invoice' })).toBeNull();
    expect(localStorage.getItem('xg.currentInvoice')).toBeNull();
  });

  it('gives a visible checkout link when the browser blocks the new tab', async () => {
    const srv = walletServer();
    vi.spyOn(window, 'open').mockImplementation(() => null);
    const user = userEvent.setup();
    renderAt(<MyWallet />, WALLET_PAGE);
    await user.type(await screen.findByRole('textbox', { name: 'Amount in US dollars' }), '25,5');
    await user.click(payButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Your browser did not open a new tab. Use “Open checkout” below to pay.');
    expect(srv.bodies).toEqual([{ amount: '25.50' }]);
    const panel = screen.getByRole('region', { name: 'Current invoice' });
    const link = within(panel).getByRole('link', { name: 'Open checkout' });
    expect(link.getAttribute('href')).toBe('http://localhost:3000/sandbox/checkout/inv-1');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it("shows the server's refusal in the page's language and closes the tab it opened", async () => {
    let answer = () => apiError('POST /api/create-btc-payment-invoice', 502, 'payment.server_unavailable');
    const srv = walletServer({ create: () => answer() });
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
    const user = userEvent.setup();
    renderAt(<MyWallet />, WALLET_PAGE);
    await user.type(await screen.findByRole('textbox', { name: 'Amount in US dollars' }), '25');
    await user.click(payButton());
    expect((await screen.findByRole('alert')).textContent).toBe('The payment server is unavailable. Please try again later.');
    expect(tab.close).toHaveBeenCalledTimes(1);
    expect(tab.location.href).toBe('');
    expect(screen.queryByRole('region', { name: 'Current invoice' })).toBeNull();
    expect(amountField().value).toBe('25'); // kept, to try again

    answer = () => apiError('POST /api/create-btc-payment-invoice', 409, 'payment.too_many_open_invoices', { max: 5 });
    await i18n.changeLanguage('es');
    try {
      await user.click(screen.getByRole('button', { name: 'Pagar con Bitcoin' }));
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Ya tienes 5 facturas sin pagar. Paga una o espera a que venza.'));
      expect(srv.log.filter((l) => l === 'create')).toHaveLength(2);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('follows an open invoice whose checkout is opened from the list', async () => {
    const srv = walletServer();
    srv.db.invoices = [makeInvoice(5, { amountCents: 7500 }), makeInvoice(4, { status: 'Settled' })];
    const user = userEvent.setup();
    renderAt(<MyWallet />, WALLET_PAGE);
    await waitFor(() => expect(tableRows('My Bitcoin invoices')).toHaveLength(2));
    expect(screen.queryByRole('region', { name: 'Current invoice' })).toBeNull();
    const stay = (e: Event) => e.preventDefault(); // the test's page does not follow the link
    document.addEventListener('click', stay);
    try {
      const links = within(screen.getByRole('table', { name: 'My Bitcoin invoices' })).getAllByRole('link');
      expect(links.map((a) => a.getAttribute('aria-label'))).toEqual(['Open checkout inv-5']); // the settled one has none
      await user.click(links[0]);
    } finally {
      document.removeEventListener('click', stay);
    }
    const panel = screen.getByRole('region', { name: 'Current invoice' });
    expect(panelStatus().textContent).toBe('Waiting for your payment. Pay in the checkout tab; this page updates by itself.');
    expect(within(panel).getByText('$75.00')).toBeTruthy();
    expect(localStorage.getItem('xg.currentInvoice')).toBe('inv-5');
    await user.click(within(panel).getByRole('button', { name: 'Hide this invoice' }));
    expect(screen.queryByRole('region', { name: 'Current invoice' })).toBeNull();
    expect(localStorage.getItem('xg.currentInvoice')).toBeNull();
  });

  it('pages through the transaction history and the invoices', async () => {
    const srv = walletServer();
    srv.db.transactions = Array.from({ length: 12 }, (_, i) =>
      makeTransaction(12 - i, {
        kind: i % 2 ? 'ad_payment' : 'promo_credit',
        amountCents: i % 2 ? -1500 : 2000,
        balanceAfterCents: 100 * (12 - i),
        reference: i % 2 ? `ad${i}` : `code-id-${i}`,
        // what each was for: an ad (by title; deleted, with or without its last title), a promo code
        adTitle: i % 2 ? (i === 5 ? null : `Ad ${i}`) : null,
        adDeleted: i % 2 ? i >= 3 : null,
        promoCode: i % 2 ? null : `CODE-${i}`,
        invoiceId: null,
      }),
    );
    srv.db.invoices = Array.from({ length: 11 }, (_, i) => makeInvoice(11 - i, { status: 'Expired' }));
    const user = userEvent.setup();
    renderAt(<MyWallet />, WALLET_PAGE);
    await waitFor(() => expect(tableRows('Transaction history')).toHaveLength(10));
    expect(tableRows('Transaction history')[0]).toEqual([when(srv.db.transactions[0].createdAt), 'Promo code', 'USD wallet', '+$20.00', '$12.00', 'CODE-0']);
    expect(tableRows('Transaction history')[1]).toEqual([when(srv.db.transactions[1].createdAt), 'Ad payment', 'USD wallet', '-$15.00', '$11.00', '“Ad 1”']);
    expect(tableRows('Transaction history')[3][5]).toBe('“Ad 3”, deleted');
    expect(tableRows('Transaction history')[5][5]).toBe('deleted ad');

    const pages = screen.getByRole('navigation', { name: 'Transaction history pages' });
    expect(within(pages).getByText('Page 1 of 2 (12 in all)')).toBeTruthy();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(tableRows('Transaction history')).toHaveLength(2));
    expect(tableRows('Transaction history')[1][4]).toBe('$1.00');
    expect(srv.log).toContain('transactions p2');

    const invoicePages = screen.getByRole('navigation', { name: 'Bitcoin invoice pages' });
    await user.click(within(invoicePages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(tableRows('My Bitcoin invoices')).toEqual([[when(srv.db.invoices[10].createdAt), '$20.00', 'Expired', 'inv-1', '—']]));
  });

  // An answer the client cannot read (a hotel Wi-Fi's or a proxy's login page served with 200, an
  // empty body) is "Something went wrong." in the page's language, like a proxy's 502 page: never
  // the JavaScript engine's English parser message.
  it('says "Algo salió mal." on a Spanish page when the wallets answer is an HTML page', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    sessionStore.loaded = true;
    const portal = '<!DOCTYPE html><html><body>Sign in to the hotel Wi-Fi</body></html>';
    server.use(
      http.get('/api/all-wallets-by-user', () => new HttpResponse(portal, { status: 200, headers: { 'content-type': 'text/html' } })),
      http.get('/api/payment-provider', () => apiJson('GET /api/payment-provider', { mode: 'btcpay' })),
      http.get('/api/my-invoices', () => apiJson('GET /api/my-invoices', { invoices: [], total: 0, page: 1, pageSize: 10 })),
      http.get('/api/wallet-transactions', () => apiJson('GET /api/wallet-transactions', { transactions: [], total: 0, page: 1, pageSize: 10 })),
    );
    await i18n.changeLanguage('es');
    renderAt(
      <Router base="/es">
        <MyWallet />
      </Router>,
      '/es/admin/dashboard/my-wallet',
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Algo salió mal.');
  });

  // A Portuguese (or Spanish) page writes amounts with that language's separators (pt:
  // "US$ 1.234,56"), as it does dates and counts: Brazilian readers take "1,234" as one point two,
  // so "$1,234.56" on the pt wallet would read as a balance of about one dollar.
  it('shows a balance of 1234.56 USD in Portuguese form on the Portuguese wallet page', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    sessionStore.loaded = true;
    server.use(
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(123456)] })),
      http.get('/api/payment-provider', () => apiJson('GET /api/payment-provider', { mode: 'btcpay' })),
      http.get('/api/my-invoices', () => apiJson('GET /api/my-invoices', { invoices: [], total: 0, page: 1, pageSize: 10 })),
      http.get('/api/wallet-transactions', () => apiJson('GET /api/wallet-transactions', { transactions: [], total: 0, page: 1, pageSize: 10 })),
    );
    await i18n.changeLanguage('pt');
    renderAt(
      <Router base="/pt">
        <MyWallet />
      </Router>,
      '/pt/admin/dashboard/my-wallet',
    );
    const expected = new Intl.NumberFormat('pt', { style: 'currency', currency: 'USD' }).format(1234.56); // "US$ 1.234,56"
    await screen.findByRole('heading', { level: 1, name: 'Minha carteira' });
    const balance = await screen.findByText(/1[.,]234[.,]56/);
    expect(balance.textContent).toBe(expected);
  });
});
