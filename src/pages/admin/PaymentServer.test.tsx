import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { apiError } from '../../components/market/testing';
import type { AdminInvoice, PaymentServerHealth } from '../../api/payments';
import PaymentServer from './PaymentServer';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { appLikeI18n } from '../../test/lazyI18n';
import { sessionStore } from '../../state/session';
import { sayIt } from '../../lib/said';

const PAGE = '/admin/dashboard/admin/payment-server';
const when = (iso: string) => new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });

const UNREACHABLE: PaymentServerHealth = {
  mode: 'btcpay',
  reachable: false,
  synchronized: false,
  version: null,
  storeId: 'store-7',
  webhookRegistered: false,
  lastWebhookAt: '2026-01-14T09:00:00.000Z',
  openInvoices: 2,
  checkedAt: '2026-01-15T12:00:00.000Z',
  message: 'Payment server unreachable: connect ECONNREFUSED 127.0.0.1:9',
  problems: [{ code: 'payment.unreachable', detail: 'connect ECONNREFUSED 127.0.0.1:9' }],
};
const HEALTHY: PaymentServerHealth = {
  ...UNREACHABLE,
  reachable: true,
  synchronized: true,
  version: '2.0.7',
  webhookRegistered: true,
  checkedAt: '2026-01-15T12:01:00.000Z',
  message: 'ok',
  problems: [],
};
const SANDBOX: PaymentServerHealth = {
  mode: 'sandbox',
  reachable: true,
  synchronized: true,
  version: null,
  storeId: null,
  webhookRegistered: true,
  lastWebhookAt: null,
  openInvoices: 0,
  checkedAt: '2026-01-15T12:00:00.000Z',
  message: 'Sandbox mode: BTCPay Server is not configured, no real payments are taken',
  problems: [{ code: 'payment.sandbox' }],
};

function makeInvoice(n: number, over: Partial<AdminInvoice> = {}): AdminInvoice {
  return {
    invoiceId: `inv-${n}`,
    walletId: `w-${n}`,
    amountCents: 2500,
    status: 'New',
    additionalStatus: 'None',
    checkoutLink: `https://btcpay.example.com/i/inv-${n}`,
    createdAt: new Date(Date.UTC(2026, 0, 15, 10, n)).toISOString(),
    expiresAt: new Date(Date.UTC(2026, 0, 15, 10, n + 15)).toISOString(),
    creditedAt: null,
    userId: `u${n}`,
    userEmail: `user${n}@example.com`,
    events: [],
    ...over,
  };
}

const PAID = makeInvoice(1, {
  status: 'Settled',
  creditedAt: '2026-01-15T10:05:00.000Z',
  userEmail: 'ann@example.com',
  events: [
    { type: 'InvoiceCreated', status: 'New', receivedAt: '2026-01-15T10:01:00.000Z', processedAt: '2026-01-15T10:01:01.000Z', outcome: 'no_change' },
    { type: 'InvoiceSettled', status: 'Settled', receivedAt: '2026-01-15T10:05:00.000Z', processedAt: '2026-01-15T10:05:01.000Z', outcome: 'credited' },
    { type: 'InvoiceSettled', status: null, receivedAt: '2026-01-15T10:06:00.000Z', processedAt: null, outcome: null },
  ],
});
const OPEN = makeInvoice(2, { userEmail: null });

/** The staff routes over a list; `health` answers in turn (the last one repeats). */
function staffServer(invoices: AdminInvoice[], health: Array<PaymentServerHealth | 'down'>) {
  const queries: URLSearchParams[] = [];
  let checks = 0;
  server.use(
    http.get('/api/admin/get-btcpayserver-health', () => {
      const h = health[Math.min(checks++, health.length - 1)];
      return h === 'down'
        ? apiError('GET /api/admin/get-btcpayserver-health', 502, 'payment.server_unavailable')
        : apiJson('GET /api/admin/get-btcpayserver-health', h);
    }),
    http.get('/api/admin/get-invoices', ({ request }) => {
      const q = new URL(request.url).searchParams;
      queries.push(q);
      const page = Number(q.get('page') ?? 1);
      const pageSize = Number(q.get('pageSize') ?? 20);
      const text = (q.get('query') ?? '').toLowerCase();
      const status = q.get('status');
      const matching = invoices.filter(
        (i) => (!text || [i.invoiceId, i.userId, i.userEmail ?? ''].some((v) => v.toLowerCase() === text)) && (!status || i.status === status),
      );
      return apiJson('GET /api/admin/get-invoices', {
        invoices: matching.slice((page - 1) * pageSize, page * pageSize),
        total: matching.length,
        page,
        pageSize,
      });
    }),
  );
  return { queries, checks: () => checks };
}

