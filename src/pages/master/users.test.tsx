import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { managedUser as user } from '../../test/users';
import { sessionStore } from '../../state/session';
import type { ManagedUser } from '../../api/users';
import PendingUsers from './PendingUsers';
import ApprovedUsers from './ApprovedUsers';

describe('PendingUsers', () => {
  it('says it is loading in the page’s language while the list loads', async () => {
    server.use(http.get('/api/master/get-pending-users', () => new Promise<never>(() => {}))); // never answers
    await i18n.changeLanguage('es');
    renderAt(<PendingUsers />, '/es/admin/dashboard/master/pending-users');
    expect((await screen.findByRole('status')).textContent).toBe('Cargando...');
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('lists, searches, pages and approves or suspends', async () => {
    let pending = Array.from({ length: 25 }, (_, i) => user(i + 1));
    const queries: Record<string, string>[] = [];
    const updates: unknown[] = [];
    server.use(
      http.get('/api/master/get-pending-users', ({ request }) => {
        const q = Object.fromEntries(new URL(request.url).searchParams);
        queries.push(q);
        const list = pending.filter((u) => !q.query || u.email.includes(q.query));
        const page = Number(q.page);
        const size = Number(q.pageSize);
        return apiJson('GET /api/master/get-pending-users', { pendingUsers: list.slice((page - 1) * size, page * size), total: list.length });
      }),
      http.post('/api/master/update-user-status', async ({ request }) => {
        const body = (await request.json()) as { userId: string; status: ManagedUser['status'] };
        updates.push(body);
        const changed = { ...pending.find((u) => u.id === body.userId)!, status: body.status };
        pending = pending.filter((u) => u.id !== body.userId);
        return apiJson('POST /api/master/update-user-status', { user: changed });
      }),
    );
    const ue = userEvent.setup();
    renderAt(<PendingUsers />, '/admin/dashboard/master/pending-users');
    expect(await screen.findByText('user1@example.com')).toBeTruthy();
    expect(queries[0]).toEqual({ page: '1', pageSize: '20' });
    expect(screen.getByText('Page 1 of 2 (25 in all)')).toBeTruthy();

    await ue.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('user21@example.com')).toBeTruthy();

    await ue.type(screen.getByLabelText('Search by e-mail or nickname'), 'user2');
    await ue.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('user2@example.com')).toBeTruthy();
    expect(screen.queryByText('user21@example.com')).toBeTruthy();
    expect(queries.at(-1)).toEqual({ page: '1', pageSize: '20', query: 'user2' });

    // Each change is confirmed first, in a dialog naming the user and the change.
    await ue.click(screen.getByRole('button', { name: 'Approve user2@example.com' }));
    const approve = screen.getByRole('dialog', { name: 'Change user2@example.com (user2)?' });
    expect(within(approve).getByText('Status: Pending → Approved')).toBeTruthy();
    expect(updates).toEqual([]);
    await ue.click(within(approve).getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('status')).textContent).toBe('user2@example.com is approved.');
    await waitFor(() => expect(screen.queryByText('user2@example.com')).toBeNull());
    await ue.click(screen.getByRole('button', { name: 'Suspend user23@example.com' }));
    await ue.click(within(screen.getByRole('dialog', { name: 'Change user23@example.com (user23)?' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await ue.click(screen.getByRole('button', { name: 'Suspend user23@example.com' }));
    const suspend = screen.getByRole('dialog', { name: 'Change user23@example.com (user23)?' });
    expect(within(suspend).getByText('Status: Pending → Suspended')).toBeTruthy();
    await ue.click(within(suspend).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(screen.queryByText('user23@example.com')).toBeNull());
    expect(updates).toEqual([
      { userId: 'u2', status: 'approved', from: 'pending' },
      { userId: 'u23', status: 'suspended', from: 'pending' },
    ]);
  });
});

describe('PendingUsers paging', () => {
  it('steps back a page when the last user of the last page is approved', async () => {
    let pending = Array.from({ length: 21 }, (_, i) => user(i + 1));
    server.use(
      http.get('/api/master/get-pending-users', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return apiJson('GET /api/master/get-pending-users', { pendingUsers: pending.slice((page - 1) * 20, page * 20), total: pending.length });
      }),
      http.post('/api/master/update-user-status', async ({ request }) => {
        const { userId } = (await request.json()) as { userId: string };
        const changed = { ...pending.find((u) => u.id === userId)!, status: 'approved' as const };
        pending = pending.filter((u) => u.id !== userId);
        return apiJson('POST /api/master/update-user-status', { user: changed });
      }),
    );
    const ue = userEvent.setup();
    renderAt(<PendingUsers />, '/admin/dashboard/master/pending-users');
    await ue.click(await screen.findByRole('button', { name: 'Next' }));
    await ue.click(await screen.findByRole('button', { name: 'Approve user21@example.com' }));
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('user1@example.com')).toBeTruthy();
    expect(screen.queryByText('No user is waiting for approval.')).toBeNull();
  });

  it('approving a user keeps the dialog open until the user leaves the list, then puts focus on the page heading', async () => {
    let pending = [user(1), user(2)];
    server.use(
      http.get('/api/master/get-pending-users', () => apiJson('GET /api/master/get-pending-users', { pendingUsers: pending, total: pending.length })),
      http.post('/api/master/update-user-status', async ({ request }) => {
        const { userId } = (await request.json()) as { userId: string };
        const changed = { ...pending.find((u) => u.id === userId)!, status: 'approved' as const };
        pending = pending.filter((u) => u.id !== userId);
        return apiJson('POST /api/master/update-user-status', { user: changed });
      }),
    );
    const ue = userEvent.setup();
    renderAt(<PendingUsers />, '/admin/dashboard/master/pending-users');
    await ue.click(await screen.findByRole('button', { name: 'Approve user1@example.com' }));
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('status')).textContent).toBe('user1@example.com is approved.');
    await waitFor(() => expect(screen.queryByText('user1@example.com')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Pending users' }));
  });
});

describe('ApprovedUsers', () => {
  it('toggles staff roles, changes status, and surfaces refusals', async () => {
    sessionStore.session = { isAuthenticated: true, id: 'm1', email: 'boss@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'MASTER_USER'] };
    let users = [
      user(1, { id: 'm1', email: 'boss@example.com', status: 'approved', roles: ['PROVIDER_USER', 'MASTER_USER'] }),
      user(2, { status: 'approved' }),
    ];
    const roleCalls: unknown[] = [];
    const statusCalls: unknown[] = [];
    server.use(
      http.get('/api/master/get-approved-users', () => apiJson('GET /api/master/get-approved-users', { approvedUsers: users, total: users.length })),
      http.post('/api/master/update-user-roles', async ({ request }) => {
        const body = (await request.json()) as { userId: string; roles: ManagedUser['roles'] };
        roleCalls.push(body);
        if (body.userId === 'm1' && !body.roles.includes('MASTER_USER')) {
          return apiJson(
            'POST /api/master/update-user-roles',
            { message: 'You cannot remove your own MASTER_USER role.', code: 'master.cannot_remove_own_master' },
            409,
          );
        }
        users = users.map((u) => (u.id === body.userId ? { ...u, roles: body.roles } : u));
        return apiJson('POST /api/master/update-user-roles', { user: users.find((u) => u.id === body.userId)! });
      }),
      http.post('/api/master/update-user-status', async ({ request }) => {
        const body = (await request.json()) as { userId: string; status: ManagedUser['status'] };
        statusCalls.push(body);
        users = users.map((u) => (u.id === body.userId ? { ...u, status: body.status } : u));
        return apiJson('POST /api/master/update-user-status', { user: users.find((u) => u.id === body.userId)! });
      }),
    );
    const ue = userEvent.setup();
    renderAt(<ApprovedUsers />, '/admin/dashboard/master/approved-users');
    const row2 = (await screen.findByText('user2@example.com')).closest('tr')!;
    const save2 = within(row2).getByRole('button', { name: 'Save the changes for user2@example.com' }) as HTMLButtonElement;
    expect(save2.disabled).toBe(true); // nothing changed yet
    // Clicking a role or a status changes the row only: nothing is sent before an explicit save.
    await ue.click(within(row2).getByRole('checkbox', { name: 'Admin' }));
    await ue.selectOptions(within(row2).getByLabelText('Status of user2@example.com'), 'suspended');
    expect(within(row2).getByText('Not saved yet')).toBeTruthy();
    expect([roleCalls, statusCalls]).toEqual([[], []]);
    await ue.click(save2);
    const dialog = screen.getByRole('dialog', { name: 'Change user2@example.com (user2)?' });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Role added: Admin', 'Status: Approved → Suspended']);
    await ue.click(within(dialog).getByRole('button', { name: 'Save the changes' }));
    expect((await screen.findByRole('status')).textContent).toBe('The changes for user2@example.com have been saved.');
    expect(roleCalls).toEqual([{ userId: 'u2', roles: ['PROVIDER_USER', 'ADMIN_USER'], from: ['PROVIDER_USER'] }]);
    expect(statusCalls).toEqual([{ userId: 'u2', status: 'suspended', from: 'approved' }]);
    await waitFor(() => expect((within(row2).getByLabelText('Status of user2@example.com') as HTMLSelectElement).value).toBe('suspended'));
    expect((within(row2).getByRole('checkbox', { name: 'Admin' }) as HTMLInputElement).checked).toBe(true);
    expect(save2.disabled).toBe(true);

    // Undo puts a row back without sending anything.
    await ue.click(within(row2).getByRole('checkbox', { name: 'Master' }));
    await ue.click(within(row2).getByRole('button', { name: 'Undo the changes for user2@example.com' }));
    expect((within(row2).getByRole('checkbox', { name: 'Master' }) as HTMLInputElement).checked).toBe(false);

    const me = screen.getByText('boss@example.com').closest('tr')!;
    const master = within(me).getByRole('checkbox', { name: 'Master' }) as HTMLInputElement;
    await ue.click(master);
    await ue.click(within(me).getByRole('button', { name: 'Save the changes for boss@example.com' }));
    expect(within(screen.getByRole('dialog', { name: 'Change boss@example.com (user1)?' })).getByText('Role removed: Master')).toBeTruthy();
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save the changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You cannot remove your own MASTER_USER role.');
    await waitFor(() => expect(master.checked).toBe(true)); // the control shows what is stored again
  });
});
