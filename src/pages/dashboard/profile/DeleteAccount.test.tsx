import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../../test/server';
import { apiJson } from '../../../test/contract';
import { renderAt } from '../../../test/render';
import { apiError, promoWallet, usdWallet } from '../../../components/market/testing';
import type { Wallet } from '../../../api/wallets';
import type { Invoice } from '../../../api/payments';
import { DeleteAccount } from './DeleteAccount';

// Money left in the wallets, or an open Bitcoin invoice, is forfeited by the deletion: the dialog
// says what is left before the password is asked, and says so when it could not check.

function invoice(n: number, over: Partial<Invoice> = {}): Invoice {
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

/** Answers the wallets (or fails them) and the invoices; records what the deletion sent. */
function accountServer(wallets: Wallet[] | 'fail', invoices: Invoice[] = []) {
  const seen = { invoicesQuery: '', deleted: null as unknown };
  server.use(
    http.get('/api/all-wallets-by-user', () =>
      wallets === 'fail' ? apiError('GET /api/all-wallets-by-user', 503, 'request.busy') : apiJson('GET /api/all-wallets-by-user', { wallets }),
    ),
    http.get('/api/my-invoices', ({ request }) => {
      seen.invoicesQuery = new URL(request.url).search;
      return apiJson('GET /api/my-invoices', { invoices, total: invoices.length, page: 1, pageSize: 100 });
    }),
    http.delete('/api/delete-my-profile', async ({ request }) => {
      seen.deleted = await request.json();
      return apiJson('DELETE /api/delete-my-profile', { isAuthenticated: false, userRoles: ['GUEST_USER'] });
    }),
    http.post('/api/logout', () => apiJson('POST /api/logout', { isAuthenticated: false, userRoles: ['GUEST_USER'] })),
  );
  return seen;
}

/** Opens the dialog and waits until both reads are answered. */
async function openDialog(user: ReturnType<typeof userEvent.setup>, open = 'Delete my account', checking = /^Checking your wallets/) {
  await user.click(await screen.findByRole('button', { name: open }));
  const dialog = screen.getByRole('dialog');
  await waitFor(() => expect(within(dialog).queryByText(checking)).toBeNull());
  return dialog;
}

/** The dialog's text with no-break spaces as plain ones (Intl puts one between "25,00" and "US$"). */
const textOf = (el: HTMLElement) => el.textContent!.replace(/\u00a0/g, ' ');

describe('DeleteAccount: money left', () => {
  it('lists each funded wallet with its balance, says it is forfeited, and still deletes', async () => {
    const seen = accountServer(
      [usdWallet(123456), promoWallet(500)],
      [invoice(2, { status: 'Settled', creditedAt: '2026-01-15T12:20:00.000Z' }), invoice(1, { status: 'Expired' })],
    );
    const user = userEvent.setup();
    const view = renderAt(<DeleteAccount />, '/admin/dashboard/my-profile');
    const dialog = await openDialog(user);
    const items = within(dialog)
      .getAllByRole('listitem')
      .map((li) => textOf(li));
    expect(items).toEqual(['USD wallet: $1,234.56', 'Promo wallet: $5.00']); // settled and expired invoices are not open
    expect(within(dialog).getByText(/cannot be refunded or recovered once your account is deleted\. Spend it on ads or bumps first\./)).toBeTruthy();
    expect(within(dialog).queryByText(/open payment/)).toBeNull();
    expect(seen.invoicesQuery).toBe('?page=1&pageSize=100');
    // The warning comes before the password, and the dialog's description includes it.
    const warning = document.getElementById('delete-dialog-left')!;
    expect(warning.compareDocumentPosition(within(dialog).getByLabelText('Password')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(dialog.getAttribute('aria-describedby')).toBe('delete-dialog-text delete-dialog-left');

    await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(view.currentPath()).toBe('/'));
    expect(seen.deleted).toEqual({ password: 'correct horse battery' });
  });

  it('writes the amounts in Spanish form on the Spanish page', async () => {
    accountServer([usdWallet(123456), promoWallet(500)], [invoice(1, { amountCents: 2500 })]);
    await i18n.changeLanguage('es');
    const user = userEvent.setup();
    renderAt(<DeleteAccount />, '/es/admin/dashboard/my-profile');
    const dialog = await openDialog(user, 'Eliminar mi cuenta', /^Comprobando/);
    expect(within(dialog).getAllByRole('listitem').map(textOf)).toEqual([
      'Billetera en USD: 1234,56 US$',
      'Billetera promocional: 5,00 US$',
      'Pago en Bitcoin de 25,00 US$, pendiente de pago',
    ]);
    expect(within(dialog).getByText(/no se puede reembolsar ni recuperar una vez eliminada tu cuenta/)).toBeTruthy();
  });

  it('adds nothing when the wallets are empty and no invoice is open', async () => {
    accountServer([usdWallet(0), promoWallet(0)], [invoice(1, { status: 'Invalid' })]);
    const user = userEvent.setup();
    renderAt(<DeleteAccount />, '/admin/dashboard/my-profile');
    const dialog = await openDialog(user);
    expect(document.getElementById('delete-dialog-left')!.textContent).toBe('');
    expect(within(dialog).queryByRole('listitem')).toBeNull();
    expect(within(dialog).queryByText(/refunded|recovered|\$/)).toBeNull();
  });

  it('mentions open invoices (waiting for payment, or paid and confirming) even with empty wallets', async () => {
    accountServer(
      [usdWallet(0)],
      [invoice(3, { amountCents: 2500 }), invoice(2, { status: 'Processing', amountCents: 1000, additionalStatus: 'None' }), invoice(1, { status: 'Settled' })],
    );
    const user = userEvent.setup();
    renderAt(<DeleteAccount />, '/admin/dashboard/my-profile');
    const dialog = await openDialog(user);
    expect(within(dialog).getAllByRole('listitem').map(textOf)).toEqual([
      'Bitcoin payment of $25.00, waiting for payment',
      'Bitcoin payment of $10.00, paid and waiting for confirmation',
    ]);
    expect(within(dialog).getByText(/^Bitcoin that reaches an open payment after the deletion is lost too/)).toBeTruthy();
  });

  it('says the wallets could not be checked (not that they are empty) and still lets the account be deleted', async () => {
    const seen = accountServer('fail');
    const user = userEvent.setup();
    const view = renderAt(<DeleteAccount />, '/admin/dashboard/my-profile');
    const dialog = await openDialog(user);
    expect(within(dialog).getByText(/^We could not read your wallet balances, so we cannot tell whether money is left\./)).toBeTruthy();
    expect(within(dialog).queryByText(/\$/)).toBeNull(); // no balance claimed, not even $0.00
    expect(within(dialog).queryByRole('alert')).toBeNull(); // the read's failure is not the form's error

    await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(view.currentPath()).toBe('/'));
    expect(seen.deleted).toEqual({ password: 'correct horse battery' });
  });
});
