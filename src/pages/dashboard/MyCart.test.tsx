import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, apiError, makeOwnerAd, promoWallet, usdWallet } from '../../components/market/testing';
import { walletsStore } from '../../state/wallets';
import type { OwnerAd } from '../../api/ads';
import MyCart from './MyCart';

/** The cart as the server pages it (GET /api/cart-ads-by-user): the page the request asks for, and the total. */
function cartPage(ads: OwnerAd[], request: Request) {
  const q = new URL(request.url).searchParams;
  const page = Number(q.get('page') ?? 1);
  const pageSize = Number(q.get('pageSize') ?? 20);
  return apiJson('GET /api/cart-ads-by-user', { pendingAds: ads.slice((page - 1) * pageSize, page * pageSize), total: ads.length, page, pageSize });
}

describe('my cart', () => {
  it('pays an ad from the chosen wallet: 402 shows the message and charges nothing, then a payment moves it to review', async () => {
    const ad = makeOwnerAd({ status: 'unpaid', title: 'Evening company in town' });
    const calls: Array<{ id: string; body: unknown }> = [];
    let promoBalance = 1000;
    server.use(
      http.get('/api/cart-ads-by-user', ({ request }) => cartPage([ad], request)),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(0), promoWallet(promoBalance)] })),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.put('/api/ad-payment-in-cart/:id', async ({ params, request }) => {
        const body = (await request.json()) as { walletId: string };
        calls.push({ id: String(params.id), body });
        if (body.walletId === 'w-usd') return apiError('PUT /api/ad-payment-in-cart/:id', 402, 'wallet.insufficient_funds');
        promoBalance -= 1500;
        return apiJson('PUT /api/ad-payment-in-cart/:id', {
          ad: { ...ad, status: 'in_review', priceCents: 1500, paidWalletId: 'w-promo' },
          wallet: promoWallet(500),
        });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');

    const item = await screen.findByRole('listitem', { name: 'Evening company in town' });
    expect(await within(item).findByText('$15.00')).toBeTruthy();
    // both wallets can be chosen, each with its balance; neither covers $15.00
    const usd = within(item).getByRole('radio', { name: /USD wallet — \$0\.00/ });
    within(item).getByRole('radio', { name: /Promo wallet — \$10\.00/ });
    await user.click(usd);
    await user.click(within(item).getByRole('button', { name: 'Pay and send to review' }));
    expect((await within(item).findByRole('alert')).textContent).toBe(
      'This wallet does not have enough money for this ad. Choose another wallet or add funds.',
    );
    expect(screen.getByRole('listitem', { name: 'Evening company in town' })).toBeTruthy();

    promoBalance = 2000;
    await user.click(within(item).getByRole('radio', { name: /Promo wallet/ }));
    await user.click(within(item).getByRole('button', { name: 'Pay and send to review' }));
    expect((await screen.findByRole('status')).textContent).toContain('“Evening company in town” is paid and waiting for review.');
    expect(screen.queryByRole('listitem', { name: 'Evening company in town' })).toBeNull();
    expect(calls).toEqual([
      { id: ad.id, body: { walletId: 'w-usd', priceCents: 1500, durationDays: 30 } },
      { id: ad.id, body: { walletId: 'w-promo', priceCents: 1500, durationDays: 30 } },
    ]);
    // the wallet the server returned replaces the old balance
    expect(walletsStore.state.data?.find((w) => w.id === 'w-promo')?.amountCents).toBe(500);
  });

  it('a price changed since the page loaded: the payment is refused, the message says so, the new price shows, and paying again pays it', async () => {
    const ad = makeOwnerAd({ status: 'unpaid', title: 'Evening company in town' });
    let priceCents = 1500;
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/cart-ads-by-user', ({ request }) => cartPage([ad], request)),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(5000), promoWallet(0)] })),
      http.get('/api/get-ad-pricing', () =>
        apiJson('GET /api/get-ad-pricing', { pricing: AD_PRICING.pricing.map((p) => (p.listingType === 'female_esc' ? { ...p, priceCents } : p)) }),
      ),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.put('/api/ad-payment-in-cart/:id', async ({ request }) => {
        const body = (await request.json()) as { walletId: string; priceCents?: number };
        bodies.push(body);
        if (body.priceCents !== priceCents) {
          return apiError('PUT /api/ad-payment-in-cart/:id', 409, 'pricing.price_changed', { priceCents, durationDays: 30 });
        }
        return apiJson('PUT /api/ad-payment-in-cart/:id', {
          ad: { ...ad, status: 'in_review', priceCents, paidWalletId: 'w-usd' },
          wallet: usdWallet(5000 - priceCents),
        });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    const item = await screen.findByRole('listitem', { name: 'Evening company in town' });
    expect(await within(item).findByText('$15.00')).toBeTruthy();
    priceCents = 2500; // staff raise the price while the page is open
    await user.click(within(item).getByRole('button', { name: 'Pay and send to review' }));
    expect((await within(item).findByRole('alert')).textContent).toBe(
      'The price changed since this page was loaded. Check the new price, then pay again: nothing was charged.',
    );
    expect(await within(item).findByText('$25.00')).toBeTruthy();
    await user.click(within(item).getByRole('button', { name: 'Pay and send to review' }));
    expect((await screen.findByRole('status')).textContent).toContain('is paid and waiting for review.');
    expect(bodies).toEqual([
      { walletId: 'w-usd', priceCents: 1500, durationDays: 30 },
      { walletId: 'w-usd', priceCents: 2500, durationDays: 30 },
    ]);
  });

  it('an ad paid meanwhile (another tab): says so and reads the cart again; deletes an ad only after confirmation', async () => {
    const ad = makeOwnerAd({ status: 'unpaid', title: 'Quiet afternoons downtown' });
    const paidElsewhere = makeOwnerAd({ status: 'unpaid', title: 'Paid in another tab' });
    let cart = [ad, paidElsewhere];
    let deleted: string | null = null;
    server.use(
      http.get('/api/cart-ads-by-user', ({ request }) => cartPage(cart, request)),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(5000)] })),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.put('/api/ad-payment-in-cart/:id', () => {
        cart = cart.filter((a) => a.id !== paidElsewhere.id); // it was paid meanwhile
        return apiError('PUT /api/ad-payment-in-cart/:id', 409, 'ad.already_paid');
      }),
      http.delete('/api/delete-cart-ad/:id', ({ params }) => {
        deleted = String(params.id);
        return apiJson('DELETE /api/delete-cart-ad/:id', { deleted: true });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    const other = await screen.findByRole('listitem', { name: 'Paid in another tab' });
    await waitFor(() => expect(within(other).getByRole('radio', { name: /USD wallet — \$50\.00/ })).toBeTruthy());
    await user.click(within(other).getByRole('button', { name: 'Pay and send to review' }));
    expect((await screen.findByRole('status')).textContent).toContain('This ad is already paid.');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Paid in another tab' })).toBeNull()); // the cart is read again
    const item = screen.getByRole('listitem', { name: 'Quiet afternoons downtown' });

    await user.click(within(item).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this ad?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toBeNull();
    await user.click(within(item).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete ad' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Quiet afternoons downtown' })).toBeNull());
    expect(deleted).toBe(ad.id);
    expect(screen.getByText('Your cart is empty.')).toBeTruthy();
  });

  it('deleting an ad puts focus on the page heading, not on the removed button (nor lost to the page body)', async () => {
    const [first, second] = [
      makeOwnerAd({ status: 'unpaid', title: 'First ad in the cart' }),
      makeOwnerAd({ status: 'unpaid', title: 'Second ad in the cart' }),
    ];
    server.use(
      http.get('/api/cart-ads-by-user', ({ request }) => cartPage([first, second], request)),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(5000)] })),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.delete('/api/delete-cart-ad/:id', () => apiJson('DELETE /api/delete-cart-ad/:id', { deleted: true })),
    );
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    const item = await screen.findByRole('listitem', { name: 'First ad in the cart' });
    await user.click(within(item).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete this ad?' })).getByRole('button', { name: 'Delete ad' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'First ad in the cart' })).toBeNull());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'My cart' }));
    expect(screen.getByRole('listitem', { name: 'Second ad in the cart' })).toBeTruthy();
  });
  it('pages a long cart: the next page on asking, and the page before once the last one is emptied', async () => {
    const cart = Array.from({ length: 21 }, (_, i) => makeOwnerAd({ id: `ad-${i + 1}`, status: 'unpaid', title: `Cart ad ${i + 1}` }));
    const asked: string[] = [];
    server.use(
      http.get('/api/cart-ads-by-user', ({ request }) => {
        asked.push(new URL(request.url).search);
        return cartPage(cart, request);
      }),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(5000)] })),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.delete('/api/delete-cart-ad/:id', ({ params }) => {
        cart.splice(
          cart.findIndex((a) => a.id === params.id),
          1,
        );
        return apiJson('DELETE /api/delete-cart-ad/:id', { deleted: true });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    await screen.findByRole('listitem', { name: 'Cart ad 1' });
    expect(screen.getAllByRole('listitem')).toHaveLength(20);
    const pager = screen.getByRole('navigation', { name: 'Cart pages' });
    expect(within(pager).getByText(/Page 1 of 2/)).toBeTruthy();

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    const last = await screen.findByRole('listitem', { name: 'Cart ad 21' });
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    await user.click(within(last).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete this ad?' })).getByRole('button', { name: 'Delete ad' }));
    await screen.findByRole('listitem', { name: 'Cart ad 1' });
    expect(screen.getAllByRole('listitem')).toHaveLength(20);
    expect(screen.queryByText('Your cart is empty.')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Cart pages' })).toBeNull();
    expect(asked).toEqual(['?page=1&pageSize=20', '?page=2&pageSize=20', '?page=2&pageSize=20', '?page=1&pageSize=20']);
  });
});

