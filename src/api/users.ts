import { api } from './client';
import type { Role } from './session';
import type { UserStatus } from './profile';

export interface ManagedUser {
  id: string;
  email: string;
  nickname: string;
  status: UserStatus;
  roles: Role[];
  createdAt: string;
}

export interface UserListQuery {
  page: number;
  pageSize: number;
  query: string;
}

function params(q: UserListQuery): Record<string, string | number> {
  const p: Record<string, string | number> = { page: q.page, pageSize: q.pageSize };
  if (q.query.trim()) p.query = q.query.trim();
  return p;
}

/** The master's user administration (/api/master, MASTER_USER only). */
export const usersApi = {
  pending: (q: UserListQuery) => api.get<{ pendingUsers: ManagedUser[]; total: number }>('master/get-pending-users', { searchParams: params(q) }),
  approved: (q: UserListQuery) => api.get<{ approvedUsers: ManagedUser[]; total: number }>('master/get-approved-users', { searchParams: params(q) }),
  updateRoles: (userId: string, roles: Role[]) => api.post<unknown>('master/update-user-roles', { json: { userId, roles } }),
  updateStatus: (userId: string, status: UserStatus) => api.post<unknown>('master/update-user-status', { json: { userId, status } }),
};
