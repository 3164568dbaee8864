import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, apiError, makeOwnerAd, usdWallet } from '../../components/market/testing';
import { walletsStore } from '../../state/wallets';
import MyAds from './MyAds';

describe('my ads', () => {
  it('lists approved and pending ads, with the reason a rejected one was refused', async () => {
    const live = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    const rejected = makeOwnerAd({ status: 'rejected', title: 'Turned down by staff', rejectionReason: 'Photos do not match' });
    const waiting = makeOwnerAd({ status: 'in_review', title: 'Waiting for staff' });
    server.use(http.get('/api/all-ads-by-user', () => apiJson('GET /api/all-ads-by-user', { approvedAds: [live], pendingAds: [rejected, waiting] })));
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');

    expect(await screen.findByRole('listitem', { name: 'Evenings in the city' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Pending (2)' }));
    expect(within(screen.getByRole('listitem', { name: 'Turned down by staff' })).getByText(/Rejected: Photos do not match/)).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'Waiting for staff' })).getByText('Our staff are reviewing this ad.')).toBeTruthy();
  });

  it('takes an ad offline with the ad the server returns', async () => {
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/all-ads-by-user', () => apiJson('GET /api/all-ads-by-user', { approvedAds: [ad], pendingAds: [] })),
      http.put('/api/update-ad-online-status/:id', async ({ request }) => {
        const body = (await request.json()) as { online: boolean };
        bodies.push(body);
        return apiJson('PUT /api/update-ad-online-status/:id', { ad: { ...ad, online: body.online } });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    const item = await screen.findByRole('listitem', { name: 'Evenings in the city' });
    const toggle = within(item).getByRole<HTMLInputElement>('switch', { name: 'Online' });
    expect(toggle.checked).toBe(true);
    await user.click(toggle);
    await waitFor(() => expect(toggle.checked).toBe(false));
    expect(bodies).toEqual([{ online: false }]);
  });

  it('a bump refused as too soon says so (not "already paid"); a bump that goes through shows the new balance', async () => {
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    let tooSoon = true;
    server.use(
      http.get('/api/all-ads-by-user', () => apiJson('GET /api/all-ads-by-user', { approvedAds: [ad], pendingAds: [] })),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] })),
      http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
      http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
      http.put('/api/bump-ad/:id', () => {
        if (tooSoon) return apiError('PUT /api/bump-ad/:id', 409, 'ad.bump_too_soon');
        return apiJson('PUT /api/bump-ad/:id', { ad: { ...ad, bumpedAt: '2025-01-03T10:00:00.000Z' }, wallet: usdWallet(700) });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    const item = await screen.findByRole('listitem', { name: 'Evenings in the city' });
    await user.click(within(item).getByRole('button', { name: 'Bump to top' }));
    const dialog = screen.getByRole('dialog', { name: 'Bump “Evenings in the city”' });
    expect(await within(dialog).findByText('$3.00')).toBeTruthy();
    await waitFor(() => expect(within(dialog).getByRole('radio', { name: /USD wallet — \$10\.00/ })).toBeTruthy());

    await user.click(within(dialog).getByRole('button', { name: 'Pay and bump' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This ad was bumped less than a minute ago.');

    tooSoon = false;
    await user.click(within(dialog).getByRole('button', { name: 'Pay and bump' }));
    expect((await screen.findByRole('status')).textContent).toBe('“Evenings in the city” is now at the top of its list.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(walletsStore.state.data?.find((w) => w.id === 'w-usd')?.amountCents).toBe(700);
  });
});
