import { PUBLIC, SIGNED_IN, type MatrixRow, type PolicyLink } from './vocabulary.ts';

// These act on the session's own account (no id in the request): there is no other user's object
// to reach. A password change ends the other sessions: the fixture signs the actor in again.
// profile.manage is asked about the actor's own account (a guest has none: no).
const manage: PolicyLink = ['profile', 'manage', (c) => c.objects.user(c.me.id)];

export const rows: MatrixRow[] = [
  { route: 'GET /api/user-profile', expect: SIGNED_IN, policy: manage, allowed: 200, self: true },
  {
    route: 'POST /api/nickname-update',
    expect: SIGNED_IN,
    policy: manage,
    allowed: 200,
    self: true,
    request: (c) => ({ payload: { nickname: `nick_${c.unique}` } }),
  },
  {
    route: 'POST /api/password-update',
    expect: SIGNED_IN,
    policy: manage,
    allowed: 200,
    self: true,
    request: (c) => ({ payload: { currentPassword: c.me.password ?? 'correct horse battery', newPassword: c.me.password ?? 'correct horse battery' } }),
  },
  {
    route: 'POST /api/email-reset',
    expect: SIGNED_IN,
    policy: manage,
    allowed: 200,
    request: (c) => ({ payload: { newEmail: `moved-${c.unique}@example.com`, password: c.me.password ?? 'correct horse battery' } }),
  },
  { route: 'POST /api/confirm-email-reset', expect: PUBLIC, allowed: 400, request: () => ({ payload: { token: 'not-a-real-token' } }) },
  {
    route: 'POST /api/avatar-update',
    expect: SIGNED_IN,
    policy: manage,
    allowed: 200,
    self: true,
    request: (c) => {
      const fd = new FormData();
      fd.append('avatar', new Blob([new Uint8Array(c.avatar)], { type: 'image/png' }), 'avatar.png');
      return { payload: fd };
    },
  },
  // The wrong password: the matrix never deletes an actor, but the request reaches the password check
  // (after profile.manage; profile.delete, the last-master rule, is asked after it: profile.delete.test.ts).
  {
    route: 'DELETE /api/delete-my-profile',
    expect: SIGNED_IN,
    policy: manage,
    allowed: 400,
    request: () => ({ url: '/api/delete-my-profile?confirm=true', payload: { password: 'not the password at all' } }),
  },
];
