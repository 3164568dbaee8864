import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { Route } from 'wouter';
import i18n from 'i18next';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { sessionStore } from '../../state/session';
import type { ModAd, UserDetail as Detail } from '../../api/moderation';
import SearchAds from './SearchAds';
import UserDetail from './UserDetail';
import ScreeningLog from './ScreeningLog';
import PageViews, { fillDays } from './PageViews';

const modAd = (over: Partial<ModAd> = {}): ModAd => ({
  id: 'ad1',
  title: 'Harbour companion',
  status: 'approved',
  listingType: 'female_esc',
  phone: '+12125550142',
  place: 'New York City, NY',
  thumbUrl: '/uploads/ads/t1.webp',
  photoCount: 1,
  createdAt: '2026-01-10T12:00:00.000Z',
  publishedAt: '2026-01-11T12:00:00.000Z',
  expiresAt: '2026-02-10T12:00:00.000Z',
  rejectionReason: null,
  rejectionCategory: null,
  deletedAt: null,
  owner: { id: 'u7', email: 'owner@example.com', nickname: 'night_owl', status: 'approved', deleted: false },
  held: false,
  ...over,
});
const asAdmin = (roles: ('ADMIN_USER' | 'MASTER_USER')[] = ['ADMIN_USER']) => {
  sessionStore.session = { isAuthenticated: true, id: 'a1', email: 'admin@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', ...roles] };
};

describe('search screen', () => {
  it('searches by what the URL or the box says, across every status, and links each owner', async () => {
    asAdmin();
    const queries: Record<string, string>[] = [];
    server.use(
      http.get('/api/admin/search-ads', ({ request }) => {
        const q = Object.fromEntries(new URL(request.url).searchParams);
        queries.push(q);
        const ads =
          q.query === '2125550142'
            ? [modAd(), modAd({ id: 'ad2', title: 'Kept after deletion', status: 'deleted', held: true, deletedAt: '2026-01-12T10:00:00.000Z' })]
            : [];
        return apiJson('GET /api/admin/search-ads', { ads, total: ads.length, page: 1, pageSize: 20 });
      }),
      http.get('/api/admin/get-legal-holds', () =>
        apiJson('GET /api/admin/get-legal-holds', {
          holds: [
            {
              id: 'h1',
              targetType: 'user',
              targetId: 'u7',
              userId: 'u7',
              reason: 'Subpoena 24-117',
              placedBy: 'ann@example.com',
              placedAt: '2026-01-12T09:00:00.000Z',
              releasedAt: null,
              releasedBy: null,
              releaseNote: null,
              active: true,
            },
          ],
          total: 1,
          page: 1,
          pageSize: 50,
        }),
      ),
    );
    const user = userEvent.setup();
    renderAt(<SearchAds />, '/admin/dashboard/admin/search-ads?query=2125550142');
    const row = (await screen.findByText('Harbour companion')).closest('tr')!;
    expect(queries[0]).toEqual({ query: '2125550142', page: '1', pageSize: '20' });
    expect(screen.getByText('2 ads found')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Open the user screen of owner@example.com' }).getAttribute('href')).toBe('/admin/dashboard/admin/users/u7');
    expect(within(row).getByRole('link', { name: 'Export evidence: “Harbour companion”' }).getAttribute('href')).toBe('/api/admin/export-evidence/ad1');
    const kept = screen.getByText('Kept after deletion').closest('tr')!;
    expect(within(kept).getByText('Deleted (kept)')).toBeTruthy();
    expect(within(kept).getByText('Legal hold')).toBeTruthy();
    const holds = screen.getByRole('table', { name: 'Legal holds in force (1)' });
    expect(within(holds).getByText('Subpoena 24-117')).toBeTruthy();
    expect(within(holds).getByRole('link', { name: 'Open the user screen of Account u7' }).getAttribute('href')).toBe('/admin/dashboard/admin/users/u7');

    await user.clear(screen.getByLabelText('Ad id, words, phone, e-mail or nickname'));
    await user.type(screen.getByLabelText('Ad id, words, phone, e-mail or nickname'), 'nobody@example.com');
    await user.selectOptions(screen.getByLabelText('Status'), 'deleted');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('0 ads found')).toBeTruthy();
    expect(queries.at(-1)).toEqual({ query: 'nobody@example.com', status: 'deleted', page: '1', pageSize: '20' });
  });
});

