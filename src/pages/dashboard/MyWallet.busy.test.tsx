import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { promoWallet, usdWallet } from '../../components/market/testing';
import type { Wallet } from '../../api/wallets';
import MyWallet from './MyWallet';

/** The wallet page's reads, with the given wallets; `hold` makes the next action wait for the test. */
function walletServer(wallets: Wallet[]) {
  const state = { wallets, mailed: 0, created: 0, release: null as null | (() => void) };
  const held = () => new Promise<void>((resolve) => (state.release = resolve));
  server.use(
    http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: state.wallets })),
    http.get('/api/payment-provider', () => apiJson('GET /api/payment-provider', { mode: 'btcpay' })),
    http.get('/api/my-invoices', () => apiJson('GET /api/my-invoices', { invoices: [], total: 0, page: 1, pageSize: 10 })),
    http.get('/api/wallet-transactions', () => apiJson('GET /api/wallet-transactions', { transactions: [], total: 0, page: 1, pageSize: 10 })),
    http.get('/api/email-wallet-promo-code', async () => {
      state.mailed++;
      await held();
      return apiJson('GET /api/email-wallet-promo-code', { sent: true, email: 'ann@example.com' });
    }),
    http.post('/api/create-promo-wallet', () => {
      state.created++;
      state.wallets = [...state.wallets, promoWallet(0)];
      return apiJson('POST /api/create-promo-wallet', { wallet: promoWallet(0) });
    }),
    http.post('/api/add-promo-code-to-promo-wallet', () => apiJson('POST /api/add-promo-code-to-promo-wallet', { wallet: promoWallet(2000) })),
  );
  return state;
}

const spanish = () => act(() => i18n.changeLanguage('es'));

describe('my wallet: busy buttons and outcomes after a language switch', () => {
  // jsdom keeps focus on a disabled button (Chromium drops it to <body>): "kept" is focused and not `disabled`.
  it('keeps focus on "E-mail me a welcome promo code" while it runs, sends once, and words the outcome again in Spanish', async () => {
    const srv = walletServer([usdWallet(0), promoWallet(500)]);
    const user = userEvent.setup();
    renderAt(<MyWallet />, '/admin/dashboard/my-wallet');
    const button = await screen.findByRole<HTMLButtonElement>('button', { name: 'E-mail me a welcome promo code' });
    button.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(srv.release).not.toBeNull());
    expect(document.activeElement).toBe(button);
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Enter}');
    await user.click(button);
    expect(srv.mailed).toBe(1);

    srv.release!();
    expect((await screen.findByRole('status')).textContent).toBe('Check your inbox: we sent you a welcome promo code.');
    expect(document.activeElement).toBe(button);
    await spanish();
    expect(screen.getByRole('status').textContent).toBe('Revisa tu correo: te enviamos un código promocional de bienvenida.');
  });

  it('creates the promo wallet, focuses what it says (the button is gone), and words it and a redeemed code again in Spanish', async () => {
    const srv = walletServer([usdWallet(0)]);
    const user = userEvent.setup();
    renderAt(<MyWallet />, '/admin/dashboard/my-wallet');
    await user.click(await screen.findByRole('button', { name: 'Create my promo wallet' }));
    const ready = await screen.findByText('Your promo wallet is ready.');
    expect(srv.created).toBe(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Create my promo wallet' })).toBeNull());
    expect(document.activeElement).toBe(ready);

    await user.type(screen.getByLabelText('Promo code'), 'WELCOME-20');
    await user.click(screen.getByRole('button', { name: 'Add promo code' }));
    expect(await screen.findByText('Promo code added. Your promo balance is $20.00.')).toBeTruthy();
    await spanish();
    expect(screen.getByText('Tu billetera promocional está lista.')).toBeTruthy();
    expect(screen.getByText(/^Código añadido\. Tu saldo promocional es /).textContent).toBe(
      `Código añadido. Tu saldo promocional es ${new Intl.NumberFormat('es', { style: 'currency', currency: 'USD' }).format(20)}.`,
    );
  });
});
