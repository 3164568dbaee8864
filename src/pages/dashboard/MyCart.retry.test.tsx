import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, apiError, makeOwnerAd, usdWallet } from '../../components/market/testing';
import MyCart from './MyCart';

// A cart payment on a flaky connection: the server takes the money, its answer is lost. The
// wallets on screen must then be read from the server, not kept from before the payment.

/** The cart's routes over two unpaid ads and a USD wallet of $20.00; `pay` answers a payment (and may take $15.00). */
function cartServer(pay: (db: { cart: string[]; usdCents: number }, id: string) => Response) {
  const ads = [
    makeOwnerAd({ id: 'ad-a', status: 'unpaid', title: 'First ad in the cart' }),
    makeOwnerAd({ id: 'ad-b', status: 'unpaid', title: 'Second ad in the cart' }),
  ];
  const db = { cart: ads.map((a) => a.id), usdCents: 2000 };
  const reads = { wallets: 0 };
  server.use(
    http.get('/api/cart-ads-by-user', () => {
      const left = ads.filter((a) => db.cart.includes(a.id));
      return apiJson('GET /api/cart-ads-by-user', { pendingAds: left, total: left.length, page: 1, pageSize: 20 });
    }),
    http.get('/api/all-wallets-by-user', () => {
      reads.wallets++;
      return apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(db.usdCents)] });
    }),
    http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
    http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
    http.put('/api/ad-payment-in-cart/:id', ({ params }) => pay(db, String(params.id))),
  );
  return reads;
}

/** What the ad's wallet choice says of the USD wallet ("USD wallet — $20.00 …"). */
const usdChoice = (title: string) =>
  within(screen.getByRole('listitem', { name: title }))
    .getByRole('radio', { name: /USD wallet/ })
    .closest('label')?.textContent;

describe('a cart payment whose answer was lost', () => {
  it('reads the wallets again: the new balance shows after the lost answer, and after "already paid" on the retry', async () => {
    cartServer((db, id) => {
      if (!db.cart.includes(id)) return apiError('PUT /api/ad-payment-in-cart/:id', 409, 'ad.already_paid');
      db.cart = db.cart.filter((x) => x !== id);
      db.usdCents -= 1500; // done on the server
      return HttpResponse.error(); // the answer is lost
    });
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    const first = await screen.findByRole('listitem', { name: 'First ad in the cart' });
    await waitFor(() => expect(usdChoice('First ad in the cart')).toContain('$20.00'));

    await user.click(within(first).getByRole('button', { name: 'Pay and send to review' }));
    expect((await within(first).findByRole('alert')).textContent).toBe('Something went wrong.');
    // the payment may have been done: the wallet says whether it was
    await waitFor(() => expect(usdChoice('First ad in the cart')).toContain('$5.00'));

    await user.click(within(first).getByRole('button', { name: 'Pay and send to review' }));
    expect((await screen.findByRole('status')).textContent).toContain('This ad is already paid.');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'First ad in the cart' })).toBeNull());
    expect(usdChoice('Second ad in the cart')).toContain('$5.00');
  });

  it('"already paid" alone (paid from another tab) reads the wallets again', async () => {
    const reads = cartServer((db, id) => {
      db.cart = db.cart.filter((x) => x !== id);
      db.usdCents -= 1500; // paid in another tab, after this page read the wallets
      return apiError('PUT /api/ad-payment-in-cart/:id', 409, 'ad.already_paid');
    });
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    const first = await screen.findByRole('listitem', { name: 'First ad in the cart' });
    await waitFor(() => expect(usdChoice('First ad in the cart')).toContain('$20.00'));

    await user.click(within(first).getByRole('button', { name: 'Pay and send to review' }));
    expect((await screen.findByRole('status')).textContent).toContain('This ad is already paid.');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'First ad in the cart' })).toBeNull());
    await waitFor(() => expect(usdChoice('Second ad in the cart')).toContain('$5.00'));
    expect(reads.wallets).toBe(2);
  });

  it('a refusal that takes nothing (not enough money) reads nothing again', async () => {
    const reads = cartServer(() => apiError('PUT /api/ad-payment-in-cart/:id', 402, 'wallet.insufficient_funds'));
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    const first = await screen.findByRole('listitem', { name: 'First ad in the cart' });
    await waitFor(() => expect(usdChoice('First ad in the cart')).toContain('$20.00'));

    await user.click(within(first).getByRole('button', { name: 'Pay and send to review' }));
    expect((await within(first).findByRole('alert')).textContent).toBe(
      'This wallet does not have enough money for this ad. Choose another wallet or add funds.',
    );
    await new Promise((r) => setTimeout(r, 100)); // a re-read would have been asked by now
    expect(reads.wallets).toBe(1);
  });
});
