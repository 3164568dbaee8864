import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Route } from 'wouter';
import i18n from 'i18next';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { apiError } from '../../components/market/testing';
import { navigation } from '../../api/client';
import { routes } from '../../app/routes';
import type { SandboxAction, SandboxInvoice } from '../../api/payments';
import SandboxCheckout from './SandboxCheckout';

const INVOICE: SandboxInvoice = {
  invoiceId: 'inv-42',
  amountCents: 2500,
  status: 'New',
  additionalStatus: 'None',
  expiresAt: '2026-01-15T12:15:00.000Z',
  redirectUrl: 'http://localhost:3000/admin/dashboard/my-wallet',
  canSimulate: true,
};

/** What each simulation does to the invoice, as the sandbox would answer. */
const AFTER: Record<SandboxAction, Partial<SandboxInvoice>> = {
  pay: { status: 'Settled' },
  partial: { additionalStatus: 'PaidPartial' },
  expire: { status: 'Expired' },
};

function sandboxServer(start: SandboxInvoice, opts: { refuse?: boolean } = {}) {
  let invoice = { ...start };
  const actions: string[] = [];
  server.use(
    http.get('/api/sandbox/invoices/:invoiceId', ({ params }) =>
      params.invoiceId === invoice.invoiceId
        ? apiJson('GET /api/sandbox/invoices/:invoiceId', { invoice })
        : apiError('GET /api/sandbox/invoices/:invoiceId', 404, 'payment.invoice_not_found'),
    ),
    http.post('/api/sandbox/invoices/:invoiceId/simulate', async ({ request }) => {
      const { action } = (await request.json()) as { action: SandboxAction };
      actions.push(action);
      const route = 'POST /api/sandbox/invoices/:invoiceId/simulate';
      if (opts.refuse) return apiError(route, 403, 'payment.sandbox_forbidden');
      if (invoice.status !== 'New') return apiError(route, 409, 'payment.sandbox_invoice_closed');
      invoice = { ...invoice, ...AFTER[action] };
      return apiJson(route, { invoice });
    }),
  );
  return { actions };
}

const render = (id = INVOICE.invoiceId) => renderAt(<Route path={routes.sandboxCheckout} component={SandboxCheckout} />, `/sandbox/checkout/${id}`);
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const NAMES = ['Simulate payment', 'Simulate partial payment', 'Simulate expiry'];

describe('sandbox checkout', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says SANDBOX, shows the invoice, and plays a partial payment then a full one', async () => {
    const srv = sandboxServer(INVOICE);
    const user = userEvent.setup();
    render();
    expect(await screen.findByText('$25.00')).toBeTruthy();
    expect(screen.getByText('SANDBOX')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sandbox checkout');
    expect(screen.getByText('inv-42')).toBeTruthy();
    expect(screen.getByText('Waiting for payment')).toBeTruthy();
    expect(screen.getByText(new Date(INVOICE.expiresAt).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' }))).toBeTruthy();
    expect(NAMES.map((n) => button(n).disabled)).toEqual([false, false, false]);

    await user.click(button('Simulate partial payment'));
    expect((await screen.findByRole('status')).textContent).toBe('Partial payment simulated. The invoice is now: Waiting for payment.');
    expect(screen.getByText('Waiting for payment (PaidPartial)')).toBeTruthy();
    expect(NAMES.map((n) => button(n).disabled)).toEqual([false, false, false]);

    await user.click(button('Simulate payment'));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Payment simulated. The invoice is now: Paid.'));
    expect(srv.actions).toEqual(['partial', 'pay']);
    // Closed now: nothing more to play, and the way back to the wallet.
    expect(NAMES.map((n) => button(n).disabled)).toEqual([true, true, true]);
    const why = screen.getByText('This invoice is no longer open: there is nothing more to simulate.');
    expect(button('Simulate expiry').getAttribute('aria-describedby')).toBe(why.id);
    expect(screen.getByRole('link', { name: 'Back to my wallet' }).getAttribute('href')).toBe('http://localhost:3000/admin/dashboard/my-wallet');
  });

  it('plays an expiry', async () => {
    const srv = sandboxServer(INVOICE);
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Simulate expiry' }));
    expect((await screen.findByRole('status')).textContent).toBe('Expiry simulated. The invoice is now: Expired.');
    expect(srv.actions).toEqual(['expire']);
    expect(button('Simulate payment').disabled).toBe(true);
  });

  it('shows the buttons disabled, with the reason, to a visitor who may not simulate', async () => {
    const srv = sandboxServer({ ...INVOICE, canSimulate: false });
    const user = userEvent.setup();
    render();
    const why = await screen.findByText('Only staff, or someone on the server itself, may simulate payments. Ask a member of staff to press these buttons.');
    for (const name of NAMES) {
      expect(button(name).disabled, name).toBe(true);
      expect(button(name).getAttribute('aria-describedby'), name).toBe(why.id);
    }
    await user.click(button('Simulate payment'));
    expect(srv.actions).toEqual([]);
    expect(screen.getByText('SANDBOX')).toBeTruthy();
  });

  it("shows the server's refusal on the page (no trip to the sign-in page) and an unknown invoice, in the page's language", async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => undefined);
    sandboxServer(INVOICE, { refuse: true });
    const user = userEvent.setup();
    const view = render();
    await user.click(await screen.findByRole('button', { name: 'Simulate payment' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Only staff, or someone on the server itself, may simulate payments.');
    expect(assign).not.toHaveBeenCalled();
    expect(screen.queryByRole('status')).toBeNull();
    view.unmount();

    await i18n.changeLanguage('es');
    try {
      renderAt(<Route path={routes.sandboxCheckout} component={SandboxCheckout} />, '/sandbox/checkout/nope');
      expect((await screen.findByRole('alert')).textContent).toBe('No se encontró la factura.');
      expect(screen.getByText('SANDBOX')).toBeTruthy();
      expect(screen.queryByRole('button')).toBeNull();
      expect(within(screen.getByRole('article')).getByRole('heading', { level: 1 }).textContent).toBe('Pago de prueba (sandbox)');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
