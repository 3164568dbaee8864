import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { appTestSetup, appTestTeardown } from '../test/app';
import type { Session } from '../api/session';
import { App } from './App';
import type { ErrorBody } from '../../contract/errors/index.ts';

beforeEach(appTestSetup);
afterEach(appTestTeardown);

const BUSY: ErrorBody = { message: 'The server is busy. Please try again in a minute.', code: 'request.busy' };
const ANN: Session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };

describe('RequireRole when the session cannot be read', () => {
  // A signed-in provider who opens a dashboard page while GET /api/session fails (503 busy, a
  // dropped connection) is not taken for a visitor: nothing says they are signed out. The guard
  // stays on the page, says what went wrong (in the page's language) and offers a retry, instead of
  // sending them to the sign-in form to type their password again.
  it('does not send a signed-in user to the sign-in page because the session read failed with a 503', async () => {
    let busy = true;
    server.use(
      http.get('/api/session', () => (busy ? apiJson('GET /api/session', BUSY as never, 503) : apiJson('GET /api/session', ANN))),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [] })),
      http.get('/api/payment-provider', () => apiJson('GET /api/payment-provider', { mode: 'btcpay' })),
      http.get('/api/my-invoices', () => apiJson('GET /api/my-invoices', { invoices: [], total: 0, page: 1, pageSize: 10 })),
      http.get('/api/wallet-transactions', () => apiJson('GET /api/wallet-transactions', { transactions: [], total: 0, page: 1, pageSize: 10 })),
    );
    window.history.replaceState(null, '', '/admin/dashboard/my-wallet');
    const user = userEvent.setup();
    render(<App />);
    await screen.findByRole('heading', { name: 'Your sign-in could not be checked' }, { timeout: 5000 });
    expect(screen.getByRole('alert').textContent).toBe('The server is busy. Please try again in a minute.');
    await new Promise((r) => setTimeout(r, 300));
    expect(window.location.pathname).toBe('/admin/dashboard/my-wallet');
    expect(screen.queryByRole('heading', { name: 'Sign in' })).toBeNull();

    // The retry reads the session again and opens the page asked for.
    busy = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { level: 1, name: 'My wallet' }, { timeout: 5000 });
    expect(window.location.pathname).toBe('/admin/dashboard/my-wallet');
  });
});
