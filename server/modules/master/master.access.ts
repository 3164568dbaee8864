import { MASTER, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  { route: 'GET /api/master/get-pending-users', expect: MASTER },
  { route: 'GET /api/master/get-approved-users', expect: MASTER },
  // An unknown user id: a master gets 404, never a change.
  { route: 'POST /api/master/update-user-roles', expect: MASTER, request: { payload: { userId: 'no-such-user', roles: ['PROVIDER_USER'] } } },
  { route: 'POST /api/master/update-user-status', expect: MASTER, request: { payload: { userId: 'no-such-user', status: 'approved' } } },
];
