import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, apiError, makeOwnerAd, usdWallet } from '../../components/market/testing';
import type { OwnerAd } from '../../api/ads';
import { formatUsd } from '../../lib/money';
import { sessionStore } from '../../state/session';
import MyAds from './MyAds';

function signIn() {
  sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
  sessionStore.loaded = true;
}

function listServer(approvedAds: () => OwnerAd[], pendingAds: () => OwnerAd[] = () => []) {
  server.use(
    http.get('/api/all-ads-by-user', ({ request }) => {
      const q = new URL(request.url).searchParams;
      const list = q.get('list');
      const [a, p] = [approvedAds(), pendingAds()];
      const ads = list === 'approved' ? a : list === 'pending' ? p : [...a, ...p];
      return apiJson('GET /api/all-ads-by-user', {
        approvedAds: ads.filter((x) => a.includes(x)),
        pendingAds: ads.filter((x) => p.includes(x)),
        total: ads.length,
        page: 1,
        pageSize: 20,
        totals: { approvedAds: a.length, pendingAds: p.length },
      });
    }),
    http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
    http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
    http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] })),
  );
}

const spanish = () => act(() => i18n.changeLanguage('es'));
const english = () => act(() => i18n.changeLanguage('en'));

// The dialogs of AdActions keep a refusal as the error and answer what they did as a function
// that words it: both are worded at each render, so a language switch re-words them.
describe('my ads’ dialogs after a language switch', () => {
  it('words a short wallet’s refusal of a bump, and the bump done, again in Spanish', async () => {
    signIn();
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings in the city' });
    let short = true;
    listServer(() => [ad]);
    server.use(
      http.put('/api/bump-ad/:id', () => {
        if (short) return apiError('PUT /api/bump-ad/:id', 402, 'wallet.insufficient_funds');
        return apiJson('PUT /api/bump-ad/:id', { ad: { ...ad, bumpedAt: '2025-01-03T10:00:00.000Z' }, wallet: usdWallet(700) });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    await user.click(within(await screen.findByRole('listitem', { name: 'Evenings in the city' })).getByRole('button', { name: 'Bump to top' }));
    const dialog = screen.getByRole('dialog', { name: 'Bump “Evenings in the city”' });
    await waitFor(() => expect(within(dialog).getByRole('radio', { name: /USD wallet — \$10\.00/ })).toBeTruthy());
    await user.click(within(dialog).getByRole('button', { name: 'Pay and bump' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This wallet does not have enough money for this ad. Choose another wallet or add funds.',
    );
    await spanish();
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe(
        'Esta billetera no tiene saldo suficiente para este anuncio. Elige otra billetera o añade fondos.',
      ),
    );
    await english();

    short = false;
    await user.click(within(dialog).getByRole('button', { name: 'Pay and bump' }));
    expect((await screen.findByRole('status')).textContent).toBe('“Evenings in the city” is now at the top of its list.');
    await spanish();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('«Evenings in the city» está ahora en el primer lugar de su lista.'));
  });

  it('words a refused delete, and a refunded one, again in Spanish', async () => {
    signIn();
    const waiting = makeOwnerAd({ status: 'in_review', title: 'Paid, not reviewed', priceCents: 1500 });
    let busy = true;
    let pending = [waiting];
    listServer(
      () => [],
      () => pending,
    );
    server.use(
      http.delete('/api/ads/:id', () => {
        if (busy) return apiError('DELETE /api/ads/:id', 503, 'request.busy');
        pending = [];
        return apiJson('DELETE /api/ads/:id', { deleted: true, refundedCents: 1500 });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyAds />, '/admin/dashboard/my-ads');
    await user.click(screen.getByRole('tab', { name: /Pending/ }));
    await user.click(within(await screen.findByRole('listitem', { name: 'Paid, not reviewed' })).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Paid, not reviewed”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete ad' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The server is busy. Please try again in a minute.');
    await spanish();
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('El servidor está ocupado. Inténtalo de nuevo en un minuto.'));
    await english();

    busy = false;
    await user.click(within(dialog).getByRole('button', { name: 'Delete ad' }));
    expect((await screen.findByRole('status')).textContent).toBe('“Paid, not reviewed” was deleted and $15.00 went back to your wallet.');
    await spanish();
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(`«Paid, not reviewed» se eliminó y ${formatUsd(1500, 'es')} volvieron a tu billetera.`),
    );
  });
});
