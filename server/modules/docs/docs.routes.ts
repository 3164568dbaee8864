import { defineRoutes } from '../../core/http.ts';
import { docsApi } from '../../../contract/api/docs.ts';

/**
 * GET /api/docs: the OpenAPI 3.1 document @fastify/swagger builds from the routes' contract
 * schemas (registered in buildApp before any route). Staff only (core/access.ts STAFF_ROUTES):
 * the document names every staff route and its inputs.
 */
export default defineRoutes((app) => {
  app.get('/api/docs', { schema: docsApi['GET /api/docs'] }, (_request, reply) => {
    reply.header('cache-control', 'no-store').send(app.swagger() as unknown as Record<string, unknown>);
  });
});
