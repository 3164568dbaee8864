import { PUBLIC, type AccessRow } from '../../test/access.ts';

// Pages of the built client are public (the SPA guards its own screens; the API enforces access).
// These routes exist only when dist/ is built: the authorization matrix builds the app with a
// throw-away dist holding an index.html, and leaves out the per-file routes @fastify/static
// registers for it (one per file of the build, public by nature).
export const accessRows: AccessRow[] = [
  { route: 'GET /*', expect: PUBLIC, request: { url: '/listings/us/new-york' } },
  { route: 'GET /sitemap.xml', expect: PUBLIC },
  { route: 'GET /robots.txt', expect: PUBLIC },
];
