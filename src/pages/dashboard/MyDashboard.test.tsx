import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { sessionStore } from '../../state/session';
import type { Role } from '../../../contract/api/auth.ts';
import { makeOwnerAd, usdWallet } from '../../components/market/testing';
import MyDashboard from './MyDashboard';

function dashboardServer(overview = { pendingAds: 3, openReports: 1, failingChecks: 0 }) {
  let overviewCalls = 0;
  server.use(
    http.get('/api/all-ads-by-user', () => apiJson('GET /api/all-ads-by-user', { approvedAds: [], pendingAds: [] })),
    http.get('/api/cart-ads-by-user', () => apiJson('GET /api/cart-ads-by-user', { pendingAds: [] })),
    http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] })),
    http.get('/api/admin/get-overview', () => {
      overviewCalls++;
      return apiJson('GET /api/admin/get-overview', overview);
    }),
  );
  return { overviewCalls: () => overviewCalls };
}
const signIn = (userRoles: Role[]) => {
  sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles };
  sessionStore.loaded = true;
};

describe('my dashboard', () => {
  it('shows staff what waits for them, each a link to its screen', async () => {
    dashboardServer({ pendingAds: 3, openReports: 1, failingChecks: 2 });
    signIn(['PROVIDER_USER', 'ADMIN_USER']);
    const user = userEvent.setup();
    const page = renderAt(<MyDashboard />, '/admin/dashboard');

    const overview = await screen.findByRole('region', { name: 'Admin overview' });
    const links = await within(overview).findAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['3 ads waiting for review', '/admin/dashboard/admin/pending-ads'],
      ['1 open report', '/admin/dashboard/admin/reports'],
      ['2 failing health checks', '/admin/dashboard/admin/health-check'],
    ]);
    expect(within(overview).getByText('needs attention')).toBeTruthy();
    await user.click(links[2]);
    expect(page.currentPath()).toBe('/admin/dashboard/admin/health-check');
  });

  it('says nothing needs attention when no check is failing', async () => {
    dashboardServer({ pendingAds: 1, openReports: 0, failingChecks: 0 });
    signIn(['PROVIDER_USER', 'MASTER_USER']);
    renderAt(<MyDashboard />, '/admin/dashboard');
    const overview = await screen.findByRole('region', { name: 'Admin overview' });
    expect((await within(overview).findAllByRole('link')).map((l) => l.textContent)).toEqual([
      '1 ad waiting for review',
      '0 open reports',
      '0 failing health checks',
    ]);
    expect(within(overview).queryByText('needs attention')).toBeNull();
  });

  it('has no overview for a provider, and does not ask for one', async () => {
    const srv = dashboardServer();
    signIn(['PROVIDER_USER']);
    renderAt(<MyDashboard />, '/admin/dashboard');
    await screen.findByRole('heading', { level: 1 });
    await screen.findByText('$10.00');
    expect(screen.queryByRole('region', { name: 'Admin overview' })).toBeNull();
    expect(srv.overviewCalls()).toBe(0);
  });

  it('counts an approved ad past its expiry as expired, not approved and online, as my ads shows it', async () => {
    const live = makeOwnerAd({ status: 'approved', online: true, title: 'Still running' });
    // The hourly expiry job has not run yet: the server still says approved.
    const ranOut = makeOwnerAd({ status: 'approved', online: true, title: 'Ran out an hour ago', expiresAt: '2025-01-01T10:00:00.000Z' });
    server.use(
      http.get('/api/all-ads-by-user', () => apiJson('GET /api/all-ads-by-user', { approvedAds: [live, ranOut], pendingAds: [] })),
      http.get('/api/cart-ads-by-user', () => apiJson('GET /api/cart-ads-by-user', { pendingAds: [] })),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] })),
    );
    signIn(['PROVIDER_USER']);
    renderAt(<MyDashboard />, '/admin/dashboard');
    const stats = (await screen.findByRole('heading', { level: 2, name: 'My ads' })).nextElementSibling as HTMLElement;
    const count = (label: string) => within(stats).getByText(label).nextElementSibling!.textContent;
    await waitFor(() => expect(count('Expired')).toBe('1'));
    expect(count('Online now')).toBe('1');
    expect(count('Approved')).toBe('1');
  });
});
