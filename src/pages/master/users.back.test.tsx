import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { managedUser as user } from '../../test/users';
import PendingUsers from './PendingUsers';
import ApprovedUsers from './ApprovedUsers';

// A master searches a list, opens a user (the list screen unmounts) and comes back: the list is
// read with the search its box still shows, not every user under a box naming one.
const everyone = Array.from({ length: 3 }, (_, i) => user(i + 1, { status: 'approved' }));
const matching = (q: Record<string, string>) => everyone.filter((u) => !q.query || u.email.includes(q.query));

describe('master lists after going back', () => {
  it('approved users: the list shown is the search the box shows', async () => {
    const queries: Record<string, string>[] = [];
    server.use(
      http.get('/api/master/get-approved-users', ({ request }) => {
        const q = Object.fromEntries(new URL(request.url).searchParams);
        queries.push(q);
        const list = matching(q);
        return apiJson('GET /api/master/get-approved-users', { approvedUsers: list, total: list.length });
      }),
    );
    const ue = userEvent.setup();
    const first = renderAt(<ApprovedUsers />, '/admin/dashboard/master/approved-users');
    await screen.findByText('user3@example.com');
    await ue.type(screen.getByLabelText('Search by e-mail or nickname'), 'user2@');
    await ue.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('Approved users (1)');
    first.unmount(); // the user screen opens

    renderAt(<ApprovedUsers />, '/admin/dashboard/master/approved-users'); // Back
    await screen.findByText('user2@example.com');
    expect((screen.getByLabelText('Search by e-mail or nickname') as HTMLInputElement).value).toBe('user2@');
    expect(queries.at(-1)).toEqual({ page: '1', pageSize: '20', query: 'user2@' });
    expect(screen.queryByText('user3@example.com')).toBeNull();
  });

  it('pending users: the list shown is the search the box shows', async () => {
    const queries: Record<string, string>[] = [];
    server.use(
      http.get('/api/master/get-pending-users', ({ request }) => {
        const q = Object.fromEntries(new URL(request.url).searchParams);
        queries.push(q);
        const list = matching(q).map((u) => ({ ...u, status: 'pending' as const }));
        return apiJson('GET /api/master/get-pending-users', { pendingUsers: list, total: list.length });
      }),
    );
    const ue = userEvent.setup();
    const first = renderAt(<PendingUsers />, '/admin/dashboard/master/pending-users');
    await screen.findByText('user3@example.com');
    await ue.type(screen.getByLabelText('Search by e-mail or nickname'), 'user2@');
    await ue.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('1 user matches this search.');
    first.unmount();

    renderAt(<PendingUsers />, '/admin/dashboard/master/pending-users');
    await screen.findByText('user2@example.com');
    expect((screen.getByLabelText('Search by e-mail or nickname') as HTMLInputElement).value).toBe('user2@');
    expect(queries.at(-1)).toEqual({ page: '1', pageSize: '20', query: 'user2@' });
    expect(screen.queryByText('user3@example.com')).toBeNull();
  });
});
