import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, apiError, makeOwnerAd, usdWallet } from '../../components/market/testing';
import MyCart from './MyCart';

// jsdom keeps focus on a disabled button (Chromium drops it to <body>) and refuses to focus one:
// "kept" is focused and not `disabled`.
describe('my cart: Delete while its deletion runs', () => {
  it('a delete dialog closed with Escape gives focus back to Delete, which opens nothing until the deletion ends', async () => {
    const ad = makeOwnerAd({ status: 'unpaid', title: 'Evening company in town' });
    const state = { deletes: 0, release: null as null | (() => void) };
    server.use(
      http.get('/api/cart-ads-by-user', () => apiJson('GET /api/cart-ads-by-user', { pendingAds: [ad], total: 1, page: 1, pageSize: 20 })),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(5000)] })),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.delete('/api/delete-cart-ad/:id', async () => {
        state.deletes++;
        await new Promise<void>((resolve) => (state.release = resolve));
        return apiError('DELETE /api/delete-cart-ad/:id', 503, 'request.busy');
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyCart />, '/admin/dashboard/my-cart');
    const item = await screen.findByRole('listitem', { name: 'Evening company in town' });
    const del = within(item).getByRole<HTMLButtonElement>('button', { name: 'Delete' });
    await user.click(del);
    await user.click(within(screen.getByRole('dialog', { name: 'Delete this ad?' })).getByRole('button', { name: 'Delete ad' }));
    await waitFor(() => expect(state.release).not.toBeNull());

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(del);
    expect(del.disabled).toBe(false);
    expect(del.getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Enter}');
    await user.click(del);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(state.deletes).toBe(1);

    state.release!();
    expect((await within(item).findByRole('alert')).textContent).toBe('The server is busy. Please try again in a minute.');
    await waitFor(() => expect(del.getAttribute('aria-disabled')).toBeNull());
    expect(document.activeElement).toBe(del);
  });
});
