import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
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

  describe('announcing to everyone connected', () => {
    const ROUTE = 'POST /api/admin/send-public-message';
    /** The send route: what it was sent, answered with `answer` (the count, or a refusal the server could send). */
    function sendServer(answer: { sent: number } | { status: 429 }) {
      const bodies: unknown[] = [];
      server.use(
        http.post('/api/admin/send-public-message', async ({ request }) => {
          bodies.push(await request.json());
          if ('sent' in answer) return apiJson(ROUTE, answer);
          return apiJson(
            ROUTE,
            {
              message: 'You can send at most 10 announcements an hour. Please try again later.',
              code: 'realtime.too_many_public_messages',
              params: { max: 10 },
            } as never,
            429 as never,
          );
        }),
      );
      return bodies;
    }

    it('staff write English (required) and any of Spanish and Portuguese, confirm, and learn how many connections it reached', async () => {
      dashboardServer();
      const bodies = sendServer({ sent: 7 });
      signIn(['PROVIDER_USER', 'ADMIN_USER']);
      const user = userEvent.setup();
      renderAt(<MyDashboard />, '/admin/dashboard');
      const form = await screen.findByRole('region', { name: 'Announce to everyone connected' });
      const send = within(form).getByRole('button', { name: 'Send announcement' });

      await user.click(send); // no English yet
      expect(within(form).getByText('Write the English text: everyone whose language is missing reads it.')).toBeTruthy();
      expect(screen.queryByRole('dialog')).toBeNull();

      await user.type(within(form).getByLabelText('English (required)'), 'Maintenance tonight at 02:00 UTC.');
      await user.type(within(form).getByLabelText('Spanish (optional)'), 'Mantenimiento esta noche a las 02:00 UTC.');
      expect(within(form).getByLabelText('Portuguese (optional)')).toBeTruthy();
      await user.click(send);
      let dialog = await screen.findByRole('dialog', { name: 'Send to everyone connected now?' });
      expect(dialog.textContent).toContain('Maintenance tonight at 02:00 UTC.');
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(bodies).toEqual([]);

      await user.click(send);
      dialog = await screen.findByRole('dialog', { name: 'Send to everyone connected now?' });
      await user.click(within(dialog).getByRole('button', { name: 'Send now' }));
      expect((await within(form).findByRole('status')).textContent).toBe('Sent to 7 connections');
      expect(screen.queryByRole('dialog')).toBeNull();
      // A language left empty is not sent (everyone reading it gets the English).
      expect(bodies).toEqual([{ text: { en: 'Maintenance tonight at 02:00 UTC.', es: 'Mantenimiento esta noche a las 02:00 UTC.' } }]);
      expect((within(form).getByLabelText('English (required)') as HTMLTextAreaElement).value).toBe('');
    });

    it('shows a refused send in the page’s language and keeps what was written', async () => {
      dashboardServer();
      sendServer({ status: 429 });
      signIn(['PROVIDER_USER', 'MASTER_USER']);
      await i18n.changeLanguage('es');
      const user = userEvent.setup();
      renderAt(<MyDashboard />, '/es/admin/dashboard');
      const form = await screen.findByRole('region', { name: 'Avisar a todos los conectados' });
      await user.type(within(form).getByLabelText('Inglés (obligatorio)'), 'Maintenance tonight.');
      await user.click(within(form).getByRole('button', { name: 'Enviar aviso' }));
      const dialog = await screen.findByRole('dialog', { name: '¿Enviar ahora a todos los conectados?' });
      await user.click(within(dialog).getByRole('button', { name: 'Enviar ahora' }));
      expect((await within(form).findByRole('alert')).textContent).toBe('Puedes enviar como máximo 10 avisos por hora. Inténtalo más tarde.');
      expect(within(form).queryByRole('status')).toBeNull();
      expect((within(form).getByLabelText('Inglés (obligatorio)') as HTMLTextAreaElement).value).toBe('Maintenance tonight.');
    });

    it('is not offered to a provider', async () => {
      dashboardServer();
      signIn(['PROVIDER_USER']);
      renderAt(<MyDashboard />, '/admin/dashboard');
      await screen.findByText('$10.00');
      expect(screen.queryByRole('region', { name: 'Announce to everyone connected' })).toBeNull();
    });
  });
});