/** The health list as label → value. */
function healthFacts(): Record<string, string> {
  const dl = screen.getByRole('region', { name: /^Health/ }).querySelector('dl')!;
  const out: Record<string, string> = {};
  const terms = [...dl.querySelectorAll('dt')];
  for (const dt of terms) out[dt.textContent!] = (dt.nextElementSibling as HTMLElement).textContent!;
  return out;
}

const cards = () => screen.queryAllByRole('article').map((a) => within(a).getByRole('heading', { level: 3 }).textContent);

describe('admin payment server', () => {
  it('shows an unreachable BTCPay Server plainly, and checks again on request', async () => {
    const srv = staffServer([], [UNREACHABLE, HEALTHY]);
    const user = userEvent.setup();
    renderAt(<PaymentServer />, PAGE);
    await screen.findByText('Needs attention');
    expect(healthFacts()).toEqual({
      Provider: 'BTCPay Server',
      Reachable: 'No',
      Synchronized: 'No',
      Version: 'Unknown',
      Store: 'store-7',
      'Webhook registered': 'No',
      'Last webhook': when(UNREACHABLE.lastWebhookAt!),
      'Open invoices': '2',
      Checked: when(UNREACHABLE.checkedAt),
      Message: 'BTCPay Server is unreachable. Details: connect ECONNREFUSED 127.0.0.1:9',
    });
    expect(screen.queryByText(/The sandbox is active/)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Check again' }));
    await screen.findByText('Working');
    expect(srv.checks()).toBe(2);
    expect(healthFacts()).toMatchObject({
      Reachable: 'Yes',
      Synchronized: 'Yes',
      Version: '2.0.7',
      'Webhook registered': 'Yes',
      Message: 'No problems found.',
    });
    expect(screen.queryByText('Needs attention')).toBeNull();
  });

  it('says when the sandbox is the provider, and shows a failed check as its message', async () => {
    staffServer([], [SANDBOX, 'down']);
    const user = userEvent.setup();
    renderAt(<PaymentServer />, PAGE);
    expect(
      await screen.findByText('The sandbox is active because BTCPay Server is not configured: invoices are simulated on this server and no money moves.'),
    ).toBeTruthy();
    expect(healthFacts()).toMatchObject({
      Provider: 'Sandbox',
      Store: 'Unknown',
      'Last webhook': 'Never',
      'Open invoices': '0',
      Message: 'Sandbox mode: BTCPay Server is not configured, no real payments are taken.',
    });
    expect(within(screen.getByRole('heading', { level: 2, name: /^Health/ })).getByText('Sandbox')).toBeTruthy();
    expect(screen.queryByText('Working')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The payment server is unavailable. Please try again later.');
  });

  it('finds invoices by e-mail and status for support, each with every event received', async () => {
    const srv = staffServer([OPEN, PAID], [HEALTHY]);
    const user = userEvent.setup();
    renderAt(<PaymentServer />, PAGE);
    await waitFor(() => expect(cards()).toEqual(['Invoice inv-2Waiting for payment', 'Invoice inv-1Paid']));
    expect(srv.queries[0].get('page')).toBe('1');
    expect(srv.queries[0].has('query')).toBe(false);
    expect(srv.queries[0].has('status')).toBe(false);
    const open = screen.getByRole('article', { name: /inv-2/ });
    expect(within(open).getByText('No event received for this invoice yet.')).toBeTruthy();
    expect(within(open).getByText('Not credited')).toBeTruthy();
    expect(within(open).getByText('—')).toBeTruthy(); // no e-mail known

    await user.type(screen.getByLabelText('Invoice id, user id or e-mail'), 'ann@example.com');
    await user.selectOptions(screen.getByLabelText('Status'), 'Paid');
    await user.click(within(screen.getByRole('search', { name: 'Search invoices' })).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(cards()).toEqual(['Invoice inv-1Paid']));
    expect(srv.queries.at(-1)!.get('query')).toBe('ann@example.com');
    expect(srv.queries.at(-1)!.get('status')).toBe('Settled');

    const card = screen.getByRole('article', { name: /inv-1/ });
    expect(within(card).getByText('ann@example.com')).toBeTruthy();
    expect(within(card).getByText('$25.00')).toBeTruthy();
    const rows = within(within(card).getByRole('table', { name: 'Events of invoice inv-1' }))
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      [when('2026-01-15T10:01:00.000Z'), 'InvoiceCreated', 'New', when('2026-01-15T10:01:01.000Z'), 'no_change'],
      [when('2026-01-15T10:05:00.000Z'), 'InvoiceSettled', 'Settled', when('2026-01-15T10:05:01.000Z'), 'credited'],
      [when('2026-01-15T10:06:00.000Z'), 'InvoiceSettled', '—', 'Waiting', '—'],
    ]);

    await user.type(screen.getByLabelText('Invoice id, user id or e-mail'), 'x');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No invoices match.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(srv.queries.at(-1)!.has('query')).toBe(false);
    expect(srv.queries.at(-1)!.has('status')).toBe(false);
    expect((screen.getByLabelText('Invoice id, user id or e-mail') as HTMLInputElement).value).toBe('');
  });

  it('shows an invoice’s status and additional status in the page’s language', async () => {
    const partly = makeInvoice(3, { status: 'Expired', additionalStatus: 'PaidPartial' });
    const over = makeInvoice(4, { status: 'Settled', additionalStatus: 'PaidOver' });
    staffServer([over, partly], [HEALTHY]);
    await i18n.changeLanguage('es');
    try {
      renderAt(<PaymentServer />, `/es${PAGE}`);
      await waitFor(() => expect(cards()).toEqual(['Factura inv-4Pagada · Pagada de más', 'Factura inv-3Vencida · Pagada en parte']));
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('pages through the invoices', async () => {
    const many = Array.from({ length: 23 }, (_, i) => makeInvoice(23 - i));
    const srv = staffServer(many, [HEALTHY]);
    const user = userEvent.setup();
    renderAt(<PaymentServer />, PAGE);
    await waitFor(() => expect(cards()).toHaveLength(20));
    const pages = screen.getByRole('navigation', { name: 'Invoice pages' });
    expect(within(pages).getByText('Page 1 of 2 (23 in all)')).toBeTruthy();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(cards()).toEqual(['Invoice inv-3Waiting for payment', 'Invoice inv-2Waiting for payment', 'Invoice inv-1Waiting for payment']));
    expect(srv.queries.at(-1)!.get('page')).toBe('2');
  });
});

describe('PaymentServer with namespaces loaded on demand, as in the app', () => {
  // BTCPay's problems are worded in the page's language (sayIt, with the 'admin' namespace's
  // says.* texts), also when this page is the first one opened (a bookmark, the sandbox banner's
  // link, a reload): the health card asks for 'admin' itself; without it sayIt falls back to the
  // server's English message on a Spanish page.
  it('words "BTCPay Server is unreachable" in Spanish on the Spanish payment-server page opened first', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u9', email: 'staff@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    sessionStore.loaded = true;
    server.use(
      http.get('/api/admin/get-btcpayserver-health', () => apiJson('GET /api/admin/get-btcpayserver-health', UNREACHABLE)),
      http.get('/api/admin/get-invoices', () => apiJson('GET /api/admin/get-invoices', { invoices: [], total: 0, page: 1, pageSize: 20 })),
    );
    // What the page should say: the same words with every namespace at hand (the test setup's i18n).
    const spanish = sayIt(i18n.getFixedT('es'), UNREACHABLE.problems[0], UNREACHABLE.message, 'es');
    expect(spanish).toMatch(/^No se puede acceder a BTCPay Server/);

    const lazyI18n = appLikeI18n();
    await lazyI18n.changeLanguage('es');
    const mem = memoryLocation({ path: PAGE });
    render(
      <I18nextProvider i18n={lazyI18n}>
        <Router hook={mem.hook}>
          <Suspense fallback={<p>Loading...</p>}>
            <PaymentServer />
          </Suspense>
        </Router>
      </I18nextProvider>,
    );
    await screen.findByText('Requiere atención', {}, { timeout: 5000 }); // the health answer is shown
    const region = screen.getByRole('region', { name: /^Estado/ });
    expect(region.textContent).toContain(spanish);
  });
});
