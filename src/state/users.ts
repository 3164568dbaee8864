import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { readWithinPages } from './paging';
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
function loadList<T extends { total: number }>(q: UserListQuery, load: (q: UserListQuery) => Promise<T | null>): Promise<T | null> {
  return readWithinPages(q, q.pageSize, () => load({ ...q }));
}

export function loadPendingUsers(change: Partial<UserListQuery> = {}) {
  Object.assign(usersQuery.pending, change);
  return loadList(usersQuery.pending, pendingUsersStore.load);
}

export function loadApprovedUsers(change: Partial<UserListQuery> = {}) {
  Object.assign(usersQuery.approved, change);
  return loadList(usersQuery.approved, approvedUsersStore.load);
}

/**
 * Approve or suspend a pending user, as the row showed them (`from`: changed meanwhile by another
 * master, the server refuses, 409 master.user_changed). The list is read again either way, so the
 * user leaves it, or shows as they are now.
 */
export async function setPendingUserStatus(user: ManagedUser, status: UserStatus): Promise<void> {
  const unchanged = sessionCheck();
  try {
    await usersApi.updateStatus({ userId: user.id, status, from: user.status });
  } finally {
    if (unchanged()) await loadPendingUsers();
  }
}

// Every account is a provider; masters toggle only the staff roles, and the full set is sent.
export const STAFF_ROLES = ['ADMIN_USER', 'MASTER_USER'] as const satisfies readonly StaffRole[];

export function rolesWith(current: readonly StaffRole[], role: StaffRole, on: boolean): StaffRole[] {
  const staff = STAFF_ROLES.filter((r) => (r === role ? on : current.includes(r)));
  return ['PROVIDER_USER', ...staff];
}

/**
 * Saves what a master changed on a row (confirmed first): the roles, then the status, each with
 * what the row showed (`from`), so a row another master changed meanwhile undoes nothing (409
 * master.user_changed); the list is read again, so it shows what is stored whether or not the
 * server accepted both.
 */
export async function saveUserChanges(user: ManagedUser, change: { roles?: StaffRole[]; status?: UserStatus }): Promise<void> {
  const unchanged = sessionCheck();
  try {
    if (change.roles) await usersApi.updateRoles({ userId: user.id, roles: change.roles, from: [...user.roles] });
    if (change.status) await usersApi.updateStatus({ userId: user.id, status: change.status, from: user.status });
  } finally {
    if (unchanged()) await loadApprovedUsers();
  }
}
