import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import i18n from 'i18next';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { sessionStore } from '../../state/session';
import type { Role } from '../../../contract/api/auth.ts';
import type { AdActivity, AdCounts } from '../../api/ads';
import type { Transaction } from '../../api/payments';
import { usdWallet } from '../../components/market/testing';
import { dateTimeLabel } from '../../components/market/labels';
import MyDashboard from './MyDashboard';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { appLikeI18n } from '../../test/lazyI18n';

const NO_ADS: AdCounts = { unpaid: 0, in_review: 0, approved: 0, rejected: 0, disabled: 0, expired: 0 };

/** The dashboard's own reads: the overview of my ads and the latest money movements; what it asked for. */
function myServer(mine: { counts?: AdCounts; online?: number; recent?: AdActivity[]; transactions?: Transaction[] } = {}) {
  const asked: string[] = [];
  server.use(
    http.get('/api/my-ads-overview', () => {
      asked.push('overview');
      return apiJson('GET /api/my-ads-overview', { counts: mine.counts ?? NO_ADS, online: mine.online ?? 0, recent: mine.recent ?? [] });
    }),
    http.get('/api/wallet-transactions', ({ request }) => {
      asked.push(`transactions?${new URL(request.url).searchParams}`);
      const transactions = mine.transactions ?? [];
      return apiJson('GET /api/wallet-transactions', { transactions, total: transactions.length, page: 1, pageSize: 5 });
    }),
    http.get('/api/all-ads-by-user', () => {
      asked.push('all-ads-by-user');
      return apiJson('GET /api/all-ads-by-user', {
        approvedAds: [],
        pendingAds: [],
        total: 0,
        page: 1,
        pageSize: 20,
        totals: { approvedAds: 0, pendingAds: 0 },
      });
    }),
    http.get('/api/cart-ads-by-user', () => {
      asked.push('cart-ads-by-user');
      return apiJson('GET /api/cart-ads-by-user', { pendingAds: [], total: 0, page: 1, pageSize: 20 });
    }),
  );
  return asked;
}

