import { MASTER, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  { route: 'GET /api/master/get-pending-users', expect: MASTER, allowed: 200 },
  { route: 'GET /api/master/get-approved-users', expect: MASTER, allowed: 200 },
  { route: 'POST /api/master/update-user-roles', expect: MASTER, allowed: 200, request: (c) => ({ payload: { userId: c.world.applicantId, roles: ['PROVIDER_USER', 'ADMIN_USER'] } }) },
  {
    route: 'POST /api/master/update-user-roles', expect: MASTER, allowed: 200,
    request: (c) => ({ payload: { userId: c.me.id ?? c.world.applicantId, roles: ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'] } }),
    note: 'every actor makes themselves a master',
  },
  { route: 'POST /api/master/update-user-status', expect: MASTER, allowed: 200, request: (c) => ({ payload: { userId: c.world.applicantId, status: 'approved' } }) },
  {
    route: 'POST /api/master/update-user-status', expect: MASTER, allowed: 200,
    request: (c) => ({ payload: { userId: c.me.actor === 'pendingProvider' || c.me.actor === 'suspendedProvider' ? c.me.id : c.world.applicantId, status: 'approved' } }),
    note: 'a pending or suspended user approves themselves',
  },
];
