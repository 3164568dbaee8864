import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { managedUser } from '../../test/users';
import PendingUsers from './PendingUsers';

describe('master pending users: search', () => {
  // The outcome of a search is a status message (WCAG 4.1.3's own example, "N results returned"),
  // in a polite live region present from the start: a screen-reader user who pressed Search hears how many
  // matched, or that none did, even when the results fit one page (and the Pager is gone).
  it('announces how many users match the search, or that none does', async () => {
    const pending = Array.from({ length: 25 }, (_, i) => managedUser(i + 1));
    server.use(
      http.get('/api/master/get-pending-users', ({ request }) => {
        const q = Object.fromEntries(new URL(request.url).searchParams);
        const list = pending.filter((u) => !q.query || u.email.includes(q.query));
        const page = Number(q.page);
        const size = Number(q.pageSize);
        return apiJson('GET /api/master/get-pending-users', { pendingUsers: list.slice((page - 1) * size, page * size), total: list.length });
      }),
    );
    const user = userEvent.setup();
    const view = renderAt(<PendingUsers />, '/admin/dashboard/master/pending-users');
    await screen.findByText('user1@example.com');
    const status = view.container.querySelector('p[aria-live="polite"]')!;
    expect(status.textContent).toBe('');
    const search = screen.getByRole('searchbox', { name: 'Search by e-mail or nickname' });
    await user.type(search, 'user2');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(status.textContent).toBe('7 users match this search.'));
    await user.clear(search);
    await user.type(search, 'nobody');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(status.textContent).toBe('No user matches this search.'));
    expect(screen.getByText('No user matches this search.')).toBe(status);
  });
});
