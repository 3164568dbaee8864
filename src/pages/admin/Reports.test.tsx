import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { sessionStore } from '../../state/session';
import type { Report } from '../../api/reports';
import Reports from './Reports';

const adReport: Report = {
  id: 'r2',
  kind: 'ad',
  adId: 'ad1',
  message: 'This advert looks wrong.',
  contact: null,
  status: 'open',
  ipHash: 'abcdef0123456789',
  createdAt: '2026-01-15T12:00:00.000Z',
  urgent: false,
  ad: {
    id: 'ad1',
    title: 'Harbour companion',
    status: 'approved',
    thumbUrl: '/uploads/ads/t1.webp',
    ownerId: 'u7',
    ownerEmail: 'owner@example.com',
    ownerNickname: 'owner',
    held: false,
  },
};
const tip: Report = {
  id: 'r1',
  kind: 'trafficking',
  adId: null,
  message: 'Looks underage.',
  contact: null,
  status: 'open',
  ipHash: null,
  createdAt: '2026-01-15T13:00:00.000Z',
  urgent: true,
  ad: null,
};

function reportsServer() {
  let reports = [tip, adReport];
  const queries: string[] = [];
  const calls: unknown[] = [];
  server.use(
    http.get('/api/admin/get-reports', ({ request }) => {
      queries.push(new URL(request.url).search);
      return apiJson('GET /api/admin/get-reports', { reports, total: reports.length, page: 1, pageSize: 20 });
    }),
    http.post('/api/admin/set-report-status', async ({ request }) => {
      const body = (await request.json()) as { id: string; status: Report['status']; note?: string };
      calls.push({ setStatus: body });
      reports = reports.map((r) => (r.id === body.id ? { ...r, status: body.status } : r));
      return apiJson('POST /api/admin/set-report-status', { report: reports.find((r) => r.id === body.id)! });
    }),
    http.post('/api/admin/set-status-approved-ads', async ({ request }) => {
      const body = (await request.json()) as { adIds: string[]; status: string };
      calls.push({ adStatus: body });
      reports = reports.map((r) => (r.ad && body.adIds.includes(r.ad.id) ? { ...r, ad: { ...r.ad, status: 'disabled' } } : r));
      return apiJson('POST /api/admin/set-status-approved-ads', { updated: 1 });
    }),
    http.post('/api/admin/place-legal-hold', async ({ request }) => {
      const body = (await request.json()) as { targetType: 'ad'; targetId: string; reason: string };
      calls.push({ hold: body });
      reports = reports.map((r) => (r.ad?.id === body.targetId ? { ...r, ad: { ...r.ad, held: true } } : r));
      return apiJson(
        'POST /api/admin/place-legal-hold',
        {
          hold: {
            id: 'h1',
            ...body,
            userId: 'u7',
            placedBy: 'admin@example.com',
            placedAt: '2026-01-15T14:00:00.000Z',
            releasedAt: null,
            releasedBy: null,
            releaseNote: null,
            active: true,
          },
        },
        201,
      );
    }),
  );
  return { queries, calls };
}

