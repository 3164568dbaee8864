import { PUBLIC, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  { route: 'GET /api/listings', expect: PUBLIC },
  { route: 'GET /api/search', expect: PUBLIC, request: { url: '/api/search?query=companion' } },
  { route: 'GET /api/ads/:id', expect: PUBLIC },
  { route: 'GET /api/users-ads-aggregate/us/:listingType', expect: PUBLIC, request: { url: '/api/users-ads-aggregate/us/female-escorts' } },
  { route: 'GET /api/home', expect: PUBLIC },
  { route: 'POST /api/report-ad/:id', expect: PUBLIC, request: { payload: { message: 'This ad looks wrong to me.' } } },
];
