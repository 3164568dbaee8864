import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { makeStaffAd } from '../../components/market/testing';
import { sessionStore } from '../../state/session';
import type { StaffAd } from '../../api/ads';
import ApprovedAds from './ApprovedAds';

/**
 * The approved-ads routes over `initial`; a status change sets the named ads' status, skipping (as
 * the server does: setStaffStatus) one not in a status it changes from, and one changed since the
 * version `seen` names. Returns the bodies posted, and `change`: another staff member changes an
 * ad meanwhile.
 */
function approvedServer(initial: StaffAd[]) {
  let ads = [...initial];
  const calls: unknown[] = [];
  server.use(
    http.get('/api/admin/get-approved-ads', () => apiJson('GET /api/admin/get-approved-ads', { approvedAds: ads, total: ads.length, page: 1, pageSize: 20 })),
    http.post('/api/admin/set-status-approved-ads', async ({ request }) => {
      const body = (await request.json()) as { adIds: string[]; status: StaffAd['status']; seen?: { id: string; updatedAt: string }[] };
      calls.push(body);
      const changed = (id: string) => body.seen?.some((s) => s.id === id && s.updatedAt !== ads.find((a) => a.id === id)?.updatedAt) ?? false;
      const from = body.status === 'disabled' ? ['approved', 'expired'] : ['disabled'];
      const done = body.adIds.filter((id) => !changed(id) && from.includes(ads.find((a) => a.id === id)?.status ?? ''));
      ads = ads.map((a) => (done.includes(a.id) ? { ...a, status: body.status } : a));
      return apiJson('POST /api/admin/set-status-approved-ads', { updated: done.length });
    }),
  );
  const change = (id: string, patch: Partial<StaffAd>) => {
    ads = ads.map((a) => (a.id === id ? { ...a, ...patch } : a));
  };
  return { calls, change };
}
const seen = (...ads: StaffAd[]) => ads.map((a) => ({ id: a.id, updatedAt: a.updatedAt }));

