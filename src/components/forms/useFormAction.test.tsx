import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { appTestSetup, appTestTeardown } from '../../test/app';
import { App } from '../../app/App';
import { promoWallet, usdWallet } from '../market/testing';
import type { ErrorBody } from '../../../contract/errors/index.ts';

const ALREADY_USED: ErrorBody = { message: 'You have already used this promo code.', code: 'wallet.promo_code_already_used' };

beforeEach(() => {
  appTestSetup();
  server.use(
    http.get('/api/session', () =>
      apiJson('GET /api/session', { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] }),
    ),
    http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(0), promoWallet(0)] })),
    http.get('/api/payment-provider', () => apiJson('GET /api/payment-provider', { mode: 'btcpay' })),
    http.get('/api/my-invoices', () => apiJson('GET /api/my-invoices', { invoices: [], total: 0, page: 1, pageSize: 10 })),
    http.get('/api/wallet-transactions', () => apiJson('GET /api/wallet-transactions', { transactions: [], total: 0, page: 1, pageSize: 10 })),
    http.post('/api/add-promo-code-to-promo-wallet', () => apiJson('POST /api/add-promo-code-to-promo-wallet', ALREADY_USED as never, 409)),
  );
});
afterEach(appTestTeardown);

describe('useFormAction across a language switch', () => {
  // A form keeps a refusal as the error (its code and params) and words it at render: a user who
  // switches to Spanish after a refused submit keeps what was typed and reads the refusal in
  // Spanish ("the client shows the code's translation in the page's language").
  it('re-words a refused promo code in the new language after switching from English to Spanish', async () => {
    window.history.replaceState(null, '', '/admin/dashboard/my-wallet');
    const user = userEvent.setup();
    render(<App />);
    const field = await screen.findByRole('textbox', { name: 'Promo code' }, { timeout: 5000 });
    await user.type(field, 'SPRING-2026');
    await user.click(screen.getByRole('button', { name: 'Add promo code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You have already used this promo code.');

    const languages = within(screen.getByRole('banner')).getByRole('navigation', { name: 'Language' });
    await user.click(within(languages).getByRole('button', { name: 'Language' }));
    await user.click(within(languages).getByRole('link', { name: 'Español' }));
    await waitFor(() => expect(window.location.pathname).toBe('/es/admin/dashboard/my-wallet'));
    await screen.findByRole('heading', { level: 1, name: 'Mi billetera' }, { timeout: 5000 });

    // What was typed is still there ...
    expect((screen.getByRole('textbox', { name: 'Código promocional' }) as HTMLInputElement).value).toBe('SPRING-2026');
    // ... and the refusal is worded in Spanish, not left in English.
    expect(screen.getByRole('alert').textContent).toBe('Ya usaste este código promocional.');
  });
});
