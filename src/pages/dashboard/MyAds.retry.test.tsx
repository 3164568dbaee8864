import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, apiError, makeOwnerAd, usdWallet } from '../../components/market/testing';
import type { OwnerAd } from '../../api/ads';
import { sessionStore } from '../../state/session';
import { walletsStore } from '../../state/wallets';
import MyAds from './MyAds';

// A provider on a phone with a flaky connection: an action was done on the server, its answer lost
// ("Something went wrong."), and the user presses again.

function signIn() {
  sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
  sessionStore.loaded = true;
}

/** My ads listing `live()` (read at each request), with prices. */
function listServer(live: () => OwnerAd[]) {
  server.use(
    http.get('/api/all-ads-by-user', ({ request }) => {
      const q = new URL(request.url).searchParams;
      const ads = q.get('list') === 'pending' ? [] : live();
      return apiJson('GET /api/all-ads-by-user', {
        approvedAds: ads,
        pendingAds: [],
        total: ads.length,
        page: 1,
        pageSize: 20,
        totals: { approvedAds: live().length, pendingAds: 0 },
      });
    }),
    http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
    http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
  );
}

describe('a delete whose answer was lost', () => {
  // The first DELETE was done, its answer lost; pressed again, the server answers 404 (the ad is
  // gone). That is done: the ad leaves the list and the wallets are read again (a refund).
  it('pressed again, takes "not found" as done: the ad leaves the list, the wallets are read again', async () => {
    signIn();
    let live: OwnerAd[] = [makeOwnerAd({ status: 'approved', title: 'Live one' })];
    const gone = new Set<string>();
    let walletReads = 0;
    listServer(() => live);
    server.use(
      http.get('/api/all-wallets-by-user', () => {
        walletReads++;
        return apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] });
      }),
      http.delete('/api/ads/:id', ({ params }) => {
        const id = String(params.id);
        if (gone.has(id)) return apiError('DELETE /api/ads/:id', 404, 'ad.not_found');
        gone.add(id);
        live = live.filter((a) => a.id !== id); // done on the server
        return HttpResponse.error(); // the answer is lost
      }),
    );
    await walletsStore.load();
    const readsBefore = walletReads;
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    await user.click(within(await screen.findByRole('listitem', { name: 'Live one' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete ad' }));
    expect((await within(screen.getByRole('dialog')).findByRole('alert')).textContent).toBe('Something went wrong.');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete ad' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('listitem', { name: 'Live one' })).toBeNull();
    expect((await screen.findByRole('status')).textContent).toContain('Live one');
    await waitFor(() => expect(walletReads).toBeGreaterThan(readsBefore));
  });
});

describe('a bump or renewal whose answer was lost', () => {
  it('a second press sends the same request key; after a success the next bump has a new one', async () => {
    signIn();
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    const keys: (string | null)[] = [];
    let lose = true;
    listServer(() => [ad]);
    server.use(
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] })),
      http.put('/api/bump-ad/:id', ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        if (lose) return HttpResponse.error();
        return apiJson('PUT /api/bump-ad/:id', { ad: { ...ad, bumpedAt: '2025-01-03T10:00:00.000Z' }, wallet: usdWallet(700) });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    const item = await screen.findByRole('listitem', { name: 'Evenings in the city' });
    const bump = async () => {
      await user.click(within(item).getByRole('button', { name: 'Bump to top' }));
      const dialog = screen.getByRole('dialog', { name: 'Bump “Evenings in the city”' });
      await waitFor(() => expect(within(dialog).getByRole('radio', { name: /USD wallet/ })).toBeTruthy());
      return dialog;
    };
    const dialog = await bump();
    await user.click(within(dialog).getByRole('button', { name: 'Pay and bump' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Something went wrong.');
    lose = false;
    await user.click(within(dialog).getByRole('button', { name: 'Pay and bump' }));
    expect((await screen.findByRole('status')).textContent).toBe('“Evenings in the city” is now at the top of its list.');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(keys[1]).toBe(keys[0]);

    const again = await bump();
    await user.click(within(again).getByRole('button', { name: 'Pay and bump' }));
    await waitFor(() => expect(keys).toHaveLength(3));
    expect(keys[2]).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('a renewal pressed again sends the same request key', async () => {
    signIn();
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    const keys: (string | null)[] = [];
    let lose = true;
    listServer(() => [ad]);
    server.use(
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(5000)] })),
      http.put('/api/renew-ad/:id', ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        if (lose) return HttpResponse.error();
        return apiJson('PUT /api/renew-ad/:id', { ad: { ...ad, expiresAt: '2099-03-03T10:00:00.000Z' }, wallet: usdWallet(3500) });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, `/admin/dashboard/my-ads?renew=${ad.id}`);
    const dialog = await screen.findByRole('dialog', { name: 'Renew “Evenings in the city”' });
    await waitFor(() => expect(within(dialog).getByRole('radio', { name: /USD wallet/ })).toBeTruthy());
    await user.click(within(dialog).getByRole('button', { name: 'Pay and renew' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Something went wrong.');
    lose = false;
    await user.click(within(dialog).getByRole('button', { name: 'Pay and renew' }));
    expect((await screen.findByRole('status')).textContent).toBe('“Evenings in the city” is renewed until Mar 3, 2099.');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('the balance after a bump or renewal whose answer was lost', () => {
  // The lost request may have charged the wallet: the balance on screen is read again, not left
  // at what it was before the press.
  it.each([
    ['bump', 'PUT /api/bump-ad/:id', '/api/bump-ad/:id', 'ad.bump_too_soon'],
    ['renewal', 'PUT /api/renew-ad/:id', '/api/renew-ad/:id', 'ad.renew_too_soon'],
  ] as const)('a %s: the wallets are read again after the lost answer and after "too soon"', async (_, route, path, tooSoon) => {
    signIn();
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    let charged = false;
    let walletReads = 0;
    listServer(() => [ad]);
    server.use(
      http.get('/api/all-wallets-by-user', () => {
        walletReads++;
        return apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(charged ? 700 : 1000)] });
      }),
      http.put(path, () => {
        if (charged) return apiError(route, 409, tooSoon);
        charged = true; // done on the server
        return HttpResponse.error(); // the answer is lost
      }),
    );
    await walletsStore.load();
    const user = userEvent.setup();
    renderAt(<MyAds />, route.includes('renew') ? `/admin/dashboard/my-ads?renew=${ad.id}` : '/admin/dashboard/my-ads');
    if (route.includes('bump')) {
      await user.click(within(await screen.findByRole('listitem', { name: 'Evenings in the city' })).getByRole('button', { name: 'Bump to top' }));
    }
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByRole('radio', { name: /USD wallet/ })).toBeTruthy());
    const pay = within(dialog).getByRole('button', { name: route.includes('bump') ? 'Pay and bump' : 'Pay and renew' });
    let reads = walletReads;
    await user.click(pay);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Something went wrong.');
    await waitFor(() => expect(walletReads).toBeGreaterThan(reads));
    await waitFor(() => expect(walletsStore.state.data?.[0]?.amountCents).toBe(700));
    reads = walletReads;
    await user.click(pay);
    await waitFor(() => expect(walletReads).toBeGreaterThan(reads));
  });
});
