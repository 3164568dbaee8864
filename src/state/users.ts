import { proxy } from 'valtio';
import { createResource, onReset } from './resource';
import { usersApi, type ManagedUser, type StaffRole, type UserListQuery } from '../api/users';

type UserStatus = ManagedUser['status'];

export const USERS_PAGE_SIZE = 20;
const firstPage = (): UserListQuery => ({ page: 1, pageSize: USERS_PAGE_SIZE, query: '' });

/** The seed's masterPendingUsers and masterApprovedUsers data areas, with the query each shows. */
export const pendingUsersStore = createResource((q: UserListQuery) => usersApi.pending(q));
export const approvedUsersStore = createResource((q: UserListQuery) => usersApi.approved(q));
export const usersQuery = proxy({ pending: firstPage(), approved: firstPage() });
onReset(() => {
  usersQuery.pending = firstPage();
  usersQuery.approved = firstPage();
});

// Approving the last user of the last page empties it: step back to the page that still has rows.
async function loadList<T extends { total: number }>(q: UserListQuery, load: (q: UserListQuery) => Promise<T | null>): Promise<T | null> {
  const out = await load({ ...q });
  const lastPage = out ? Math.max(1, Math.ceil(out.total / q.pageSize)) : q.page;
  if (out && q.page > lastPage) {
    q.page = lastPage;
    return load({ ...q });
  }
  return out;
}

export function loadPendingUsers(change: Partial<UserListQuery> = {}) {
  Object.assign(usersQuery.pending, change);
  return loadList(usersQuery.pending, pendingUsersStore.load);
}

export function loadApprovedUsers(change: Partial<UserListQuery> = {}) {
  Object.assign(usersQuery.approved, change);
  return loadList(usersQuery.approved, approvedUsersStore.load);
}

/** Approve or suspend a pending user; the list is read again so the user leaves it. */
export async function setPendingUserStatus(userId: string, status: UserStatus): Promise<void> {
  await usersApi.updateStatus({ userId, status });
  await loadPendingUsers();
}

export async function setApprovedUserStatus(userId: string, status: UserStatus): Promise<void> {
  await usersApi.updateStatus({ userId, status });
  await loadApprovedUsers();
}

// Every account is a provider; masters toggle only the staff roles, and the full set is sent.
export const STAFF_ROLES = ['ADMIN_USER', 'MASTER_USER'] as const satisfies readonly StaffRole[];

export function rolesWith(current: readonly StaffRole[], role: StaffRole, on: boolean): StaffRole[] {
  const staff = STAFF_ROLES.filter((r) => (r === role ? on : current.includes(r)));
  return ['PROVIDER_USER', ...staff];
}

export async function setUserRoles(userId: string, roles: StaffRole[]): Promise<void> {
  await usersApi.updateRoles({ userId, roles });
  await loadApprovedUsers();
}
