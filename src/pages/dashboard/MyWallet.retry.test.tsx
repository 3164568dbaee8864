import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { promoWallet, usdWallet } from '../../components/market/testing';
import type { ErrorBody } from '../../../contract/errors/index.ts';
import type { Transaction } from '../../api/payments';
import MyWallet from './MyWallet';

// A promo code on a flaky connection: the server credits it, its answer is lost. What the wallet
// screen shows must then be read from the server, not kept from before the request.

const ALREADY_USED: ErrorBody = { message: 'You have already used this promo code.', code: 'wallet.promo_code_already_used' };
const EXPIRED: ErrorBody = { message: 'This promo code has expired.', code: 'wallet.promo_code_expired', params: { field: 'code' } };

const CREDIT: Transaction = {
  id: 1,
  walletId: 'w-promo',
  walletType: 'XG-PROMO-WALLET',
  kind: 'promo_credit',
  amountCents: 2000,
  balanceAfterCents: 2000,
  reference: 'code-id-1', // the promo code's row id, which the page never shows
  createdAt: '2026-01-15T13:00:00.000Z',
  promoCode: 'SPRING-20',
};

/** The wallet's routes over a promo wallet at $0.00; `redeem` answers the promo code (and may credit it). */
function walletServer(redeem: (db: { promoCents: number; transactions: Transaction[] }) => Response | Promise<Response>) {
  const db = { promoCents: 0, transactions: [] as Transaction[] };
  const reads = { wallets: 0, transactions: 0 };
  server.use(
    http.get('/api/all-wallets-by-user', () => {
      reads.wallets++;
      return apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(0), promoWallet(db.promoCents)] });
    }),
    http.get('/api/payment-provider', () => apiJson('GET /api/payment-provider', { mode: 'btcpay' })),
    http.get('/api/my-invoices', () => apiJson('GET /api/my-invoices', { invoices: [], total: 0, page: 1, pageSize: 10 })),
    http.get('/api/wallet-transactions', () => {
      reads.transactions++;
      return apiJson('GET /api/wallet-transactions', { transactions: db.transactions, total: db.transactions.length, page: 1, pageSize: 10 });
    }),
    http.post('/api/add-promo-code-to-promo-wallet', () => redeem(db)),
  );
  return reads;
}

const balances = () => screen.getAllByRole('list')[0]; // the wallets' balances, above the history
const promoBalance = () => within(balances()).getByText('Promo wallet').closest('li')!.textContent;
const history = () => screen.getByRole('region', { name: 'Transaction history' });

async function redeem(code: string) {
  const user = userEvent.setup();
  await user.clear(screen.getByLabelText('Promo code'));
  await user.type(screen.getByLabelText('Promo code'), code);
  await user.click(screen.getByRole('button', { name: 'Add promo code' }));
}

describe('a promo code whose answer was lost', () => {
  it('reads the balance and the history again: the credit shows after the lost answer and beside "already used" on the retry', async () => {
    let credited = false;
    walletServer((db) => {
      if (credited) return apiJson('POST /api/add-promo-code-to-promo-wallet', ALREADY_USED as never, 409);
      credited = true;
      db.promoCents = 2000; // done on the server
      db.transactions = [CREDIT];
      return HttpResponse.error(); // the answer is lost
    });
    renderAt(<MyWallet />, '/admin/dashboard/my-wallet');
    await waitFor(() => expect(within(balances()).getAllByText('$0.00')).toHaveLength(2));

    await redeem('SPRING-20');
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong.');
    // the code may have been credited: the balance and the history say whether it was
    await waitFor(() => expect(promoBalance()).toContain('$20.00'));
    await waitFor(() => expect(within(history()).getByText('SPRING-20')).toBeTruthy());

    await redeem('SPRING-20');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('You have already used this promo code.'));
    expect(promoBalance()).toContain('$20.00');
  });

  it('"already used" alone (credited from another tab) reads the balance and the history again', async () => {
    walletServer((db) => {
      db.promoCents = 2000; // redeemed in another tab, after this page read the wallets
      db.transactions = [CREDIT];
      return apiJson('POST /api/add-promo-code-to-promo-wallet', ALREADY_USED as never, 409);
    });
    renderAt(<MyWallet />, '/admin/dashboard/my-wallet');
    await waitFor(() => expect(within(balances()).getAllByText('$0.00')).toHaveLength(2));

    await redeem('SPRING-20');
    expect((await screen.findByRole('alert')).textContent).toBe('You have already used this promo code.');
    await waitFor(() => expect(promoBalance()).toContain('$20.00'));
    await waitFor(() => expect(within(history()).getByText('SPRING-20')).toBeTruthy());
  });

  it('a refusal that credits nothing (expired) reads nothing again', async () => {
    const reads = walletServer(() => apiJson('POST /api/add-promo-code-to-promo-wallet', EXPIRED as never, 400));
    renderAt(<MyWallet />, '/admin/dashboard/my-wallet');
    await waitFor(() => expect(within(balances()).getAllByText('$0.00')).toHaveLength(2));
    await waitFor(() => expect(reads).toEqual({ wallets: 1, transactions: 1 }));

    await redeem('SPRING-20');
    expect((await screen.findByRole('alert')).textContent).toBe('This promo code has expired.');
    await new Promise((r) => setTimeout(r, 100)); // a re-read would have been asked by now
    expect(reads).toEqual({ wallets: 1, transactions: 1 });
  });
});