function detail(over: Partial<Detail['user']> = {}): Detail {
  return {
    user: {
      id: 'u7',
      email: 'owner@example.com',
      nickname: 'night_owl',
      status: 'approved',
      deleted: false,
      roles: ['PROVIDER_USER'],
      phone: '+12125550142',
      phoneVerified: true,
      avatarUrl: null,
      createdAt: '2026-01-01T10:00:00.000Z',
      deletedAt: null,
      held: false,
      ...over,
    },
    ads: [modAd()],
    adsTotal: 1,
    reports: [{ id: 'r1', kind: 'ad', adId: 'ad1', message: 'Looks wrong to me.', status: 'open', createdAt: '2026-01-14T10:00:00.000Z' }],
    reportsTotal: 1,
    wallets: [{ id: 'w1', walletType: 'USD', balanceCents: 2500 }],
    ledger: [{ id: 3, walletId: 'w1', walletType: 'USD', amountCents: -1500, kind: 'ad_payment', reference: 'ad1', createdAt: '2026-01-10T12:00:00.000Z' }],
    ledgerTotal: 1,
    invoices: [
      { id: 'i1', invoiceId: 'BTC123', amountCents: 4000, status: 'Settled', createdAt: '2026-01-09T12:00:00.000Z', creditedAt: '2026-01-09T12:30:00.000Z' },
    ],
    invoicesTotal: 1,
    signIns: [
      { at: '2026-01-14T08:00:00.000Z', ip: '203.0.113.7', userAgent: 'Firefox/140', success: true, failure: null },
      { at: '2026-01-13T08:00:00.000Z', ip: '198.51.100.4', userAgent: 'curl/8', success: false, failure: 'wrong_password' },
    ],
    signInsTotal: 2,
    holds: [],
    related: [{ id: 'u9', email: 'twin@example.com', nickname: 'twin', reasons: ['phone', 'ip'] }],
    screening: [],
    audit: [
      {
        id: 1,
        actorId: 'a1',
        actorEmail: 'admin@example.com',
        action: 'ad.approve',
        targetType: 'ad',
        targetId: 'ad1',
        before: null,
        after: { status: 'approved' },
        at: '2026-01-11T12:00:00.000Z',
      },
    ],
  };
}

function userServer(initial: Detail) {
  let current = initial;
  const calls: unknown[] = [];
  server.use(
    http.get('/api/admin/get-user/:id', () => apiJson('GET /api/admin/get-user/:id', current)),
    http.post('/api/master/update-user-status', async ({ request }) => {
      const body = (await request.json()) as { userId: string; status: 'suspended' | 'approved'; from?: string };
      calls.push({ status: body });
      // As the server: the status the master saw (`from`) is no longer the account's, nothing changes.
      if (body.from !== undefined && body.from !== current.user.status) {
        const message = 'This account changed meanwhile: the list shows it as it is now.';
        return apiJson('POST /api/master/update-user-status', { message, code: 'master.user_changed' } as never, 409 as never);
      }
      current = { ...current, user: { ...current.user, status: body.status } };
      const u = current.user;
      return apiJson('POST /api/master/update-user-status', {
        user: { id: u.id, email: u.email, nickname: u.nickname, status: u.status, roles: u.roles, createdAt: u.createdAt },
      });
    }),
    http.post('/api/admin/place-legal-hold', async ({ request }) => {
      const body = (await request.json()) as { targetType: 'user'; targetId: string; reason: string };
      calls.push({ hold: body });
      const hold = {
        id: 'h1',
        ...body,
        userId: 'u7',
        placedBy: 'admin@example.com',
        placedAt: '2026-01-15T12:00:00.000Z',
        releasedAt: null,
        releasedBy: null,
        releaseNote: null,
        active: true,
      };
      current = { ...current, user: { ...current.user, held: true }, holds: [hold] };
      return apiJson('POST /api/admin/place-legal-hold', { hold }, 201);
    }),
    http.post('/api/admin/release-legal-hold', async ({ request }) => {
      const body = (await request.json()) as { holdIds: string[]; note: string };
      calls.push({ release: body });
      // As the server: a named hold no longer in force refuses the release; only the named ones go.
      if (!body.holdIds.every((id) => current.holds.some((h) => h.id === id && h.active))) {
        const message = 'That legal hold is no longer in force on this (another staff member released it meanwhile): check the holds in force now.';
        return apiJson('POST /api/admin/release-legal-hold', { message, code: 'moderation.hold_changed' } as never, 409 as never);
      }
      releaseMeanwhile(body.holdIds, body.note);
      return apiJson('POST /api/admin/release-legal-hold', { released: body.holdIds.length });
    }),
  );
  changeMeanwhile = (status) => {
    current = { ...current, user: { ...current.user, status } };
  };
  releaseMeanwhile = (ids, note = 'Done.') => {
    const holds = current.holds.map((h) =>
      ids.includes(h.id) ? { ...h, active: false, releasedAt: '2026-01-15T13:00:00.000Z', releasedBy: 'admin@example.com', releaseNote: note } : h,
    );
    current = { ...current, user: { ...current.user, held: holds.some((h) => h.active) }, holds };
  };
  return calls;
}

