import cookie from '@fastify/cookie';
import { defineRoutes } from '../../core/http.ts';
import { readMultipart, withMultipart } from '../../core/multipart.ts';
import { assertImageHeader, imageQueue } from '../../core/images.ts';
import { WindowLimiter } from '../../core/ratelimit.ts';
import { clearSessionCookie, requireUser, sessionView, setSessionCookie } from '../../core/auth.ts';
import { Invalid, TooLarge } from '../../core/errors.ts';
import { profileApi } from '../../../contract/api/profile.ts';
import { can } from './profile.policy.ts';

export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;

export default defineRoutes(async (app, deps) => {
  await app.register(cookie, { hook: false }); // a password change and an e-mail confirmation re-issue the session
  const profiles = deps.services.profile;

  app.get('/api/user-profile', { schema: profileApi['GET /api/user-profile'] }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return profiles.profile(requireUser(request));
  });

  app.post('/api/nickname-update', { schema: profileApi['POST /api/nickname-update'] }, async (request) =>
    profiles.updateNickname(requireUser(request), request.body.nickname),
  );

  app.post('/api/password-update', { schema: profileApi['POST /api/password-update'] }, async (request, reply) => {
    const { currentPassword, newPassword } = request.body;
    const user = await profiles.updatePassword(requireUser(request), { currentPassword, newPassword });
    setSessionCookie(reply, request, deps, user); // this browser stays signed in; every other token is dead
    return sessionView(user);
  });

  app.post('/api/email-reset', { schema: profileApi['POST /api/email-reset'] }, async (request) => {
    const { newEmail, password } = request.body;
    return profiles.requestEmailChange(requireUser(request), { newEmail, password });
  });

  // Public: the link may be opened in any browser. Whoever opens it proved they read the new mailbox.
  app.post('/api/confirm-email-reset', { schema: profileApi['POST /api/confirm-email-reset'] }, async (request, reply) => {
    const user = await profiles.confirmEmailChange(request.body.token);
    // The change ended every session; the browser that confirms, when signed in as that user, gets a fresh one.
    if (can(request.user, 'manage', { id: user.id })) setSessionCookie(reply, request, deps, user);
    return { email: user.email };
  });

  // Each update decodes a picture and writes a file: limited per user, refused 429 past the limit.
  const avatarLimiter = new WindowLimiter(deps.clock, deps.limits.avatarUpdatesPerHour, 60 * 60 * 1000);
  await withMultipart(app, (scope) => {
    scope.post('/api/avatar-update', { schema: profileApi['POST /api/avatar-update'] }, async (request) => {
      const user = requireUser(request);
      const data = await readMultipart(
        async () => {
          const file = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
          if (!file || file.fieldname !== 'avatar') throw new Invalid('avatar', 'profile.avatar_required');
          return file.toBuffer();
          // over the limit: 413 saying which limit, and naming the field (not the generic "request too large")
        },
        { FST_REQ_FILE_TOO_LARGE: () => new TooLarge('profile.avatar_too_large', { field: 'avatar', mb: AVATAR_MAX_BYTES / (1024 * 1024) }) },
      );
      // Counted once the upload is read (a reply sent mid-upload reaches a browser as a reset connection).
      avatarLimiter.hit([user.id], 'profile.too_many_avatar_updates', { max: deps.limits.avatarUpdatesPerHour });
      assertImageHeader(data, 'avatar'); // a bomb or a non-image is refused before it takes a place in the queue
      return imageQueue(deps).run(() => profiles.updateAvatar(user, data), user.id); // in turn with other accounts' uploads
    });
  });

  app.delete('/api/delete-my-profile', { schema: profileApi['DELETE /api/delete-my-profile'] }, async (request, reply) => {
    if (request.query.confirm !== true) throw new Invalid('confirm', 'profile.confirm_required');
    await profiles.deleteAccount(requireUser(request), request.body.password);
    clearSessionCookie(reply);
    return sessionView(null);
  });
});
