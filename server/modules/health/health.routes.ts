import { defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { healthApi } from '../../../contract/api/health.ts';

export default defineRoutes((app, deps) => {
  const health = deps.services.health;

  app.get('/api/health', { schema: healthApi['GET /api/health'] }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (health.serving()) return { status: 'ok' as const };
    return reply.status(503).send({ status: 'failing' as const });
  });

  app.get('/api/admin/get-health-check', { schema: healthApi['GET /api/admin/get-health-check'] }, async (request) => health.list(request.query));

  app.post('/api/admin/run-health-check', { schema: healthApi['POST /api/admin/run-health-check'] }, async (request) => ({
    healthChecks: await health.runNow(requireUser(request)),
  }));

  app.delete('/api/admin/delete-health-check-by-id/:id', { schema: healthApi['DELETE /api/admin/delete-health-check-by-id/:id'] }, async (request) => {
    await health.delete(requireUser(request), request.params.id);
    return { deleted: true as const };
  });

  app.get('/api/admin/get-overview', { schema: healthApi['GET /api/admin/get-overview'] }, async () => health.overview());
});
