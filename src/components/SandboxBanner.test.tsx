import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { server } from '../test/server';
import { apiJson } from '../test/contract';
import { renderAt } from '../test/render';
import { sessionStore } from '../state/session';
import type { Role } from '../api/session';
import { DashboardLayout } from './DashboardLayout';
import { PublicLayout } from './PublicLayout';

class QuietWebSocket {
  readyState = 0;
  onopen = null;
  onclose = null;
  onmessage = null;
  send() {}
  close() {
    this.readyState = 3;
  }
}

function signIn(...roles: Role[]) {
  sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', ...roles] };
  sessionStore.loaded = true;
}

/** GET /api/payment-provider answering `mode`; counts the questions. */
function provider(mode: 'btcpay' | 'sandbox') {
  const asked = { n: 0 };
  server.use(
    http.get('/api/payment-provider', () => {
      asked.n++;
      return apiJson('GET /api/payment-provider', { mode });
    }),
  );
  return asked;
}

const banner = () => screen.queryByRole('complementary', { name: 'Sandbox payments' });
const TEXT = 'Sandbox payments are on: Bitcoin top-ups are simulated and no real money moves. Configure BTCPay Server to take real payments. Payment server';
const settle = () => act(() => new Promise((r) => setTimeout(r, 50)));

describe('sandbox banner', () => {
  beforeEach(() => vi.stubGlobal('WebSocket', QuietWebSocket));
  afterEach(() => vi.unstubAllGlobals());

  it('shows staff, in the dashboard, that the sandbox takes the payments', async () => {
    const asked = provider('sandbox');
    signIn('ADMIN_USER');
    renderAt(<DashboardLayout>page</DashboardLayout>, '/admin/dashboard');
    await waitFor(() => expect(banner()).toBeTruthy());
    expect(banner()!.textContent).toBe(TEXT);
    expect(within(banner()!).getByRole('link', { name: 'Payment server' }).getAttribute('href')).toBe('/admin/dashboard/admin/payment-server');
    expect(banner()!.closest('main')).toBeTruthy();
    expect(asked.n).toBe(1);
  });

  it('says nothing when BTCPay Server takes the payments', async () => {
    const asked = provider('btcpay');
    signIn('MASTER_USER');
    renderAt(<DashboardLayout>page</DashboardLayout>, '/admin/dashboard');
    await waitFor(() => expect(asked.n).toBe(1));
    await settle();
    expect(banner()).toBeNull();
  });

  it('neither shows nor asks anything for a user who is not staff', async () => {
    const asked = provider('sandbox');
    signIn();
    renderAt(<DashboardLayout>page</DashboardLayout>, '/admin/dashboard');
    await settle();
    expect(banner()).toBeNull();
    expect(asked.n).toBe(0);
    expect(screen.getByRole('main').textContent).toBe('page');
  });

  it('shows on the public site once the session says staff, and only then asks the server', async () => {
    const asked = provider('sandbox');
    renderAt(
      <PublicLayout>
        <p>content</p>
      </PublicLayout>,
      '/',
    );
    await settle();
    expect(banner()).toBeNull();
    expect(asked.n).toBe(0); // a guest: no question

    act(() => signIn('ADMIN_USER'));
    await waitFor(() => expect(banner()).toBeTruthy());
    expect(banner()!.textContent).toBe(TEXT);
    expect(banner()!.closest('main')).toBeNull(); // above the page, outside its main landmark
    expect(asked.n).toBe(1);
  });
});