/** Another staff member releases holds meanwhile (the page still shows them in force): set by userServer. */
let releaseMeanwhile: (ids: string[], note?: string) => void = () => {};

/** Another master changes the account's status meanwhile (the page still shows the old one): set by userServer. */
let changeMeanwhile: (status: Detail['user']['status']) => void = () => {};

const renderUser = (id = 'u7') =>
  renderAt(
    <Route path="/admin/dashboard/admin/users/:id">
      <UserDetail />
    </Route>,
    `/admin/dashboard/admin/users/${id}`,
  );

describe('user screen', () => {
  it('shows the account, ads, reports, money, sign-ins and related accounts; a master suspends after a confirmation', async () => {
    asAdmin(['ADMIN_USER', 'MASTER_USER']);
    const calls = userServer(detail());
    const user = userEvent.setup();
    renderUser();
    expect(await screen.findByRole('heading', { level: 1, name: /night_owl/ })).toBeTruthy();
    const region = (name: string) => screen.getByRole('region', { name });
    expect(within(region('Ads (1)')).getByRole('link', { name: 'Harbour companion' }).getAttribute('href')).toBe('/admin/dashboard/admin/search-ads?query=ad1');
    expect(within(region('Reports about their ads (1)')).getByText('Looks wrong to me.')).toBeTruthy();
    const money = region('Money (3)');
    expect(within(money).getByText('$25.00')).toBeTruthy();
    expect(within(money).getByText('Ad payment').getAttribute('title')).toBe('ad_payment'); // named as the owner's wallet names it
    expect(within(money).getByText('BTC123')).toBeTruthy();
    const signIns = region('Sign-ins (2)');
    expect(within(signIns).getByText('203.0.113.7')).toBeTruthy();
    expect(within(signIns).getByText('Refused: wrong password')).toBeTruthy();
    expect(within(region('Related accounts (1)')).getByText(/same phone, same sign-in address/)).toBeTruthy();
    expect(within(region('Staff actions (1)')).getByRole('link', { name: 'Open the user screen of admin@example.com' })).toBeTruthy();
    // Every table is named (after its section's heading, or its caption).
    expect(screen.getByRole('table', { name: 'Ads (1)' })).toBeTruthy();
    expect(screen.queryAllByRole('table', { name: '' })).toEqual([]);
    expect(screen.getByRole('link', { name: 'Export evidence file' }).getAttribute('href')).toBe('/api/admin/export-evidence/u7');

    await user.click(screen.getByRole('button', { name: 'Suspend' }));
    const dialog = screen.getByRole('dialog', { name: 'Suspend night_owl (owner@example.com)?' });
    expect(within(dialog).getByText('Status: Approved → Suspended')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Suspend the account' }));
    expect(await screen.findByText('night_owl (owner@example.com) is now Suspended.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Reinstate' })).toBeTruthy();
    expect(calls).toEqual([{ status: { userId: 'u7', status: 'suspended', from: 'approved' } }]);
  });

  // The server sends the newest 200 rows of a list with its total: a list cut short says so, so the
  // ledger shown is not read as the whole (its sum as the balance), and the account's own staff
  // actions open in the audit log.
  it('says "last N of M" for a list the server cut short, and links the actions the user took', async () => {
    asAdmin();
    userServer({ ...detail(), adsTotal: 250, ledgerTotal: 206, signInsTotal: 2 });
    renderUser();
    expect(await screen.findByRole('heading', { level: 1, name: /night_owl/ })).toBeTruthy();
    const region = (name: string) => screen.getByRole('region', { name });
    expect(region('Ads (last 1 of 250)')).toBeTruthy();
    expect(region('Reports about their ads (1)')).toBeTruthy();
    expect(within(region('Money (last 3 of 208)')).getByRole('table', { name: 'Ledger (newest first) (last 1 of 206)' })).toBeTruthy();
    expect(region('Sign-ins (2)')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Actions by this user' }).getAttribute('href')).toBe('/admin/dashboard/admin/audit-log?actorId=u7');
    await act(() => i18n.changeLanguage('es'));
    try {
      expect(await screen.findByRole('region', { name: 'Anuncios (últimos 1 de 250)' })).toBeTruthy();
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });

  // A ledger row's kind is named in the page's language, as the owner's wallet names it, not
  // shown as the stored word ('ad_payment'); that word stays at hand as the cell's title.
  it('names ledger entries in the page’s language', async () => {
    asAdmin();
    userServer({
      ...detail(),
      ledger: [
        { id: 4, walletId: 'w2', walletType: 'PROMO', amountCents: 5000, kind: 'promo_credit', reference: 'P9', createdAt: '2026-01-09T12:00:00.000Z' },
        { id: 3, walletId: 'w1', walletType: 'USD', amountCents: -1500, kind: 'ad_payment', reference: 'ad1', createdAt: '2026-01-10T12:00:00.000Z' },
      ],
      ledgerTotal: 2,
    });
    await act(() => i18n.changeLanguage('es'));
    try {
      renderUser();
      const ledger = await screen.findByRole('table', { name: /^Movimientos/ });
      const kinds = within(ledger)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelectorAll('td')[2]);
      expect(kinds.map((c) => c.textContent)).toEqual(['Código promocional', 'Pago de anuncio']);
      expect(kinds.map((c) => c.getAttribute('title'))).toEqual(['promo_credit', 'ad_payment']);
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });

  // The status shown is sent as `from`: an account another master changed meanwhile is not
  // changed again from a stale screen; the refusal is said (in the page's language of the moment,
  // also after a switch) and the account is read again, showing what it is now.
  it('sends the status it shows; an account changed meanwhile is refused, said so and read again', async () => {
    asAdmin(['ADMIN_USER', 'MASTER_USER']);
    const calls = userServer(detail({ status: 'pending' }));
    const user = userEvent.setup();
    renderUser();
    await user.click(await screen.findByRole('button', { name: 'Suspend' }));
    changeMeanwhile('suspended');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Suspend the account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This account changed meanwhile: the list shows it as it is now.');
    expect(calls).toEqual([{ status: { userId: 'u7', status: 'suspended', from: 'pending' } }]);
    // Read again: the dialog about a stale status is closed and the page shows the account as it is.
    expect(await screen.findByRole('button', { name: 'Reinstate' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Suspend' })).toBeNull();
    await act(() => i18n.changeLanguage('es'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Esta cuenta cambió mientras tanto: la lista la muestra como está ahora.'));
    await act(() => i18n.changeLanguage('en'));

    // Reinstated from what is shown now, the success follows a language switch too.
    await user.click(screen.getByRole('button', { name: 'Reinstate' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: /Reinstate/ }));
    expect(await screen.findByText('night_owl (owner@example.com) is now Approved.')).toBeTruthy();
    expect(calls.at(-1)).toEqual({ status: { userId: 'u7', status: 'approved', from: 'suspended' } });
    expect(screen.queryByRole('alert')).toBeNull();
    await act(() => i18n.changeLanguage('es'));
    expect(await screen.findByText('night_owl (owner@example.com) ahora está Aprobado.')).toBeTruthy();
  });

  it('keeps keyboard focus on the page when the change removes the button it came from (Suspend gives way to Reinstate)', async () => {
    asAdmin(['ADMIN_USER', 'MASTER_USER']);
    userServer(detail());
    const user = userEvent.setup();
    renderUser();
    await user.click(await screen.findByRole('button', { name: 'Suspend' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Suspend the account' }));
    expect(await screen.findByRole('button', { name: 'Reinstate' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
  });

  it('shows an invoice’s status in the page’s language', async () => {
    asAdmin();
    userServer(detail());
    await i18n.changeLanguage('es');
    try {
      renderUser();
      const invoice = (await screen.findByText('BTC123')).closest('tr')!;
      const status = within(invoice).getAllByRole('cell')[3];
      expect(status.firstChild?.textContent).toBe('Pagada');
      expect(status.textContent).not.toContain('Settled');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it("on one's own account, says a report about one's ad is another admin's, without its words (the server sends none)", async () => {
    asAdmin();
    const own = detail({ id: 'a1', email: 'admin@example.com', nickname: 'the_admin' });
    userServer({ ...own, reports: own.reports.map((r) => ({ ...r, message: '' })) });
    renderUser('a1');
    const reports = await screen.findByRole('region', { name: 'Reports about their ads (1)' });
    expect(within(reports).getByText('About your own ad: another admin handles it. Who sent it and what it says are not shown to you.')).toBeTruthy();
  });

  it('lets an admin place and release a legal hold, but not suspend', async () => {
    asAdmin();
    const calls = userServer(detail());
    const user = userEvent.setup();
    renderUser();
    await screen.findByRole('heading', { level: 1, name: /night_owl/ });
    expect(screen.queryByRole('button', { name: 'Suspend' })).toBeNull();
    expect(screen.getByText('Only a master can suspend or reinstate an account.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Place a legal hold' }));
    const hold = screen.getByRole('dialog', { name: 'Place a legal hold on night_owl (owner@example.com)' });
    await user.type(within(hold).getByLabelText('Reason (e.g. the legal request’s reference)'), 'Subpoena 24-117');
    await user.click(within(hold).getByRole('button', { name: 'Place the hold' }));
    expect(await screen.findByText('A legal hold is in force on night_owl (owner@example.com).')).toBeTruthy();
    const holds = await screen.findByRole('region', { name: 'Legal holds (1)' });
    await user.click(within(holds).getByRole('button', { name: 'Release' }));
    const release = screen.getByRole('dialog', { name: 'Release the legal hold on night_owl (owner@example.com)' });
    await user.type(within(release).getByLabelText('Note (why it is released)'), 'Done.');
    await user.click(within(release).getByRole('button', { name: 'Release the hold' }));
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Legal holds (1)' })).getByText(/^Released/)).toBeTruthy());
    expect(calls).toEqual([
      { hold: { targetType: 'user', targetId: 'u7', reason: 'Subpoena 24-117' } },
      { release: { targetType: 'user', targetId: 'u7', holdIds: ['h1'], note: 'Done.' } },
    ]);
  });

  // Several holds may cover one account, each answering its own legal request: Release releases
  // the hold of its row and no other; one released meanwhile by someone else is refused, said so,
  // and the holds are read again.
  it('releases only the hold whose button was pressed; one released meanwhile is refused, said so and read again', async () => {
    asAdmin();
    const held = (id: string, reason: string, placedBy: string) => ({
      id,
      targetType: 'user' as const,
      targetId: 'u7',
      userId: 'u7',
      reason,
      placedBy,
      placedAt: '2026-01-15T12:00:00.000Z',
      releasedAt: null,
      releasedBy: null,
      releaseNote: null,
      active: true,
    });
    const calls = userServer({
      ...detail({ held: true }),
      holds: [held('h2', 'NCMEC report 55012', 'master@example.com'), held('h1', 'Subpoena 24-117', 'admin@example.com')],
    });
    const user = userEvent.setup();
    renderUser();
    const rowOf = async (reason: string) => (await screen.findByText(reason)).closest('tr')!;
    await user.click(within(await rowOf('Subpoena 24-117')).getByRole('button', { name: 'Release' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Note (why it is released)'), 'Subpoena answered.');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Release the hold' }));
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Legal holds (2)' })).getByText('Subpoena answered.')).toBeTruthy());
    expect(calls).toEqual([{ release: { targetType: 'user', targetId: 'u7', holdIds: ['h1'], note: 'Subpoena answered.' } }]);
    expect(within(await rowOf('NCMEC report 55012')).getByRole('button', { name: 'Release' })).toBeTruthy(); // still in force

    // The master's hold, released by someone else after the page was read.
    releaseMeanwhile(['h2'], 'NCMEC report closed.');
    await user.click(within(await rowOf('NCMEC report 55012')).getByRole('button', { name: 'Release' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Note (why it is released)'), 'Releasing it too.');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Release the hold' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That legal hold is no longer in force on this (another staff member released it meanwhile): check the holds in force now.',
    );
    expect(calls.at(-1)).toEqual({ release: { targetType: 'user', targetId: 'u7', holdIds: ['h2'], note: 'Releasing it too.' } });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('NCMEC report closed.')).toBeTruthy(); // read again: as it is now
    expect(within(screen.getByRole('region', { name: 'Legal holds (2)' })).queryByRole('button', { name: 'Release' })).toBeNull();
    await act(() => i18n.changeLanguage('es'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^Esa retención legal ya no está vigente/));
    await act(() => i18n.changeLanguage('en'));
  });
});

describe('screening log and page views', () => {
  it('lists refused ad texts with the matched term and a link to the user', async () => {
    asAdmin();
    server.use(
      http.get('/api/admin/get-screening-log', () =>
        apiJson('GET /api/admin/get-screening-log', {
          entries: [
            {
              id: 1,
              userId: 'u7',
              userEmail: 'owner@example.com',
              field: 'title',
              term: 'schoolgirl',
              title: 'Young schoolgirl here',
              description: 'x'.repeat(60),
              createdAt: '2026-01-14T10:00:00.000Z',
            },
          ],
          total: 1,
          page: 1,
          pageSize: 20,
        }),
      ),
    );
    renderAt(<ScreeningLog />, '/admin/dashboard/admin/screening-log');
    const row = (await screen.findByText('Young schoolgirl here')).closest('tr')!;
    expect(within(row).getByText('schoolgirl').tagName).toBe('MARK');
    expect(within(row).getByText('in the title')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Open the user screen of owner@example.com' }).getAttribute('href')).toBe('/admin/dashboard/admin/users/u7');
  });

  it('charts views per day and lists top pages and ads over 7, 30 or 90 days', async () => {
    asAdmin();
    const asked: string[] = [];
    const today = new Date().toISOString().slice(0, 10);
    server.use(
      http.get('/api/admin/get-page-views', ({ request }) => {
        const days = Number(new URL(request.url).searchParams.get('days'));
        asked.push(String(days));
        return apiJson('GET /api/admin/get-page-views', {
          days,
          today,
          total: 5,
          byDay: [{ day: today, count: 5 }],
          topPaths: [{ path: '/faq', count: 3 }],
          topAds: [{ adId: 'ad1', title: 'Harbour companion', count: 2 }],
          byLocale: [{ locale: 'es', count: 5 }],
        });
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<PageViews />, '/admin/dashboard/admin/page-views');
    expect(await screen.findByText('5 views in the last 30 days')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Views per day over the last 30 days (5 in all)' })).toBeTruthy();
    expect(view.container.querySelectorAll('svg rect')).toHaveLength(30);
    expect(view.container.querySelector(`rect[data-day="${today}"]`)!.getAttribute('height')).not.toBe('0');
    expect(screen.getByRole('link', { name: 'Harbour companion' }).getAttribute('href')).toBe('/admin/dashboard/admin/search-ads?query=ad1');
    expect(screen.getByText('/faq')).toBeTruthy();
    expect(screen.getByText('Spanish: 5')).toBeTruthy();
    await user.click(screen.getByText('Show the figures as a table'));
    expect(screen.getByRole('table', { name: 'Show the figures as a table' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Top pages' })).toBeTruthy();
    expect(screen.queryAllByRole('table', { name: '' })).toEqual([]);
    await user.click(screen.getByRole('button', { name: '7 days' }));
    expect(await screen.findByText('5 views in the last 7 days')).toBeTruthy();
    expect(screen.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(asked).toEqual(['30', '7']);
  });

  it('fills the days without views with zero', () => {
    expect(fillDays([{ day: '2026-01-14', count: 4 }], 3, new Date('2026-01-15T20:00:00Z'))).toEqual([
      { day: '2026-01-13', count: 0 },
      { day: '2026-01-14', count: 4 },
      { day: '2026-01-15', count: 0 },
    ]);
  });
});