function dashboardServer(overview = { pendingAds: 3, openReports: 1, failingChecks: 0 }) {
  let overviewCalls = 0;
  myServer();
  server.use(
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

  it('shows the counts the server makes of all my ads, whatever their number, without reading the lists', async () => {
    // The server counts an approved ad past its expiry as expired, as my ads shows it (ads.mine.test.ts).
    const asked = myServer({ counts: { unpaid: 3, in_review: 2, approved: 2400, rejected: 1, disabled: 0, expired: 61 }, online: 2350 });
    server.use(http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] })));
    signIn(['PROVIDER_USER']);
    renderAt(<MyDashboard />, '/admin/dashboard');
    const stats = (await screen.findByRole('heading', { level: 2, name: 'My ads' })).nextElementSibling as HTMLElement;
    const count = (label: string) => within(stats).getByText(label).nextElementSibling!.textContent;
    await waitFor(() => expect(count('Approved')).toBe('2400'));
    expect([count('Online now'), count('In review'), count('Unpaid'), count('Rejected'), count('Disabled'), count('Expired')]).toEqual([
      '2350',
      '2',
      '3',
      '1',
      '0',
      '61',
    ]);
    expect(screen.getByRole('link', { name: 'Pay for ads in my cart (3)' })).toBeTruthy();
    expect(asked.filter((a) => a === 'all-ads-by-user' || a === 'cart-ads-by-user')).toEqual([]);
  });

  describe('recent activity', () => {
    const recent: AdActivity[] = [
      { adId: 'ad-1', title: 'Evenings in the city', event: 'approved', at: '2025-01-05T12:00:00.000Z', reason: null },
      { adId: 'ad-2', title: 'Turned down', event: 'rejected', at: '2025-01-04T12:00:00.000Z', reason: 'Photos do not match' },
      { adId: 'ad-3', title: 'Taken down', event: 'disabled', at: '2025-01-02T12:00:00.000Z', reason: null },
      { adId: 'ad-4', title: 'Ran out of time', event: 'expired', at: '2025-01-01T09:00:00.000Z', reason: null },
    ];
    const tx = (
      id: number,
      kind: string,
      amountCents: number,
      createdAt: string,
      walletType: Transaction['walletType'] = 'USD',
      about: Partial<Transaction> = {},
    ): Transaction => ({
      id,
      walletId: walletType === 'USD' ? 'w-usd' : 'w-promo',
      walletType,
      kind,
      amountCents,
      balanceAfterCents: 5000,
      reference: null,
      createdAt,
      ...about,
    });
    // Each names what it was for: the ad (by title; a deleted one whose title is no longer stored),
    // the promo code; never the internal reference.
    const transactions = [
      tx(3, 'ad_refund', 1500, '2025-01-04T12:00:01.000Z', 'USD', { reference: 'ad-2', adTitle: 'Turned down', adDeleted: false }),
      tx(2, 'promo_credit', 2000, '2025-01-03T08:00:00.000Z', 'XG-PROMO-WALLET', { reference: 'code-id-1', promoCode: 'SPRING-2026' }),
      tx(1, 'ad_payment', -1500, '2025-01-01T08:00:00.000Z', 'USD', { reference: 'ad-9', adTitle: null, adDeleted: true }),
    ];

    it('lists decisions on my ads and money moving in my wallets, newest first, each linking to its screen', async () => {
      const asked = myServer({ recent, transactions });
      server.use(http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] })));
      signIn(['PROVIDER_USER']);
      const user = userEvent.setup();
      const page = renderAt(<MyDashboard />, '/admin/dashboard');
      const section = await screen.findByRole('region', { name: 'Recent activity' });
      const items = await within(section).findAllByRole('listitem');
      expect(items.map((li) => li.textContent)).toEqual([
        `${dateTimeLabel('2025-01-05T12:00:00.000Z', 'en')} “Evenings in the city” was approved.`,
        `${dateTimeLabel('2025-01-04T12:00:01.000Z', 'en')} Ad refund (“Turned down”): +$15.00, USD wallet`,
        `${dateTimeLabel('2025-01-04T12:00:00.000Z', 'en')} “Turned down” was rejected: Photos do not match`,
        `${dateTimeLabel('2025-01-03T08:00:00.000Z', 'en')} Promo code (SPRING-2026): +$20.00, Promo wallet`,
        `${dateTimeLabel('2025-01-02T12:00:00.000Z', 'en')} “Taken down” was disabled by staff.`,
        `${dateTimeLabel('2025-01-01T09:00:00.000Z', 'en')} “Ran out of time” expired.`,
        `${dateTimeLabel('2025-01-01T08:00:00.000Z', 'en')} Ad payment (deleted ad): -$15.00, USD wallet`,
      ]);
      expect(items.map((li) => within(li).getByRole('link').getAttribute('href'))).toEqual([
        '/admin/dashboard/my-ads',
        '/admin/dashboard/my-wallet',
        '/admin/dashboard/my-ads',
        '/admin/dashboard/my-wallet',
        '/admin/dashboard/my-ads',
        '/admin/dashboard/my-ads',
        '/admin/dashboard/my-wallet',
      ]);
      expect(within(items[0]).getByText(dateTimeLabel('2025-01-05T12:00:00.000Z', 'en')).getAttribute('datetime')).toBe('2025-01-05T12:00:00.000Z');
      expect(asked).toContain('transactions?page=1&pageSize=5');
      await user.click(within(items[1]).getByRole('link'));
      expect(page.currentPath()).toBe('/admin/dashboard/my-wallet');
    });

    it('speaks the page’s language, dates included', async () => {
      myServer({ recent: recent.slice(1, 2), transactions: transactions.slice(1, 2) });
      server.use(http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] })));
      signIn(['PROVIDER_USER']);
      await i18n.changeLanguage('pt');
      renderAt(<MyDashboard />, '/pt/admin/dashboard');
      const section = await screen.findByRole('region', { name: 'Atividade recente' });
      const items = await within(section).findAllByRole('listitem');
      expect(items.map((li) => li.textContent)).toEqual([
        `${dateTimeLabel('2025-01-04T12:00:00.000Z', 'pt')} “Turned down” foi recusado: Photos do not match`,
        // amounts as Portuguese writes dollars ("US$ 20,00"), like the dates
        `${dateTimeLabel('2025-01-03T08:00:00.000Z', 'pt')} Código promocional (SPRING-2026): +${new Intl.NumberFormat('pt', { style: 'currency', currency: 'USD' }).format(20)}, Carteira promocional`,
      ]);
    });

    it('tells of staff decisions on my edits of live ads, with the reason for a rejected one', async () => {
      myServer({
        recent: [
          { adId: 'ad-1', title: 'Evenings in the city', event: 'edit_rejected', at: '2025-01-07T12:00:00.000Z', reason: 'The new photo shows a face' },
          { adId: 'ad-1', title: 'Evenings in the city', event: 'edit_approved', at: '2025-01-06T12:00:00.000Z', reason: null },
          { adId: 'ad-1', title: 'Evenings in the city', event: 'approved', at: '2025-01-05T12:00:00.000Z', reason: null },
        ],
      });
      server.use(http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(1000)] })));
      signIn(['PROVIDER_USER']);
      renderAt(<MyDashboard />, '/admin/dashboard');
      const section = await screen.findByRole('region', { name: 'Recent activity' });
      const items = await within(section).findAllByRole('listitem');
      expect(items.map((li) => li.textContent)).toEqual([
        `${dateTimeLabel('2025-01-07T12:00:00.000Z', 'en')} Your edit of “Evenings in the city” was not approved: The new photo shows a face`,
        `${dateTimeLabel('2025-01-06T12:00:00.000Z', 'en')} Your edit of “Evenings in the city” was approved.`,
        `${dateTimeLabel('2025-01-05T12:00:00.000Z', 'en')} “Evenings in the city” was approved.`,
      ]);
      expect(items.map((li) => within(li).getByRole('link').getAttribute('href'))).toEqual([
        '/admin/dashboard/my-ads',
        '/admin/dashboard/my-ads',
        '/admin/dashboard/my-ads',
      ]);
    });

    it('says when there is nothing yet', async () => {
      myServer();
      server.use(http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(0)] })));
      signIn(['PROVIDER_USER']);
      renderAt(<MyDashboard />, '/admin/dashboard');
      const section = await screen.findByRole('region', { name: 'Recent activity' });
      expect(await within(section).findByText('Nothing yet: decisions on your ads and money moving in your wallets will show here.')).toBeTruthy();
      expect(within(section).queryByRole('listitem')).toBeNull();
    });
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
      // Kept unworded, worded at render: a language switch re-words it.
      await act(() => i18n.changeLanguage('es'));
      expect(within(form).getByRole('status').textContent).toBe('Enviado a 7 conexiones');
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

