import { PUBLIC, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  // Not under /api: public by design (random names), like the ad pages that show them.
  { route: 'GET /uploads/*', expect: PUBLIC, allowed: 200, request: (c) => ({ url: c.world.photoUrl('provider.liveAd') }) },
];
