import type { StaffRole, UserStatus } from '../../core/schema.ts';
import { MASTER, type MatrixRow, type PolicyLink, type RequestSpec, type RowContext } from './vocabulary.ts';

/** The change the request asks for, about the user it names, as master.policy.ts sees it. */
const change = (c: RowContext, r: RequestSpec) => {
  const body = r.payload as { userId: string; roles?: StaffRole[]; status?: UserStatus };
  const user = c.objects.user(body.userId);
  return user && { user, roles: body.roles, status: body.status, activeMasters: c.objects.activeMasters() };
};
const setRoles: PolicyLink = ['master', 'setRoles', change];
const setStatus: PolicyLink = ['master', 'setStatus', change];
/** A change as the master screens send it: with the user's roles or status as the screen shows them now (`from`). */
const roles = (c: RowContext, userId: string, to: StaffRole[]) => ({ payload: { userId, roles: to, from: c.objects.user(userId)?.roles } });
const status = (c: RowContext, userId: string, to: UserStatus) => ({ payload: { userId, status: to, from: c.objects.user(userId)?.status } });

export const rows: MatrixRow[] = [
  { route: 'GET /api/master/get-pending-users', expect: MASTER, allowed: 200 },
  { route: 'GET /api/master/get-approved-users', expect: MASTER, allowed: 200 },
  {
    route: 'POST /api/master/update-user-roles',
    expect: MASTER,
    policy: setRoles,
    allowed: 200,
    request: (c) => roles(c, c.world.applicantId, ['PROVIDER_USER', 'ADMIN_USER']),
  },
  {
    route: 'POST /api/master/update-user-roles',
    expect: MASTER,
    policy: setRoles,
    allowed: 200,
    request: (c) => roles(c, c.me.id ?? c.world.applicantId, ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER']),
    note: 'every actor makes themselves a master',
  },
  {
    route: 'POST /api/master/update-user-status',
    expect: MASTER,
    policy: setStatus,
    allowed: 200,
    request: (c) => status(c, c.world.applicantId, 'approved'),
  },
  {
    route: 'POST /api/master/update-user-status',
    expect: MASTER,
    policy: setStatus,
    allowed: 200,
    request: (c) => {
      const self = c.me.actor === 'pendingProvider' || c.me.actor === 'suspendedProvider';
      return status(c, self && c.me.id ? c.me.id : c.world.applicantId, 'approved');
    },
    note: 'a pending or suspended user approves themselves',
  },
];
