import { api } from './client';
import type { masterApi as masterRoutes } from '../../contract/api/master.ts';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

// Every shape here is the contract's (contract/api/master.ts), imported as types only.
type M = typeof masterRoutes;
export type PendingUsers = ResponseOf<M['GET /api/master/get-pending-users']>;
export type ApprovedUsers = ResponseOf<M['GET /api/master/get-approved-users']>;
export type ManagedUser = PendingUsers['pendingUsers'][number];
export type StaffRole = ManagedUser['roles'][number];
type ListQuery = QueryOf<M['GET /api/master/get-pending-users']>;

/** What a list screen asks for (its search box may be empty). */
export type UserListQuery = Required<ListQuery>;

function params(q: UserListQuery): ListQuery {
  const p: ListQuery = { page: q.page, pageSize: q.pageSize };
  if (q.query.trim()) p.query = q.query.trim();
  return p;
}

/** The master's user administration (/api/master, MASTER_USER only). */
export const usersApi = {
  pending: (q: UserListQuery) => api.get<PendingUsers>('master/get-pending-users', { searchParams: params(q) }),
  approved: (q: UserListQuery) => api.get<ApprovedUsers>('master/get-approved-users', { searchParams: params(q) }),
  updateRoles: (body: BodyOf<M['POST /api/master/update-user-roles']>) =>
    api.post<ResponseOf<M['POST /api/master/update-user-roles']>>('master/update-user-roles', { json: body }),
  updateStatus: (body: BodyOf<M['POST /api/master/update-user-status']>) =>
    api.post<ResponseOf<M['POST /api/master/update-user-status']>>('master/update-user-status', { json: body }),
};
