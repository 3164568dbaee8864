import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { usdWallet } from '../../components/market/testing';
import MyWallet from './MyWallet';

function walletServer() {
  const adds: unknown[] = [];
  server.use(
    http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1234)] })),
    http.get('/api/payment-provider', () => apiJson('GET /api/payment-provider', { mode: 'btcpay' })),
    http.get('/api/my-invoices', () => apiJson('GET /api/my-invoices', { invoices: [], total: 0, page: 1, pageSize: 20 })),
    http.get('/api/wallet-transactions', () => apiJson('GET /api/wallet-transactions', { transactions: [], total: 0, page: 1, pageSize: 20 })),
    http.post('/api/add-promo-code-to-promo-wallet', async ({ request }) => {
      adds.push(await request.json());
      return apiJson('POST /api/add-promo-code-to-promo-wallet', { wallet: usdWallet(0) } as never);
    }),
  );
  return adds;
}

describe('my wallet: promo code', () => {
  // A code refused by its rule before sending moves focus to the field, described by the rule:
  // the provider who pressed "Add promo code" hears what is wrong.
  it('moves focus to a promo code refused by its rule, described by it', async () => {
    const adds = walletServer();
    const user = userEvent.setup();
    renderAt(<MyWallet />, '/admin/dashboard/my-wallet');
    await screen.findByText('$12.34');
    await user.type(screen.getByRole('textbox', { name: 'Promo code' }), 'ab');
    await user.click(screen.getByRole('button', { name: 'Add promo code' }));
    expect(adds).toEqual([]);
    const field = screen.getByRole('textbox', { name: 'Promo code', description: /^Promo code must be 4–32 of A–Z, 0–9 and -\./ });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field);
  });
});
