import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, apiError, makeOwnerAd, usdWallet } from '../../components/market/testing';
import type { OwnerAd } from '../../api/ads';
import type { UserStatus } from '../../../contract/api/auth.ts';
import { sessionStore } from '../../state/session';
import MyAds from './MyAds';

// My ads tells the truth about ads whose place staff closed or whose paid term is held (not started).

function signIn(userStatus: UserStatus = 'approved') {
  sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus, userRoles: ['PROVIDER_USER'] };
  sessionStore.loaded = true;
}

function listServer(approvedAds: OwnerAd[]) {
  server.use(
    http.get('/api/all-ads-by-user', ({ request }) => {
      const q = new URL(request.url).searchParams;
      const ads = q.get('list') === 'pending' ? [] : approvedAds;
      return apiJson('GET /api/all-ads-by-user', {
        approvedAds: ads,
        pendingAds: [],
        total: ads.length,
        page: 1,
        pageSize: Number(q.get('pageSize') ?? 20),
        totals: { approvedAds: approvedAds.length, pendingAds: 0 },
      });
    }),
    http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
    http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
    http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(5000)] })),
  );
}

/** An ad's card: its text and its controls (switches and buttons, by name). */
async function card(title: string) {
  const item = await screen.findByRole('listitem', { name: title });
  const controls = [...within(item).queryAllByRole('switch'), ...within(item).queryAllByRole('button')].map(
    (b) => b.textContent?.trim() || b.closest('label')?.textContent,
  );
  return { item, controls, text: item.textContent ?? '' };
}

describe('my ads, the truth', () => {
  it('says an ad whose city staff closed does not show, and offers to move it (no renewal, no bump)', async () => {
    signIn();
    listServer([makeOwnerAd({ status: 'approved', title: 'In a closed city', shown: false, placeClosed: true })]);
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    const c = await card('In a closed city');
    expect(within(c.item).getByText('Hidden: city closed')).toBeTruthy();
    expect(within(c.item).getByText('Approved, but hidden: our staff closed its city or state to ads. Move it to another city to show it again.')).toBeTruthy();
    expect(c.controls).toEqual(['Move to another city', 'Delete']);
    expect(within(c.item).getByRole('link', { name: 'Edit' })).toBeTruthy();
  });

  it('offers to move an expired ad whose renewal is refused because its city is disabled', async () => {
    signIn();
    listServer([makeOwnerAd({ status: 'expired', title: 'Ran out in a closed city', expiresAt: '2025-01-01T10:00:00.000Z', placeClosed: true })]);
    server.use(http.put('/api/renew-ad/:id', () => apiError('PUT /api/renew-ad/:id', 400, 'ad.city_disabled')));
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    const c = await card('Ran out in a closed city');
    expect(c.text).toContain('Hidden: its time ran out, and our staff closed its city or state to ads. Move it to another city, then renew it.');
    await user.click(within(c.item).getByRole('button', { name: 'Renew' }));
    const dialog = screen.getByRole('dialog', { name: 'Renew “Ran out in a closed city”' });
    await user.click(await within(dialog).findByRole('button', { name: 'Pay and renew' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Ads cannot be placed in this city at the moment.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((await card('Ran out in a closed city')).controls).toEqual(['Renew', 'Move to another city', 'Delete']);
  });

  it('never calls a held term expired: it starts when the account is approved, and renewing adds to it', async () => {
    signIn('pending');
    // Approved by staff 40 days ago, 30 days paid for: its nominal end is past, but its days have not started.
    const held = makeOwnerAd({
      status: 'approved',
      title: 'Waiting for my account',
      publishedAt: '2025-01-01T10:00:00.000Z',
      expiresAt: '2025-01-31T10:00:00.000Z',
      shown: false,
      termHeld: true,
    });
    listServer([held]);
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    const c = await card('Waiting for my account');
    expect(within(c.item).getByText('Hidden: account not approved')).toBeTruthy();
    expect(c.text).toContain('its paid term starts when your account is approved');
    expect(c.text).not.toMatch(/expire/i);
    await user.click(within(c.item).getByRole('button', { name: 'Renew' }));
    const dialog = screen.getByRole('dialog', { name: 'Renew “Waiting for my account”' });
    // As the server does: the 30 days are added to the held term's end (60 days from the day it starts), not to today.
    expect(
      await within(dialog).findByText('Its paid term has not started yet. Renewing adds 30 days: 60 days in all, counted from the day it starts.'),
    ).toBeTruthy();
  });
});
