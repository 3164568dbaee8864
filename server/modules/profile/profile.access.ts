import { PUBLIC, SIGNED_IN, type AccessRow } from '../../test/access.ts';

export const accessRows: AccessRow[] = [
  { route: 'GET /api/user-profile', expect: SIGNED_IN },
  { route: 'POST /api/nickname-update', expect: SIGNED_IN },
  { route: 'POST /api/password-update', expect: SIGNED_IN },
  { route: 'POST /api/email-reset', expect: SIGNED_IN },
  { route: 'POST /api/confirm-email-reset', expect: PUBLIC, request: { payload: { token: 'not-a-real-token' } } },
  { route: 'POST /api/avatar-update', expect: SIGNED_IN },
  // Without confirm=true and a password the request is refused with 400: the matrix never deletes anyone.
  { route: 'DELETE /api/delete-my-profile', expect: SIGNED_IN },
];
