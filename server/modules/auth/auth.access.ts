import { PUBLIC, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  { route: 'POST /api/register', expect: PUBLIC },
  { route: 'POST /api/login', expect: PUBLIC },
  { route: 'GET /api/session', expect: PUBLIC },
  { route: 'GET /api/logout', expect: PUBLIC },
];
