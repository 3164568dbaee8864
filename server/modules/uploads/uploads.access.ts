import { PUBLIC, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  // Not under /api: public by design (random names); a missing file is a 404, which 'allow' accepts.
  { route: 'GET /uploads/*', expect: PUBLIC, request: { url: '/uploads/avatars/missing.webp' } },
];
