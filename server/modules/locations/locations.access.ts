import { PUBLIC, STAFF, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  { route: 'GET /api/states-from-country', expect: PUBLIC },
  // isAll (disabled states included) is for staff only: refused, not silently ignored.
  { route: 'GET /api/states-from-country', expect: STAFF, request: { url: '/api/states-from-country?isAll=true' } },
  { route: 'GET /api/cities-from-state/:stateId', expect: PUBLIC, request: { url: '/api/cities-from-state/ny' } },
  { route: 'GET /api/cities-from-state/:stateId', expect: STAFF, request: { url: '/api/cities-from-state/ny?isAll=true' } },
  { route: 'GET /api/admin/get-cities-by-state', expect: STAFF, request: { url: '/api/admin/get-cities-by-state?stateId=ny' } },
  // An unknown state is a 404 for staff: authorization passed, nothing changed.
  { route: 'POST /api/admin/set-status-state-cities', expect: STAFF, request: { payload: { stateId: 'zz', enabled: true } } },
];
