import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, apiError, makeOwnerAd, promoWallet } from '../../components/market/testing';
import { sessionStore } from '../../state/session';
import MyAds from './MyAds';
import MyCart from './MyCart';

// Keyboard focus on the dashboard's lists when an action's request runs, and when it takes the control away.

describe('my ads: the online switch', () => {
  it('keeps focus while its request runs, ignores a second press meanwhile, and still has it after', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    sessionStore.loaded = true;
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/all-ads-by-user', () =>
        apiJson('GET /api/all-ads-by-user', { approvedAds: [ad], pendingAds: [], total: 1, page: 1, pageSize: 20, totals: { approvedAds: 1, pendingAds: 0 } }),
      ),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.put('/api/update-ad-online-status/:id', async ({ request }) => {
        const body = (await request.json()) as { online: boolean };
        bodies.push(body);
        await delay(150);
        return apiJson('PUT /api/update-ad-online-status/:id', { ad: { ...ad, online: body.online } });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    const item = await screen.findByRole('listitem', { name: 'Evenings in the city' });
    const toggle = within(item).getByRole<HTMLInputElement>('switch', { name: 'Online' });
    toggle.focus();
    await user.keyboard(' ');
    expect(toggle.getAttribute('aria-disabled')).toBe('true');
    expect(toggle.disabled).toBe(false);
    expect(document.activeElement).toBe(toggle);
    await user.keyboard(' '); // ignored while the first one runs
    await waitFor(() => expect(toggle.getAttribute('aria-disabled')).toBeNull());
    expect(toggle.checked).toBe(false);
    expect(bodies).toEqual([{ online: false }]);
    expect(document.activeElement).toBe(toggle);
  });
});

describe('my cart: paying', () => {
  function cartServer(pay: () => Response | Promise<Response>) {
    const ads = [makeOwnerAd({ id: 'a1', status: 'unpaid', title: 'Evening company in town' })];
    server.use(
      http.get('/api/cart-ads-by-user', () => apiJson('GET /api/cart-ads-by-user', { pendingAds: ads, total: ads.length, page: 1, pageSize: 20 })),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [promoWallet(5000)] })),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.put('/api/ad-payment-in-cart/:id', async () => {
        await delay(100);
        const res = await pay();
        if (res.ok) ads.length = 0;
        return res;
      }),
    );
    return ads;
  }

  it('moves focus to the outcome when the paid ad leaves the cart', async () => {
    const ads = cartServer(() =>
      apiJson('PUT /api/ad-payment-in-cart/:id', {
        ad: makeOwnerAd({ id: 'a1', status: 'in_review', title: 'Evening company in town', priceCents: 1500, paidWalletId: 'w-promo' }),
        wallet: promoWallet(3500),
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    const item = await screen.findByRole('listitem', { name: 'Evening company in town' });
    const pay = within(item).getByRole<HTMLButtonElement>('button', { name: 'Pay and send to review' });
    await waitFor(() => expect(pay.disabled).toBe(false));
    pay.focus();
    await user.keyboard('{Enter}');
    const note = await screen.findByRole('status');
    expect(note.textContent).toContain('“Evening company in town” is paid and waiting for review.');
    await waitFor(() => expect(document.activeElement).toBe(note));
    expect(ads).toEqual([]);
  });

  it('keeps focus on Pay while it pays and after a refusal, and pays once however often it is pressed', async () => {
    let calls = 0;
    cartServer(() => (calls++, apiError('PUT /api/ad-payment-in-cart/:id', 402, 'wallet.insufficient_funds')));
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    const item = await screen.findByRole('listitem', { name: 'Evening company in town' });
    const pay = within(item).getByRole<HTMLButtonElement>('button', { name: 'Pay and send to review' });
    await waitFor(() => expect(pay.disabled).toBe(false));
    pay.focus();
    await user.keyboard('{Enter}');
    expect(pay.getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Enter}');
    expect(await within(item).findByRole('alert')).toBeTruthy();
    expect(calls).toBe(1);
    expect(pay.getAttribute('aria-disabled')).toBeNull();
    expect(document.activeElement).toBe(pay);
  });
});
