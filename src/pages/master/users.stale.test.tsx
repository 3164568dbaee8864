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
import type { ManagedUser, StaffRole } from '../../api/users';
import PendingUsers from './PendingUsers';
import ApprovedUsers from './ApprovedUsers';

// Another master changes an account while this master's list still shows it as it was. The fake
// server answers as master.service.ts does: a change whose `from` is not the account as stored is
// refused (409 master.user_changed), one without `from` is applied whatever the account became.

const sameRoles = (a: readonly StaffRole[], b: readonly StaffRole[]) => [...a].sort().join() === [...b].sort().join();
const CHANGED = { message: 'This account changed meanwhile: the list shows it as it is now.', code: 'master.user_changed' };

/** The stored accounts, the two lists read from them, and the two changes as the server makes them. */
function mastersServer(initial: ManagedUser[]) {
  const db = { users: initial, reads: { pending: 0, approved: 0 } };
  const sent: { roles: unknown[]; status: unknown[] } = { roles: [], status: [] };
  const update = (id: string, change: Partial<ManagedUser>) => {
    db.users = db.users.map((u) => (u.id === id ? { ...u, ...change } : u));
    return db.users.find((u) => u.id === id)!;
  };
  server.use(
    http.get('/api/master/get-pending-users', () => {
      db.reads.pending++;
      const list = db.users.filter((u) => u.status === 'pending');
      return apiJson('GET /api/master/get-pending-users', { pendingUsers: list, total: list.length });
    }),
    http.get('/api/master/get-approved-users', () => {
      db.reads.approved++;
      const list = db.users.filter((u) => u.status !== 'pending');
      return apiJson('GET /api/master/get-approved-users', { approvedUsers: list, total: list.length });
    }),
    http.post('/api/master/update-user-status', async ({ request }) => {
      const body = (await request.json()) as { userId: string; status: ManagedUser['status']; from?: ManagedUser['status'] };
      sent.status.push(body);
      const now = db.users.find((u) => u.id === body.userId)!;
      if (body.from !== undefined && body.from !== now.status) return apiJson('POST /api/master/update-user-status', CHANGED, 409);
      return apiJson('POST /api/master/update-user-status', { user: update(body.userId, { status: body.status }) });
    }),
    http.post('/api/master/update-user-roles', async ({ request }) => {
      const body = (await request.json()) as { userId: string; roles: StaffRole[]; from?: StaffRole[] };
      sent.roles.push(body);
      const now = db.users.find((u) => u.id === body.userId)!;
      if (body.from !== undefined && !sameRoles(body.from, now.roles)) return apiJson('POST /api/master/update-user-roles', CHANGED, 409);
      return apiJson('POST /api/master/update-user-roles', { user: update(body.userId, { roles: body.roles }) });
    }),
  );
  return { db, sent, update };
}

const signInAsMaster = () => {
  sessionStore.session = { isAuthenticated: true, id: 'm1', email: 'boss@example.com', userStatus: 'approved', userRoles: ['PROVIDER_USER', 'MASTER_USER'] };
};

describe('PendingUsers, when another master changed the account meanwhile', () => {
  it('approving a user another master suspended is refused: the message shows and the list is read again', async () => {
    const s = mastersServer([user(1), user(2)]);
    const ue = userEvent.setup();
    renderAt(<PendingUsers />, '/admin/dashboard/master/pending-users');
    await ue.click(await screen.findByRole('button', { name: 'Approve user1@example.com' }));
    s.update('u1', { status: 'suspended' }); // another master, while this one reads the dialog
    const readsBefore = s.db.reads.pending;
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve' }));

    expect((await screen.findByRole('alert')).textContent).toBe('This account changed meanwhile: the list shows it as it is now.');
    expect(s.sent.status).toEqual([{ userId: 'u1', status: 'approved', from: 'pending' }]);
    expect(s.db.users.find((u) => u.id === 'u1')!.status).toBe('suspended');
    await waitFor(() => expect(screen.queryByText('user1@example.com')).toBeNull()); // it left the pending list
    expect(s.db.reads.pending).toBe(readsBefore + 1);
    expect(screen.getByText('user2@example.com')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText('user1@example.com is approved.')).toBeNull();
  });

  it('says so in the page’s language', async () => {
    const s = mastersServer([user(1)]);
    await i18n.changeLanguage('es');
    const ue = userEvent.setup();
    renderAt(<PendingUsers />, '/es/admin/dashboard/master/pending-users');
    await ue.click(await screen.findByRole('button', { name: 'Suspender a user1@example.com' }));
    s.update('u1', { status: 'approved' }); // another master approved them
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Suspender' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Esta cuenta cambió mientras tanto: la lista la muestra como está ahora.');
    expect(s.sent.status).toEqual([{ userId: 'u1', status: 'suspended', from: 'pending' }]);
    expect(s.db.users[0].status).toBe('approved');
  });
});

