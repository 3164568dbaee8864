import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { apiError, makeStaffAd } from '../../components/market/testing';
import { sessionStore } from '../../state/session';
import type { StaffAd } from '../../api/ads';
import type { Report } from '../../api/reports';
import type { City, State } from '../../api/locations';
import ApprovedAds from './ApprovedAds';
import PendingAds from './PendingAds';
import Pricing from './Pricing';
import Locations from './Locations';
import Reports from './Reports';

// A button pressed while its request runs keeps keyboard focus and refuses a second press. jsdom
// keeps focus on a disabled button (Chromium drops it to <body>), so "kept" is: it has focus and
// is not `disabled`, and says it is refused (aria-disabled).

function expectFocusKept(el: HTMLElement) {
  expect(document.activeElement).toBe(el);
  expect((el as HTMLButtonElement | HTMLInputElement).disabled).toBe(false);
  expect(el.getAttribute('aria-disabled')).toBe('true');
}

/** A gate a handler waits at until the test opens it; counts the requests that reached it. */
function gate() {
  const g = { sent: 0, open: null as null | (() => void) };
  const wait = () => {
    g.sent++;
    return new Promise<void>((resolve) => (g.open = resolve));
  };
  return { g, wait };
}

const signInAdmin = () => {
  sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
};

describe('approved ads while a status change runs', () => {
  function approvedServer(ads: StaffAd[], refuseFirst: boolean) {
    const { g, wait } = gate();
    let list = [...ads];
    server.use(
      http.get('/api/admin/get-approved-ads', () =>
        apiJson('GET /api/admin/get-approved-ads', { approvedAds: list, total: list.length, page: 1, pageSize: 20 }),
      ),
      http.post('/api/admin/set-status-approved-ads', async ({ request }) => {
        const body = (await request.json()) as { adIds: string[]; status: 'approved' | 'disabled' };
        await wait();
        if (refuseFirst && g.sent === 1) return apiError('POST /api/admin/set-status-approved-ads', 404, 'ad.not_found');
        list = list.map((a) => (body.adIds.includes(a.id) ? { ...a, status: body.status } : a));
        return apiJson('POST /api/admin/set-status-approved-ads', { updated: body.adIds.length });
      }),
    );
    return g;
  }

  it('“Disable selected” keeps focus and sends once; refused, focus stays; done (selection cleared), the outcome takes focus', async () => {
    signInAdmin();
    const g = approvedServer([makeStaffAd({ status: 'approved', title: 'A live ad to take down', ownerId: 'u2' })], true);
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    await user.click(await screen.findByRole('checkbox', { name: 'Select “A live ad to take down”' }));
    const bulk = screen.getByRole<HTMLButtonElement>('button', { name: 'Disable selected (1)' });
    const confirm = () => user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disable 1 ad' })); // asked first
    bulk.focus();
    await user.keyboard('{Enter}');
    await confirm();
    await waitFor(() => expect(g.open).not.toBeNull());
    expectFocusKept(bulk);
    await user.keyboard('{Enter}');
    await user.click(bulk);
    expect(g.sent).toBe(1);

    g.open!();
    expect((await screen.findByRole('alert')).textContent).toBe('Ad not found.');
    await waitFor(() => expect(bulk.getAttribute('aria-disabled')).toBeNull());
    expect(document.activeElement).toBe(bulk);

    g.open = null;
    await user.keyboard('{Enter}');
    await confirm();
    await waitFor(() => expect(g.open).not.toBeNull());
    g.open!();
    const status = await screen.findByRole('status');
    expect(g.sent).toBe(2);
    expect(document.activeElement).toBe(status);
    expect(bulk.getAttribute('aria-disabled')).toBe('true'); // nothing selected any more
  });

  it('a row’s Disable keeps focus and sends once, then turns Enable with focus on it', async () => {
    signInAdmin();
    const g = approvedServer([makeStaffAd({ status: 'approved', title: 'A live ad to take down', ownerId: 'u2' })], false);
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    const row = (await screen.findByRole('link', { name: 'A live ad to take down' })).closest('tr')!;
    const button = within(row).getByRole<HTMLButtonElement>('button', { name: 'Disable' });
    button.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(g.open).not.toBeNull());
    expectFocusKept(button);
    await user.keyboard('{Enter}');
    await user.click(button);
    expect(g.sent).toBe(1);
    g.open!();
    expect(await within(row).findByRole('button', { name: 'Enable' })).toBe(document.activeElement);
  });
});

