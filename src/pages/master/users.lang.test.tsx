import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { managedUser as user } from '../../test/users';
import PendingUsers from './PendingUsers';

// A row's outcome (useRowAction) is kept unworded and worded at each render: a master who switches
// the page's language after an action reads its outcome in the new language, not the old one.
describe('PendingUsers after a language switch', () => {
  it('words a refusal (409 master.user_changed) and a success again in Spanish', async () => {
    let users = [user(1), user(2)];
    let refuse = true;
    server.use(
      http.get('/api/master/get-pending-users', () => apiJson('GET /api/master/get-pending-users', { pendingUsers: users, total: users.length })),
      http.post('/api/master/update-user-status', async ({ request }) => {
        const body = (await request.json()) as { userId: string };
        if (refuse) {
          return apiJson(
            'POST /api/master/update-user-status',
            { message: 'This account changed meanwhile: the list shows it as it is now.', code: 'master.user_changed' },
            409,
          );
        }
        const done = users.find((u) => u.id === body.userId)!;
        users = users.filter((u) => u.id !== body.userId);
        return apiJson('POST /api/master/update-user-status', { user: { ...done, status: 'approved' } });
      }),
    );
    const ue = userEvent.setup();
    renderAt(<PendingUsers />, '/admin/dashboard/master/pending-users');

    const row1 = (await screen.findByText('user1@example.com')).closest('tr')!;
    await ue.click(within(row1).getByRole('button', { name: 'Approve user1@example.com' }));
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This account changed meanwhile: the list shows it as it is now.');
    await act(() => i18n.changeLanguage('es'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Esta cuenta cambió mientras tanto: la lista la muestra como está ahora.'));
    await act(() => i18n.changeLanguage('en'));

    refuse = false;
    const row2 = screen.getByText('user2@example.com').closest('tr')!;
    await ue.click(within(row2).getByRole('button', { name: 'Approve user2@example.com' }));
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.getByText('user2@example.com is approved.').getAttribute('role')).toBe('status'));
    await act(() => i18n.changeLanguage('es'));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('user2@example.com ha sido aprobado.'));
  });
});