describe('ApprovedUsers, when another master changed the account meanwhile', () => {
  it('a role toggled on a row another master changed does not give back the role they removed', async () => {
    signInAsMaster();
    const s = mastersServer([
      user(1, { id: 'm1', email: 'boss@example.com', status: 'approved', roles: ['PROVIDER_USER', 'MASTER_USER'] }),
      user(2, { status: 'approved', roles: ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'] }),
    ]);
    const ue = userEvent.setup();
    renderAt(<ApprovedUsers />, '/admin/dashboard/master/approved-users');
    const row2 = (await screen.findByText('user2@example.com')).closest('tr')!;
    s.update('u2', { roles: ['PROVIDER_USER', 'ADMIN_USER'] }); // another master removes Master
    await ue.click(within(row2).getByRole('checkbox', { name: 'Admin' }));
    await ue.click(within(row2).getByRole('button', { name: 'Save the changes for user2@example.com' }));
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save the changes' }));

    expect((await screen.findByRole('alert')).textContent).toBe('This account changed meanwhile: the list shows it as it is now.');
    expect(s.sent.roles).toEqual([{ userId: 'u2', roles: ['PROVIDER_USER', 'MASTER_USER'], from: ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'] }]);
    expect(s.db.users[1].roles).toEqual(['PROVIDER_USER', 'ADMIN_USER']);
    // The row shows the account as it is now, with no change pending.
    await waitFor(() => expect((within(row2).getByRole('checkbox', { name: 'Master' }) as HTMLInputElement).checked).toBe(false));
    expect((within(row2).getByRole('checkbox', { name: 'Admin' }) as HTMLInputElement).checked).toBe(true);
    expect(within(row2).queryByText('Not saved yet')).toBeNull();
  });

  it('a status changed on a row another master changed is refused, and the row shows the status now stored', async () => {
    signInAsMaster();
    const s = mastersServer([
      user(1, { id: 'm1', email: 'boss@example.com', status: 'approved', roles: ['PROVIDER_USER', 'MASTER_USER'] }),
      user(2, { status: 'suspended' }),
    ]);
    const ue = userEvent.setup();
    renderAt(<ApprovedUsers />, '/admin/dashboard/master/approved-users');
    const row2 = (await screen.findByText('user2@example.com')).closest('tr')!;
    await ue.selectOptions(within(row2).getByLabelText('Status of user2@example.com'), 'approved');
    s.update('u2', { status: 'approved', roles: ['PROVIDER_USER', 'ADMIN_USER'] }); // another master reinstated them, as an admin
    await ue.click(within(row2).getByRole('button', { name: 'Save the changes for user2@example.com' }));
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save the changes' }));

    expect((await screen.findByRole('alert')).textContent).toBe('This account changed meanwhile: the list shows it as it is now.');
    expect(s.sent.status).toEqual([{ userId: 'u2', status: 'approved', from: 'suspended' }]);
    expect(s.sent.roles).toEqual([]);
    await waitFor(() => expect((within(row2).getByRole('checkbox', { name: 'Admin' }) as HTMLInputElement).checked).toBe(true));
    expect((within(row2).getByLabelText('Status of user2@example.com') as HTMLSelectElement).value).toBe('approved');
  });

  it('a change begun before the list was read again is sent against the row it was begun on', async () => {
    signInAsMaster();
    const s = mastersServer([
      user(1, { id: 'm1', email: 'boss@example.com', status: 'approved', roles: ['PROVIDER_USER', 'MASTER_USER'] }),
      user(2, { status: 'approved', roles: ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'] }),
      user(3, { status: 'approved' }),
    ]);
    const ue = userEvent.setup();
    renderAt(<ApprovedUsers />, '/admin/dashboard/master/approved-users');
    const row2 = (await screen.findByText('user2@example.com')).closest('tr')!;
    const row3 = screen.getByText('user3@example.com').closest('tr')!;
    await ue.click(within(row2).getByRole('checkbox', { name: 'Admin' })); // drafted on [provider, admin, master]
    s.update('u2', { roles: ['PROVIDER_USER', 'ADMIN_USER'] }); // another master removes Master
    // Saving another row reads the list again: row 2 now shows the new roles, its draft stays.
    await ue.click(within(row3).getByRole('checkbox', { name: 'Admin' }));
    await ue.click(within(row3).getByRole('button', { name: 'Save the changes for user3@example.com' }));
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save the changes' }));
    expect((await screen.findByRole('status')).textContent).toBe('The changes for user3@example.com have been saved.');

    await ue.click(within(row2).getByRole('button', { name: 'Save the changes for user2@example.com' }));
    await ue.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save the changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This account changed meanwhile: the list shows it as it is now.');
    expect(s.sent.roles.at(-1)).toEqual({ userId: 'u2', roles: ['PROVIDER_USER', 'MASTER_USER'], from: ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'] });
    expect(s.db.users[1].roles).toEqual(['PROVIDER_USER', 'ADMIN_USER']);
  });
});