describe('pending ads while a decision runs', () => {
  function pendingServer(ads: StaffAd[]) {
    const { g, wait } = gate();
    let list = [...ads];
    server.use(
      http.get('/api/admin/get-duplicate-flags', () => apiJson('GET /api/admin/get-duplicate-flags', { flags: [] })),
      http.get('/api/admin/get-pending-ads', () => apiJson('GET /api/admin/get-pending-ads', { pendingAds: list, total: list.length, page: 1, pageSize: 20 })),
      http.post('/api/admin/approve-pending-ads', async ({ request }) => {
        const body = (await request.json()) as { adIds: string[] };
        await wait();
        list = list.filter((a) => !body.adIds.includes(a.id));
        return apiJson('POST /api/admin/approve-pending-ads', { updated: body.adIds.length });
      }),
    );
    return g;
  }

  it('a row’s Approve keeps focus and sends once; done, the outcome takes focus', async () => {
    signInAdmin();
    const g = pendingServer([
      makeStaffAd({ status: 'in_review', title: 'First ad in review' }),
      makeStaffAd({ status: 'in_review', title: 'Second ad in review' }),
    ]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    const approve = within(await screen.findByRole('listitem', { name: 'First ad in review' })).getByRole<HTMLButtonElement>('button', { name: 'Approve' });
    approve.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(g.open).not.toBeNull());
    expectFocusKept(approve);
    await user.keyboard('{Enter}');
    await user.click(approve);
    // The other ad's buttons refuse too (one decision at a time), yet stay focusable.
    await user.click(within(screen.getByRole('listitem', { name: 'Second ad in review' })).getByRole('button', { name: 'Approve' }));
    expect(g.sent).toBe(1);
    g.open!();
    const status = await screen.findByRole('status');
    await waitFor(() => expect(document.activeElement).toBe(status));
  });

  it('a rejection closed with Escape while it runs gives focus back to its Reject, which opens nothing until it ends', async () => {
    signInAdmin();
    const g = pendingServer([makeStaffAd({ status: 'in_review', title: 'First ad in review' })]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    const reject = within(await screen.findByRole('listitem', { name: 'First ad in review' })).getByRole<HTMLButtonElement>('button', { name: 'Reject' });
    await user.click(reject);
    const dialog = screen.getByRole('dialog', { name: 'Reject 1 ad' });
    await user.type(within(dialog).getByLabelText('Reason (the owner sees it)'), 'Photos do not match');
    await user.click(within(dialog).getByRole('button', { name: 'Reject and refund' }));
    await waitFor(() => expect(g.open).not.toBeNull());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expectFocusKept(reject);
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(g.sent).toBe(1);
    g.open!();
    expect((await screen.findByRole('status')).textContent).toBe('1 ad rejected and refunded.');
  });
});

describe('pricing while a row saves', () => {
  it('Save keeps focus and saves once, also when Enter is pressed again in the row’s field', async () => {
    const { g, wait } = gate();
    const row = { id: 'p-ad', kind: 'ad' as const, listingType: 'female_esc' as const, priceCents: 1500, durationDays: 30 };
    server.use(
      http.get('/api/admin/get-all-pricing', () => apiJson('GET /api/admin/get-all-pricing', { pricing: [row] })),
      http.post('/api/admin/set-price-by-id', async () => {
        await wait();
        return apiJson('POST /api/admin/set-price-by-id', { pricing: { ...row, priceCents: 2000 } });
      }),
    );
    const user = userEvent.setup();
    renderAt(<Pricing />, '/admin/dashboard/admin/pricing');
    const price = await screen.findByRole('textbox', { name: 'Price of Ad – Female escorts' });
    await user.clear(price);
    await user.type(price, '20');
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save Ad – Female escorts' });
    save.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(g.open).not.toBeNull());
    expectFocusKept(save);
    await user.keyboard('{Enter}');
    await user.click(save);
    await user.type(price, '{Enter}');
    expect(g.sent).toBe(1);
    save.focus();
    g.open!();
    expect((await screen.findByRole('status')).textContent).toMatch(/^Saved: /);
    await waitFor(() => expect(save.getAttribute('aria-disabled')).toBeNull());
    expect(document.activeElement).toBe(save);
  });
});