describe('my cart without a price list', () => {
  // The payment names the price the page showed; with no price list read (its request failed), the
  // cart shows "—" and does not pay: the server would charge whatever the price is then (say, one
  // staff just raised), an amount the provider never saw.
  it('does not pay, and says the prices could not be read', async () => {
    const ad = makeOwnerAd({ status: 'unpaid', title: 'Evening company in town' });
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/cart-ads-by-user', () => apiJson('GET /api/cart-ads-by-user', { pendingAds: [ad], total: 1, page: 1, pageSize: 20 })),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(100_000)] })),
      http.get('/api/get-ad-pricing', () => apiError('GET /api/get-ad-pricing', 503, 'request.busy')),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.put('/api/ad-payment-in-cart/:id', async ({ request }) => {
        bodies.push(await request.json());
        return apiJson('PUT /api/ad-payment-in-cart/:id', {
          ad: { ...ad, status: 'in_review', priceCents: 15_000, paidWalletId: 'w-usd' },
          wallet: usdWallet(85_000),
        });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    const item = await screen.findByRole('listitem', { name: 'Evening company in town' });
    await within(item).findByRole('radio', { name: /USD wallet/ });
    expect(within(item).getByText('—')).toBeTruthy(); // no price shown
    expect(await screen.findByRole('alert')).toBeTruthy(); // the prices could not be read
    const pay = within(item).getByRole('button', { name: 'Pay and send to review' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
    await user.click(pay);
    await new Promise((r) => setTimeout(r, 100));
    expect(bodies).toEqual([]);
  });
});
