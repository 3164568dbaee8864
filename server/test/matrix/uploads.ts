import { PUBLIC, STAFF_SEE, type MatrixRow } from './vocabulary.ts';

export const rows: MatrixRow[] = [
  // Not under /api: public by design (random names), like the ad pages that show them.
  { route: 'GET /uploads/*', expect: PUBLIC, allowed: 200, request: (c) => ({ url: c.world.photoUrl('provider.liveAd') }) },
  // A withdrawn file (its owner is suspended: uploads.withdrawn.ts) is staff's alone; its own owner has no session.
  { route: 'GET /uploads/*', expect: STAFF_SEE, allowed: 200, request: (c) => ({ url: c.world.photoUrl('suspendedProvider.liveAd') }) },
];