describe('admin approved ads', () => {
  it('disables another provider’s ad and offers nothing on the admin’s own', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const ads = [
      makeStaffAd({ status: 'approved', title: 'My own live ad', ownerId: 'me' }),
      makeStaffAd({ status: 'approved', title: 'A provider’s live ad', ownerId: 'u2' }),
    ];
    const { calls } = approvedServer(ads);
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');

    const own = (await screen.findByRole('link', { name: 'My own live ad' })).closest('tr')!;
    expect(within(own).getByText('Your own ad: another admin moderates it.')).toBeTruthy();
    expect(within(own).queryByRole('button')).toBeNull();
    expect(within(own).getByRole<HTMLInputElement>('checkbox').disabled).toBe(true);

    const theirs = screen.getByRole('link', { name: 'A provider’s live ad' }).closest('tr')!;
    expect(within(theirs).getByRole('link', { name: `Owner’s page: ${ads[1].owner.email}` }).textContent).toBe('Owner’s page');
    await user.click(within(theirs).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls).toEqual([{ adIds: [ads[1].id], status: 'disabled', seen: seen(ads[1]) }]));
  });

  // The table is named after the page's heading, and the count is a live region (always present): the
  // outcome of a search or a filter is announced.
  it('names its table and announces how many ads the list holds', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    approvedServer([makeStaffAd({ status: 'approved', title: 'A provider’s live ad', ownerId: 'u2' })]);
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    await screen.findByRole('link', { name: 'A provider’s live ad' });
    expect(screen.getByRole('table', { name: 'Approved ads' })).toBeTruthy();
    expect(screen.getByText('1 in total').getAttribute('aria-live')).toBe('polite');
  });

  it('offers Disable on an expired ad as on a live one, and Enable on a disabled one', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const ads = [
      makeStaffAd({ status: 'expired', title: 'A reported ad that ran out', ownerId: 'u2' }),
      makeStaffAd({ status: 'disabled', title: 'An ad taken down', ownerId: 'u3' }),
    ];
    const { calls } = approvedServer(ads);
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');

    const expired = (await screen.findByRole('link', { name: 'A reported ad that ran out' })).closest('tr')!;
    const disabled = screen.getByRole('link', { name: 'An ad taken down' }).closest('tr')!;
    expect(
      within(disabled)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Enable']);
    expect(
      within(expired)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Disable']);
    await user.click(within(expired).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls).toEqual([{ adIds: [ads[0].id], status: 'disabled', seen: seen(ads[0]) }]));
  });

  // Disabling the selection hides many live, paid ads and e-mails every owner: it asks first, and
  // nothing is sent until confirmed.
  it('asks before disabling the selected ads, saying their owners are e-mailed', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const ads = [
      makeStaffAd({ status: 'approved', title: 'A provider’s live ad', ownerId: 'u2' }),
      makeStaffAd({ status: 'approved', title: 'Another live ad', ownerId: 'u3' }),
    ];
    const { calls } = approvedServer(ads);
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    await screen.findByRole('link', { name: 'A provider’s live ad' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    const bulk = screen.getByRole('button', { name: 'Disable selected (2)' });

    await user.click(bulk);
    const dialog = screen.getByRole('dialog', { name: 'Disable 2 selected ads?' });
    expect(within(dialog).getByText(/every owner is e-mailed that their ad was disabled/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls).toEqual([]);
    expect(document.activeElement).toBe(bulk);

    await user.click(bulk);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disable 2 ads' }));
    expect(await screen.findByText('2 ads disabled.')).toBeTruthy();
    expect(calls).toEqual([{ adIds: [ads[0].id, ads[1].id], status: 'disabled', seen: seen(ads[0], ads[1]) }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('status'));
  });

  // Another staff member enabled the ad and a master took it down again since this list was read:
  // Enable names the version shown, the server leaves the newer takedown in force, and the page says so.
  it('enables only the version shown: an ad changed meanwhile is left as it is, the page says so and shows it as it is now', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const ad = makeStaffAd({ status: 'disabled', title: 'Taken down as spam', ownerId: 'u2', updatedAt: '2025-01-05T10:00:00.000Z' });
    const { calls, change } = approvedServer([ad]);
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    const row = (await screen.findByRole('link', { name: 'Taken down as spam' })).closest('tr')!;
    change(ad.id, { title: 'Taken down after a tip', updatedAt: '2025-01-05T10:07:00.000Z' });
    await user.click(within(row).getByRole('button', { name: 'Enable' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      "0 ads enabled. 1 of them was not changed: it changed meanwhile (another staff member's decision, its owner's change or its expiry). The list shows it as it is now.",
    );
    expect(calls).toEqual([{ adIds: [ad.id], status: 'approved', seen: [{ id: ad.id, updatedAt: '2025-01-05T10:00:00.000Z' }] }]);
    expect(await screen.findByRole('link', { name: 'Taken down after a tip' })).toBeTruthy();
  });

  // With "All" statuses listed, a selection mixes ads the action changes with ones already in its
  // status: those are not sent, and the outcome does not claim that they "changed meanwhile".
  it('disables only the selected ads it can change: one already disabled is neither sent nor said to have changed meanwhile', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const ads = [
      makeStaffAd({ status: 'approved', title: 'A live ad reported twice', ownerId: 'u2' }),
      makeStaffAd({ status: 'disabled', title: 'An ad taken down last week', ownerId: 'u3' }),
      makeStaffAd({ status: 'expired', title: 'A reported ad that ran out', ownerId: 'u4' }),
    ];
    const { calls } = approvedServer(ads);
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    await screen.findByRole('link', { name: 'A live ad reported twice' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(screen.getByRole('button', { name: 'Disable selected (3)' }));
    await user.click(await screen.findByRole('button', { name: 'Disable 3 ads' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('2 ads disabled.'));
    expect(calls).toEqual([{ adIds: [ads[0].id, ads[2].id], status: 'disabled', seen: seen(ads[0], ads[2]) }]);
  });

  it('enables only the selected disabled ads; one changed meanwhile is still counted as such', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const ads = [
      makeStaffAd({ status: 'disabled', title: 'Taken down by mistake', ownerId: 'u2' }),
      makeStaffAd({ status: 'disabled', title: 'Taken down as spam', ownerId: 'u3', updatedAt: '2025-01-05T10:00:00.000Z' }),
      makeStaffAd({ status: 'approved', title: 'A live ad', ownerId: 'u4' }),
    ];
    const { calls, change } = approvedServer(ads);
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    await screen.findByRole('link', { name: 'A live ad' });
    change(ads[1].id, { updatedAt: '2025-01-05T10:07:00.000Z' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(screen.getByRole('button', { name: 'Enable selected (3)' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      "1 ad enabled. 1 of them was not changed: it changed meanwhile (another staff member's decision, its owner's change or its expiry). The list shows it as it is now.",
    );
    expect(calls).toEqual([{ adIds: [ads[0].id, ads[1].id], status: 'approved', seen: seen(ads[0], ads[1]) }]);
  });

  it('sends nothing when no selected ad is in a status the action changes, and says none was changed', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const ads = [makeStaffAd({ status: 'approved', title: 'A live ad', ownerId: 'u2' })];
    const { calls } = approvedServer(ads);
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    await screen.findByRole('link', { name: 'A live ad' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(screen.getByRole('button', { name: 'Enable selected (1)' }));
    expect((await screen.findByRole('status')).textContent).toBe('0 ads enabled.');
    expect(document.activeElement).toBe(screen.getByRole('status'));
    expect(calls).toEqual([]);
  });

  it('forgets the selection on another page: “Disable selected” never acts on ads that are not shown', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const ads = Array.from({ length: 21 }, (_, i) => makeStaffAd({ status: 'approved', title: `Live ad number ${i + 1}`, ownerId: 'u2' }));
    server.use(
      http.get('/api/admin/get-approved-ads', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return apiJson('GET /api/admin/get-approved-ads', { approvedAds: ads.slice((page - 1) * 20, page * 20), total: ads.length, page, pageSize: 20 });
      }),
    );
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    await screen.findByRole('link', { name: 'Live ad number 1' });
    await user.click(screen.getByRole('checkbox', { name: 'Select “Live ad number 1”' }));
    expect(screen.getByRole('button', { name: 'Disable selected (1)' })).toBeTruthy();

    await user.click(within(screen.getByRole('navigation', { name: /pag/i })).getByRole('link', { name: 'Page 2' }));
    await screen.findByRole('link', { name: 'Live ad number 21' });
    expect(screen.getByRole('button', { name: 'Disable selected (0)' }).getAttribute('aria-disabled')).toBe('true'); // refused, yet focusable
    expect(screen.getByRole('button', { name: 'Enable selected (0)' }).getAttribute('aria-disabled')).toBe('true'); // refused, yet focusable
  });

  it('keeps keyboard focus on the page when a disabled ad leaves the list filtered to approved ones: the outcome takes it', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    let ads = [
      makeStaffAd({ status: 'approved', title: 'A live ad to take down', ownerId: 'u2' }),
      makeStaffAd({ status: 'approved', title: 'Another live ad', ownerId: 'u3' }),
    ];
    server.use(
      http.get('/api/admin/get-approved-ads', ({ request }) => {
        const status = new URL(request.url).searchParams.get('status');
        const shown = ads.filter((a) => !status || a.status === status);
        return apiJson('GET /api/admin/get-approved-ads', { approvedAds: shown, total: shown.length, page: 1, pageSize: 20 });
      }),
      http.post('/api/admin/set-status-approved-ads', async ({ request }) => {
        const body = (await request.json()) as { adIds: string[]; status: 'approved' | 'disabled' };
        ads = ads.map((a) => (body.adIds.includes(a.id) ? { ...a, status: body.status } : a));
        return apiJson('POST /api/admin/set-status-approved-ads', { updated: body.adIds.length });
      }),
    );
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    await screen.findByRole('link', { name: 'A live ad to take down' });
    await user.selectOptions(screen.getByLabelText('Status'), 'approved');
    const row = (await screen.findByRole('link', { name: 'A live ad to take down' })).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Disable' }));
    const status = await screen.findByRole('status');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'A live ad to take down' })).toBeNull());
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement).toBe(status);
  });

  it('leaves focus on the row’s button when the ad stays in the list (no filter): it now offers Enable', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    approvedServer([makeStaffAd({ status: 'approved', title: 'A live ad to take down', ownerId: 'u2' })]);
    const user = userEvent.setup();
    renderAt(<ApprovedAds />, '/admin/dashboard/admin/approved-ads');
    const row = (await screen.findByRole('link', { name: 'A live ad to take down' })).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Disable' }));
    await screen.findByRole('status');
    expect(await within(row).findByRole('button', { name: 'Enable' })).toBe(document.activeElement);
  });
});
