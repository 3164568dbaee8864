import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { promoWallet, usdWallet } from '../../components/market/testing';
import type { ErrorBody } from '../../../contract/errors/index.ts';
import MyWallet from './MyWallet';

// Error answers as the server sends them; apiJson checks each against the route's 4xx schema
// at run time (its static type only knows the numbered answers, hence `as never` below).
const ALREADY_USED: ErrorBody = { message: 'You have already used this promo code.', code: 'wallet.promo_code_already_used' };
const EXPIRED: ErrorBody = { message: 'This promo code has expired.', code: 'wallet.promo_code_expired', params: { field: 'code' } };
const ALREADY_SENT: ErrorBody = { message: 'Your welcome promo code was already sent to you.', code: 'wallet.welcome_code_already_sent' };

describe('my wallet', () => {
  it('checks the code first, creates the promo wallet on first use, redeems and shows the new balance; a refused code shows the server message', async () => {
    const requests: string[] = [];
    const redeemed = new Set<string>();
    server.use(
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1234)] })),
      http.post('/api/create-promo-wallet', () => {
        requests.push('create');
        return apiJson('POST /api/create-promo-wallet', { wallet: promoWallet(0) });
      }),
      http.post('/api/add-promo-code-to-promo-wallet', async ({ request }) => {
        const { code } = (await request.json()) as { code: string };
        requests.push(`add ${code}`);
        if (redeemed.has(code)) {
          return apiJson('POST /api/add-promo-code-to-promo-wallet', ALREADY_USED as never, 409);
        }
        redeemed.add(code);
        return apiJson('POST /api/add-promo-code-to-promo-wallet', { wallet: promoWallet(2000) });
      }),
    );
    const user = userEvent.setup();
    renderAt(<MyWallet />, '/admin/dashboard/my-wallet');

    expect(await screen.findByText('$12.34')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create my promo wallet' })).toBeTruthy();

    const input = screen.getByLabelText('Promo code');
    await user.type(input, 'ab');
    await user.click(screen.getByRole('button', { name: 'Add promo code' }));
    expect(screen.getByText('Promo code must be 4–32 of A–Z, 0–9 and -.', { selector: '.field-error' })).toBeTruthy();
    expect(requests).toEqual([]);

    await user.clear(input);
    await user.type(input, 'welcome-20'); // typed in lower case, sent in capitals
    await user.click(screen.getByRole('button', { name: 'Add promo code' }));
    expect((await screen.findByText(/Promo code added/)).textContent).toBe('Promo code added. Your promo balance is $20.00.');
    expect(screen.getByText('$20.00')).toBeTruthy();
    expect(requests).toEqual(['create', 'add WELCOME-20']);
    expect(screen.queryByRole('button', { name: 'Create my promo wallet' })).toBeNull();

    await user.type(input, 'WELCOME-20');
    await user.click(screen.getByRole('button', { name: 'Add promo code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You have already used this promo code.');
    expect(screen.getByText('$20.00')).toBeTruthy();
    expect(requests).toEqual(['create', 'add WELCOME-20', 'add WELCOME-20']);
  });

  it('e-mails a welcome code on request and keeps a marked slot for Bitcoin top-up without a fake button', async () => {
    let mailed = 0;
    server.use(
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(0), promoWallet(500)] })),
      http.get('/api/email-wallet-promo-code', () => (mailed++, apiJson('GET /api/email-wallet-promo-code', { sent: true, email: 'ann@example.com' }))),
    );
    const user = userEvent.setup();
    const view = renderAt(<MyWallet />, '/admin/dashboard/my-wallet');
    expect(await screen.findByText('$5.00')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'E-mail me a welcome promo code' }));
    await waitFor(() => expect(screen.getByText('Check your inbox: we sent you a welcome promo code.')).toBeTruthy());
    expect(mailed).toBe(1);
    const slot = view.container.querySelector('section#bitcoin-topup')!;
    expect(slot.textContent).toContain('arrives with the payments release');
    expect(slot.querySelector('button')).toBeNull();
  });

  it('shows a refused code and a refused welcome e-mail in the page language', async () => {
    server.use(
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(0), promoWallet(0)] })),
      http.post('/api/add-promo-code-to-promo-wallet', () => apiJson('POST /api/add-promo-code-to-promo-wallet', EXPIRED as never, 400)),
      http.get('/api/email-wallet-promo-code', () => apiJson('GET /api/email-wallet-promo-code', ALREADY_SENT as never, 409)),
    );
    await i18n.changeLanguage('es');
    try {
      const user = userEvent.setup();
      renderAt(<MyWallet />, '/es/admin/dashboard/my-wallet');
      await user.type(await screen.findByLabelText('Código promocional'), 'SPRING-20');
      await user.click(screen.getByRole('button', { name: 'Añadir código promocional' }));
      expect((await screen.findByRole('alert')).textContent).toBe('Este código promocional venció.');
      await user.click(screen.getByRole('button', { name: /bienvenida/ }));
      await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Ya te enviamos tu código promocional de bienvenida.'));
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
