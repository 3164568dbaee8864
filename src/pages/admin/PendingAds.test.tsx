import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { makeStaffAd } from '../../components/market/testing';
import type { StaffAd } from '../../api/ads';
import { sessionStore } from '../../state/session';
import PendingAds from './PendingAds';

function pendingServer(initial: StaffAd[], unpaid: StaffAd[] = []) {
  let list = [...initial];
  const decisions: unknown[] = [];
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('/api/admin/get-pending-ads', ({ request }) => {
      const q = new URL(request.url).searchParams;
      queries.push(q);
      const ads = q.get('includeUnpaid') === 'true' ? [...list, ...unpaid] : list;
      return apiJson('GET /api/admin/get-pending-ads', { pendingAds: ads, total: ads.length, page: 1, pageSize: 20 });
    }),
    http.post('/api/admin/approve-pending-ads', async ({ request }) => {
      const body = (await request.json()) as { adIds: string[] };
      decisions.push(body);
      list = list.filter((a) => !body.adIds.includes(a.id));
      return apiJson('POST /api/admin/approve-pending-ads', { updated: body.adIds.length });
    }),
  );
  return { decisions, queries };
}

describe('admin pending ads', () => {
  it('approves one ad, and rejects the selected ones with the reason the owner will see', async () => {
    const [a, b, c] = [
      makeStaffAd({ status: 'in_review', title: 'First ad in review', ownerId: 'u1', priceCents: 1500 }),
      makeStaffAd({ status: 'in_review', title: 'Second ad in review' }),
      makeStaffAd({ status: 'in_review', title: 'Third ad in review' }),
    ];
    const srv = pendingServer([a, b, c]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');

    const first = await screen.findByRole('listitem', { name: 'First ad in review' });
    expect(within(first).getByText(/\$15\.00/)).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'Open photo 1' }).getAttribute('href')).toBe(a.photos[0].url);
    await user.click(within(first).getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('status')).textContent).toBe('1 ad approved.');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'First ad in review' })).toBeNull());

    await user.click(screen.getByRole('checkbox', { name: 'Select “Second ad in review”' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select “Third ad in review”' }));
    await user.click(screen.getByRole('button', { name: 'Reject selected (2)' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject 2 ads' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject and refund' }));
    expect(within(dialog).getByText('Between 3 and 500 characters.').className).toBe('field-error'); // an empty reason is refused
    await user.type(within(dialog).getByLabelText('Reason (the owner sees it)'), 'Photos do not match the description');
    await user.click(within(dialog).getByRole('button', { name: 'Reject and refund' }));

    expect((await screen.findByRole('status')).textContent).toBe('2 ads rejected and refunded.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(srv.decisions).toEqual([
      { adIds: [a.id], decision: 'approve' },
      { adIds: [b.id, c.id], decision: 'reject', reason: 'Photos do not match the description' },
    ]);
    expect(screen.getByText('No ads are waiting for review.')).toBeTruthy();
  });

  it('shows unpaid ads only when asked to', async () => {
    const srv = pendingServer([makeStaffAd({ status: 'in_review', title: 'Paid and waiting' })], [makeStaffAd({ status: 'unpaid', title: 'Still in a cart' })]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');
    await screen.findByRole('listitem', { name: 'Paid and waiting' });
    expect(screen.queryByRole('listitem', { name: 'Still in a cart' })).toBeNull();
    expect(srv.queries[0].get('includeUnpaid')).toBe('false');
    await user.click(screen.getByRole('checkbox', { name: 'Include unpaid ads' }));
    const unpaid = await screen.findByRole('listitem', { name: 'Still in a cart' });
    expect(within(unpaid).getByText('Unpaid')).toBeTruthy();
    expect(srv.queries.at(-1)!.get('includeUnpaid')).toBe('true');
  });

  it('offers no decision on the admin’s own ad, and leaves it out of “select all”', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'me', email: 'ann@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'ADMIN_USER'] };
    const mine = makeStaffAd({ status: 'in_review', title: 'My own ad in review', ownerId: 'me' });
    const theirs = makeStaffAd({ status: 'in_review', title: 'Someone else’s ad', ownerId: 'u2' });
    const srv = pendingServer([mine, theirs]);
    const user = userEvent.setup();
    renderAt(<PendingAds />, '/admin/dashboard/admin/pending-ads');

    const own = await screen.findByRole('listitem', { name: 'My own ad in review' });
    expect(within(own).getByText('Your own ad: another admin reviews it.')).toBeTruthy();
    expect(within(own).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(own).getByRole<HTMLInputElement>('checkbox', { name: 'Select “My own ad in review”' }).disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(screen.getByRole('button', { name: 'Approve selected (1)' }));
    await screen.findByRole('status');
    expect(srv.decisions).toEqual([{ adIds: [theirs.id], decision: 'approve' }]);
  });
});
