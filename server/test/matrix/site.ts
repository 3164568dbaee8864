import { PUBLIC, type MatrixRow } from './vocabulary.ts';

// Pages of the built client are public (the SPA guards its own screens; the API enforces access).
// GET /* exists only when dist/ is built: the matrix builds the app with a throw-away dist holding
// an index.html, and leaves out the per-file routes @fastify/static registers for it.
export const rows: MatrixRow[] = [
  { route: 'GET /*', expect: PUBLIC, allowed: 200, request: (c) => ({ url: `/listings/us/${c.world.ny.stateSlug}` }) },
  { route: 'GET /sitemap.xml', expect: PUBLIC, allowed: 200 },
  { route: 'GET /sitemaps/:file', expect: PUBLIC, allowed: 200, request: () => ({ url: '/sitemaps/pages-1.xml' }) },
  { route: 'GET /robots.txt', expect: PUBLIC, allowed: 200 },
];
