import { defineRoutes } from '../../core/http.ts';
import { publicCache, requireUser } from '../../core/auth.ts';
import { moderationApi } from '../../../contract/api/moderation.ts';

/** Moderators' tools (/api/admin/*: staff, core/access.ts) and the public transparency report. */
export default defineRoutes((app, deps) => {
  const moderation = deps.services.moderation;

  app.get('/api/admin/search-ads', { schema: moderationApi['GET /api/admin/search-ads'] }, async (request) => {
    const { query, status, page, pageSize } = request.query;
    return moderation.search(requireUser(request), { query, status, page, pageSize });
  });

  app.get('/api/admin/get-user/:id', { schema: moderationApi['GET /api/admin/get-user/:id'] }, async (request) =>
    moderation.user(requireUser(request), request.params.id),
  );

  app.post('/api/admin/place-legal-hold', { schema: moderationApi['POST /api/admin/place-legal-hold'] }, async (request, reply) => {
    const { targetType, targetId, reason } = request.body;
    return reply.status(201).send({ hold: await moderation.placeHold(requireUser(request), { targetType, targetId, reason }) });
  });

  app.post('/api/admin/release-legal-hold', { schema: moderationApi['POST /api/admin/release-legal-hold'] }, async (request) => {
    const { targetType, targetId, holdIds, note } = request.body;
    return moderation.releaseHold(requireUser(request), { targetType, targetId, holdIds, note });
  });

  app.get('/api/admin/get-legal-holds', { schema: moderationApi['GET /api/admin/get-legal-holds'] }, async (request) => {
    const { active, page, pageSize } = request.query;
    return moderation.holds(requireUser(request), { active, page, pageSize });
  });

  app.get('/api/admin/get-duplicate-flags', { schema: moderationApi['GET /api/admin/get-duplicate-flags'] }, async (request) =>
    moderation.duplicateFlags(requireUser(request), request.query.adIds),
  );

  // A download that writes an audit entry: refused cross-site like a POST (and never run by HEAD).
  app.get(
    '/api/admin/export-evidence/:id',
    { config: { changesState: true }, schema: moderationApi['GET /api/admin/export-evidence/:id'] },
    async (request, reply) => {
      const { fileName, zip } = await moderation.exportEvidence(requireUser(request), request.params.id);
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(zip);
    },
  );

  app.get('/api/transparency', { schema: moderationApi['GET /api/transparency'] }, async (request, reply) => {
    publicCache(reply, 'public, max-age=300'); // private when it expires a stale session cookie
    return moderation.transparency();
  });
});
