import { defineRoutes } from '../../core/http.ts';
import { analyticsApi } from '../../../contract/api/analytics.ts';

export default defineRoutes((app, deps) => {
  const analytics = deps.services.analytics;

  // The site's own page-view store (no third-party tracker). request.user costs nothing more here:
  // the session hook reads it only when the request carries the session cookie (a guest's beacon,
  // nearly all of them, reads no session), and the service needs it to leave out the ad's owner and staff.
  app.post('/api/analytics/pageview', { schema: analyticsApi['POST /api/analytics/pageview'] }, async (request, reply) => {
    const { path, locale, referrer } = request.body;
    await analytics.record({ path, locale, referrer }, { ip: request.ip, userAgent: request.headers['user-agent'], user: request.user });
    return reply.status(204).send(null);
  });

  app.get('/api/admin/get-page-views', { schema: analyticsApi['GET /api/admin/get-page-views'] }, async (request) => {
    const days = request.query.days ?? 7;
    return { days, ...analytics.summary(days) };
  });
});
