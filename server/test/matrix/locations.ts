import { PUBLIC, STAFF, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  { route: 'GET /api/states-from-country', expect: PUBLIC, allowed: 200 },
  // isAll (disabled states included) is for staff only: refused, not silently ignored.
  {
    route: 'GET /api/states-from-country',
    expect: STAFF,
    policy: ['locations', 'seeDisabled'],
    allowed: 200,
    request: () => ({ url: '/api/states-from-country?isAll=true' }),
  },
  { route: 'GET /api/cities-from-state/:stateId', expect: PUBLIC, allowed: 200, request: (c) => ({ url: `/api/cities-from-state/${c.world.ny.stateId}` }) },
  {
    route: 'GET /api/cities-from-state/:stateId',
    expect: STAFF,
    allowed: 200,
    policy: ['locations', 'seeDisabled'],
    request: (c) => ({ url: `/api/cities-from-state/${c.world.ny.stateId}?isAll=true` }),
  },
  {
    route: 'GET /api/admin/get-cities-by-state',
    expect: STAFF,
    allowed: 200,
    request: (c) => ({ url: `/api/admin/get-cities-by-state?stateId=${c.world.ny.stateId}` }),
  },
  {
    route: 'POST /api/admin/set-status-state-cities',
    expect: STAFF,
    policy: ['locations', 'setStatus'],
    allowed: 200,
    request: (c) => ({ payload: { stateId: c.world.quietCity.stateId, cityIds: [c.world.quietCity.cityId], enabled: false } }),
  },
];