describe('MyDashboard with namespaces loaded on demand, as in the app', () => {
  // The recent activity names each money movement in words ("Bitcoin top-up: +$20.00, USD
  // wallet"), also when this is the first page opened after signing in: the names live in the
  // 'payments' namespace (payments:kinds.*), which the list asks for itself, as no other component
  // of the page does; without it the line shows the raw ledger code ("invoice_credit: …").
  it('words a Bitcoin top-up in the recent activity when the page is opened first', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u1', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER'] };
    sessionStore.loaded = true;
    server.use(
      http.get('/api/my-ads-overview', () => apiJson('GET /api/my-ads-overview', { counts: NO_ADS, online: 0, recent: [] })),
      http.get('/api/wallet-transactions', () =>
        apiJson('GET /api/wallet-transactions', {
          transactions: [
            {
              id: 1,
              walletId: 'w-usd',
              walletType: 'USD',
              kind: 'invoice_credit',
              amountCents: 2000,
              balanceAfterCents: 2000,
              reference: 'inv-1',
              createdAt: '2025-01-03T08:00:00.000Z',
            },
          ],
          total: 1,
          page: 1,
          pageSize: 5,
        }),
      ),
      http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(2000)] })),
    );
    const lazyI18n = appLikeI18n();
    const mem = memoryLocation({ path: '/admin/dashboard' });
    render(
      <I18nextProvider i18n={lazyI18n}>
        <Router hook={mem.hook}>
          <Suspense fallback={<p>Loading...</p>}>
            <MyDashboard />
          </Suspense>
        </Router>
      </I18nextProvider>,
    );
    const section = await screen.findByRole('region', { name: 'Recent activity' }, { timeout: 5000 });
    const item = await within(section).findByRole('listitem');
    expect(item.querySelector('a')?.textContent).toBe('Bitcoin top-up: +$20.00, USD wallet');
  });
});