describe('locations while a change runs', () => {
  const STATES: State[] = [{ id: 'ny', name: 'New York', code: 'NY', slug: 'new-york', countryCode: 'US', enabled: false }];
  const CITIES: City[] = [
    { id: '5110629', stateId: 'ny', name: 'Buffalo', slug: 'buffalo', population: 278_349, latitude: 42.89, longitude: -78.88, enabled: false },
  ];
  function locationsServer() {
    const { g, wait } = gate();
    server.use(
      http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
      http.get('/api/admin/get-cities-by-state', ({ request }) => {
        const q = new URL(request.url).searchParams;
        return apiJson('GET /api/admin/get-cities-by-state', {
          cities: CITIES,
          total: CITIES.length,
          page: Number(q.get('page')),
          pageSize: Number(q.get('pageSize')),
        });
      }),
      http.post('/api/admin/set-status-state-cities', async ({ request }) => {
        const body = (await request.json()) as { cityIds?: string[] };
        await wait();
        return apiJson('POST /api/admin/set-status-state-cities', { updated: body.cityIds?.length ?? 1 });
      }),
    );
    return g;
  }

  it('a state’s switch keeps focus and changes once', async () => {
    const g = locationsServer();
    const user = userEvent.setup();
    renderAt(<Locations />, '/admin/dashboard/admin/locations');
    const toggle = await screen.findByRole<HTMLInputElement>('switch', { name: 'New York enabled' });
    toggle.focus();
    await user.keyboard(' ');
    await waitFor(() => expect(g.open).not.toBeNull());
    expectFocusKept(toggle);
    await user.keyboard(' ');
    await user.click(toggle);
    expect(g.sent).toBe(1);
    expect(toggle.checked).toBe(false);
    g.open!();
    await waitFor(() => expect(toggle.checked).toBe(true));
    expect(toggle.getAttribute('aria-disabled')).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

  it('“Enable all on this page” keeps focus and sends once', async () => {
    const g = locationsServer();
    const user = userEvent.setup();
    renderAt(<Locations />, '/admin/dashboard/admin/locations');
    await user.click(await screen.findByRole('button', { name: 'Cities of New York' }));
    await screen.findByRole('switch', { name: 'Buffalo enabled' });
    const all = screen.getByRole<HTMLButtonElement>('button', { name: 'Enable all on this page' });
    all.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(g.open).not.toBeNull());
    expectFocusKept(all);
    await user.keyboard('{Enter}');
    expect(g.sent).toBe(1);
    expect(screen.getByRole('button', { name: 'Disable all on this page' }).getAttribute('aria-disabled')).toBe('true'); // one change at a time
    g.open!();
    await waitFor(() => expect(all.getAttribute('aria-disabled')).toBeNull());
    expect(document.activeElement).toBe(all);
  });
});

describe('reports while an action runs', () => {
  const report = (i: number, status: Report['status'] = 'open'): Report => ({
    id: `r${i}`,
    kind: 'ad',
    adId: 'ad1',
    message: `Report number ${i}.`,
    contact: null,
    status,
    ipHash: null,
    createdAt: '2026-01-15T12:00:00.000Z',
    urgent: false,
    ad: {
      id: 'ad1',
      title: 'Harbour companion',
      status: 'approved',
      thumbUrl: null,
      ownerId: 'u7',
      ownerEmail: 'owner@example.com',
      ownerNickname: 'owner',
      held: false,
    },
  });
  function reportsServer(initial: Report[]) {
    const { g, wait } = gate();
    let reports = [...initial];
    server.use(
      http.get('/api/admin/get-reports', ({ request }) => {
        const q = new URL(request.url).searchParams;
        const page = Number(q.get('page') ?? 1);
        const shown = reports.filter((r) => !q.get('status') || r.status === q.get('status'));
        return apiJson('GET /api/admin/get-reports', { reports: shown.slice((page - 1) * 20, page * 20), total: shown.length, page, pageSize: 20 });
      }),
      http.post('/api/admin/set-report-status', async ({ request }) => {
        const body = (await request.json()) as { id: string; status: Report['status'] };
        await wait();
        reports = reports.map((r) => (r.id === body.id ? { ...r, status: body.status } : r));
        return apiJson('POST /api/admin/set-report-status', { report: reports.find((r) => r.id === body.id)! });
      }),
    );
    return g;
  }

  it('Reopen keeps focus and sends once; the report stays listed and its button (now Close) keeps focus', async () => {
    signInAdmin();
    const g = reportsServer([report(1, 'closed')]);
    const user = userEvent.setup();
    renderAt(<Reports />, '/admin/dashboard/admin/reports');
    await user.selectOptions(screen.getByLabelText('Status'), '');
    const row = (await screen.findByText('Report number 1.')).closest('tr')!;
    const reopen = within(row).getByRole<HTMLButtonElement>('button', { name: 'Reopen' });
    reopen.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(g.open).not.toBeNull());
    expectFocusKept(reopen);
    await user.keyboard('{Enter}');
    await user.click(reopen);
    expect(g.sent).toBe(1);
    g.open!();
    expect(await within(row).findByRole('button', { name: 'Close with a note' })).toBe(document.activeElement);
  });

  it('the note dialog’s submit keeps focus and sends once; closed with Escape, focus goes back to its opener', async () => {
    signInAdmin();
    const g = reportsServer([report(1)]);
    const user = userEvent.setup();
    renderAt(<Reports />, '/admin/dashboard/admin/reports');
    const row = (await screen.findByText('Report number 1.')).closest('tr')!;
    const opener = within(row).getByRole<HTMLButtonElement>('button', { name: 'Close with a note' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: /^Close the report/ });
    await user.type(within(dialog).getByLabelText('Note (what was done; kept in the audit log)'), 'Ad checked, nothing wrong.');
    const submit = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Close the report' });
    submit.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(g.open).not.toBeNull());
    expectFocusKept(submit);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    await user.keyboard('{Enter}');
    await user.click(submit);
    expect(g.sent).toBe(1);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expectFocusKept(opener);
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    g.open!();
    await waitFor(() => expect(screen.queryByText('Report number 1.')).toBeNull());
  });

  it('Next onto the last page keeps focus there', async () => {
    signInAdmin();
    reportsServer(Array.from({ length: 21 }, (_, i) => report(i + 1)));
    const user = userEvent.setup();
    renderAt(<Reports />, '/admin/dashboard/admin/reports');
    await screen.findByText('Report number 1.');
    const next = screen.getByRole<HTMLButtonElement>('button', { name: 'Next' });
    next.focus();
    await user.keyboard('{Enter}');
    await screen.findByText('Report number 21.');
    expectFocusKept(next);
    await user.keyboard('{Enter}');
    expect(screen.getByText('Report number 21.')).toBeTruthy();
  });
});