describe('admin reports screen', () => {
  it('shows each report with its ad, urgent ones marked, and acts from there', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'a1', email: 'admin@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const srv = reportsServer();
    const user = userEvent.setup();
    renderAt(<Reports />, '/admin/dashboard/admin/reports');

    const urgent = (await screen.findByText('Looks underage.')).closest('tr')!;
    expect(screen.getByRole('table', { name: 'Reports' })).toBeTruthy();
    expect(within(urgent).getByText('Urgent')).toBeTruthy();
    expect(within(urgent).getByText('anonymous')).toBeTruthy();
    expect(srv.queries[0]).toBe('?page=1&pageSize=20&status=open');
    const row = screen.getByText('This advert looks wrong.').closest('tr')!;
    expect(within(row).queryByText('Urgent')).toBeNull();
    expect(within(row).getByRole('link', { name: 'Harbour companion' }).getAttribute('href')).toBe('/admin/dashboard/admin/search-ads?query=ad1');
    expect(within(row).getByText('Approved')).toBeTruthy();
    expect(row.querySelector('img')!.getAttribute('src')).toBe('/uploads/ads/t1.webp');
    // Each link's name starts with the words it shows (the e-mail, "Open user").
    expect(within(row).getByRole('link', { name: 'Open the user screen of owner@example.com' }).getAttribute('href')).toBe('/admin/dashboard/admin/users/u7');
    expect(within(row).getByRole('link', { name: 'Open user: owner@example.com' }).getAttribute('href')).toBe('/admin/dashboard/admin/users/u7');

    // Disable the ad (confirmed first).
    await user.click(within(row).getByRole('button', { name: 'Disable ad' }));
    const confirm = screen.getByRole('dialog', { name: 'Disable the ad “Harbour companion”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Disable the ad' }));
    expect(await screen.findByText('“Harbour companion” is disabled.')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByText('This advert looks wrong.').closest('tr')!).getByText('Disabled')).toBeTruthy());

    // Place a legal hold with a reason.
    await user.click(within(screen.getByText('This advert looks wrong.').closest('tr')!).getByRole('button', { name: 'Place a legal hold' }));
    const hold = screen.getByRole('dialog', { name: 'Place a legal hold on the ad “Harbour companion”' });
    await user.click(within(hold).getByRole('button', { name: 'Place the hold' }));
    expect(within(hold).getByText('Between 3 and 1000 characters.').className).toBe('field-error');
    await user.type(within(hold).getByLabelText('Reason (e.g. the legal request’s reference)'), 'NCMEC report 5501');
    await user.click(within(hold).getByRole('button', { name: 'Place the hold' }));
    await waitFor(() => expect(within(screen.getByText('This advert looks wrong.').closest('tr')!).getByText('Legal hold')).toBeTruthy());

    // Close with a note.
    await user.click(within(screen.getByText('This advert looks wrong.').closest('tr')!).getByRole('button', { name: 'Close with a note' }));
    const close = screen.getByRole('dialog', { name: /^Close the report: Ad report received/ });
    await user.type(within(close).getByLabelText('Note (what was done; kept in the audit log)'), 'Ad disabled, evidence kept.');
    await user.click(within(close).getByRole('button', { name: 'Close the report' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(srv.calls).toEqual([
      { adStatus: { adIds: ['ad1'], status: 'disabled' } },
      { hold: { targetType: 'ad', targetId: 'ad1', reason: 'NCMEC report 5501' } },
      { setStatus: { id: 'r2', status: 'closed', note: 'Ad disabled, evidence kept.' } },
    ]);
    expect(screen.getByText('Report r2 is now Closed.')).toBeTruthy();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'law_enforcement');
    await waitFor(() => expect(srv.queries.at(-1)).toBe('?page=1&pageSize=20&status=open&kind=law_enforcement'));
  });

  // An expired ad's owner may renew it straight back into view: a report about it offers Disable,
  // as the approved-ads list does.
  it('offers to disable an expired ad a report names, as a live one', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'a1', email: 'admin@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    server.use(
      http.get('/api/admin/get-reports', () =>
        apiJson('GET /api/admin/get-reports', { reports: [{ ...adReport, ad: { ...adReport.ad!, status: 'expired' } }], total: 1, page: 1, pageSize: 20 }),
      ),
    );
    renderAt(<Reports />, '/admin/dashboard/admin/reports');
    const row = (await screen.findByText('This advert looks wrong.')).closest('tr')!;
    expect(within(row).getByText('Expired')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Disable ad' })).toBeTruthy();
  });

  // As every other staff list: opening a reported ad's owner and coming back finds the same filters and page.
  it('keeps its filters when the screen is left and opened again', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'a1', email: 'admin@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const srv = reportsServer();
    const user = userEvent.setup();
    const first = renderAt(<Reports />, '/admin/dashboard/admin/reports');
    await screen.findByText('This advert looks wrong.');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'ad');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), '');
    await waitFor(() => expect(srv.queries.at(-1)).toBe('?page=1&pageSize=20&kind=ad'));
    first.unmount();

    renderAt(<Reports />, '/admin/dashboard/admin/reports');
    await screen.findByText('This advert looks wrong.');
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Kind' }).value).toBe('ad');
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Status' }).value).toBe('');
    await waitFor(() => expect(srv.queries.at(-1)).toBe('?page=1&pageSize=20&kind=ad'));
  });

  it('offers no action on the admin’s own ad, and says another admin handles its report', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'u7', email: 'owner@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    reportsServer();
    renderAt(<Reports />, '/admin/dashboard/admin/reports');
    const row = (await screen.findByText(/About your own ad: another admin handles it/)).closest('tr')!;
    expect(within(row).queryByRole('button', { name: 'Disable ad' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Place a legal hold' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Close with a note' })).toBeNull();
    expect(within(row).queryByText('This advert looks wrong.')).toBeNull();
    // A report about no ad of theirs they read and handle.
    const tipRow = screen.getByText('Looks underage.').closest('tr')!;
    expect(within(tipRow).getByRole('button', { name: 'Close with a note' })).toBeTruthy();
  });

  it('closing the only report of the last page shows the page before, not an empty list', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'a1', email: 'admin@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    let open: Report[] = Array.from({ length: 21 }, (_, i) => ({ ...tip, id: `r${i + 1}`, message: `Open report number ${i + 1}` }));
    const queries: string[] = [];
    server.use(
      http.get('/api/admin/get-reports', ({ request }) => {
        const q = new URL(request.url).searchParams;
        queries.push(q.toString());
        const page = Number(q.get('page'));
        return apiJson('GET /api/admin/get-reports', { reports: open.slice((page - 1) * 20, page * 20), total: open.length, page, pageSize: 20 });
      }),
      http.post('/api/admin/set-report-status', async ({ request }) => {
        const body = (await request.json()) as { id: string; status: Report['status'] };
        const report = { ...open.find((r) => r.id === body.id)!, status: body.status };
        open = open.filter((r) => r.id !== body.id);
        return apiJson('POST /api/admin/set-report-status', { report });
      }),
    );
    const user = userEvent.setup();
    renderAt(<Reports />, '/admin/dashboard/admin/reports');
    await screen.findByText('Open report number 1');
    await user.click(within(screen.getByRole('navigation', { name: 'Page 1 of 2' })).getByRole('button', { name: 'Next' }));
    const last = (await screen.findByText('Open report number 21')).closest('tr')!;
    await user.click(within(last).getByRole('button', { name: 'Close with a note' }));
    const close = screen.getByRole('dialog', { name: /^Close the report/ });
    await user.type(within(close).getByLabelText('Note (what was done; kept in the audit log)'), 'Passed to the police.');
    await user.click(within(close).getByRole('button', { name: 'Close the report' }));

    expect(await screen.findByText('Open report number 1')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(21); // the heading and the 20 open reports
    expect(screen.queryByText('No reports match these filters.')).toBeNull();
    expect(screen.getByText('Report r21 is now Closed.')).toBeTruthy();
    expect(queries.at(-1)).toBe('page=1&pageSize=20&status=open');
  });

  it('reopening a report in the list of closed ones reads the list again: it leaves it, and the count follows', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'a1', email: 'admin@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    let reports: Report[] = [{ ...tip, status: 'closed' }];
    const queries: string[] = [];
    server.use(
      http.get('/api/admin/get-reports', ({ request }) => {
        const q = new URL(request.url).searchParams;
        queries.push(q.toString());
        const shown = reports.filter((r) => !q.get('status') || r.status === q.get('status'));
        return apiJson('GET /api/admin/get-reports', { reports: shown, total: shown.length, page: Number(q.get('page')), pageSize: 20 });
      }),
      http.post('/api/admin/set-report-status', async ({ request }) => {
        const body = (await request.json()) as { id: string; status: Report['status'] };
        reports = reports.map((r) => (r.id === body.id ? { ...r, status: body.status } : r));
        return apiJson('POST /api/admin/set-report-status', { report: reports.find((r) => r.id === body.id)! });
      }),
    );
    const user = userEvent.setup();
    renderAt(<Reports />, '/admin/dashboard/admin/reports');
    expect(await screen.findByText('No reports match these filters.')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'closed');
    const row = (await screen.findByText('Looks underage.')).closest('tr')!;
    expect(screen.getByText('1 report')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Reopen' }));

    expect(await screen.findByText('Report r1 is now Open.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Looks underage.')).toBeNull());
    expect(screen.getByText('0 reports')).toBeTruthy();
    expect(screen.getByText('No reports match these filters.')).toBeTruthy();
    expect(queries.at(-1)).toBe('page=1&pageSize=20&status=closed');
    // Its Reopen button left with it: focus is on the outcome, not lost to the page's body.
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement?.textContent).toBe('Report r1 is now Open.');
  });

  it('keeps keyboard focus on the page when an action removes the button it came from (disable, close with a note)', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'a1', email: 'admin@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    reportsServer();
    const user = userEvent.setup();
    renderAt(<Reports />, '/admin/dashboard/admin/reports');
    const row = () => screen.getByText('This advert looks wrong.').closest('tr')!;
    await screen.findByText('This advert looks wrong.');

    await user.click(within(row()).getByRole('button', { name: 'Disable ad' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disable the ad' }));
    await waitFor(() => expect(within(row()).queryByRole('button', { name: 'Disable ad' })).toBeNull());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).not.toBe(document.body);

    await user.click(within(row()).getByRole('button', { name: 'Close with a note' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Note (what was done; kept in the audit log)'), 'Ad disabled, evidence kept.');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close the report' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByText('Report r2 is now Closed.');
    expect(document.activeElement).not.toBe(document.body);
  });
});
