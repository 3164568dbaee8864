import { defineRoutes } from '../../core/http.ts';
import { analyticsApi } from '../../../contract/api/analytics.ts';

export default defineRoutes((app, deps) => {
  const analytics = deps.services.analytics;

  // The site's own page-view store (no third-party tracker).
  app.post('/api/analytics/pageview', { schema: analyticsApi['POST /api/analytics/pageview'] }, async (request, reply) => {
    const { path, locale, referrer } = request.body;
    await analytics.record({ path, locale, referrer }, request.ip);
    return reply.status(204).send(null);
  });

  app.get('/api/admin/get-page-views', { schema: analyticsApi['GET /api/admin/get-page-views'] }, async (request) => {
    const days = request.query.days ?? 7;
    return { days, ...analytics.summary(days) };
  });
});
