import { Type } from 'typebox';
import { defineRoutes } from '../../core/http.ts';
import { AnalyticsService } from './analytics.service.ts';

const Message = Type.Object({ message: Type.String() });
const Count = Type.Integer();

export default defineRoutes((app, deps) => {
  const analytics = new AnalyticsService(deps);

  // The site's own page-view store (no third-party tracker).
  app.post('/api/analytics/pageview', {
    schema: {
      body: Type.Object({
        path: Type.String({ minLength: 1, maxLength: 2000 }),
        locale: Type.Enum(['en', 'es', 'pt']),
        referrer: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
      }, { additionalProperties: false }),
      response: { 204: Type.Null(), '4xx': Message },
    },
  }, async (request, reply) => {
    const { path, locale, referrer } = request.body;
    await analytics.record({ path, locale, referrer }, request.ip);
    return reply.status(204).send(null);
  });

  app.get('/api/admin/get-page-views', {
    schema: {
      querystring: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })) }),
      response: {
        200: Type.Object({
          days: Type.Integer(),
          total: Count,
          byDay: Type.Array(Type.Object({ day: Type.String(), count: Count })),
          topPaths: Type.Array(Type.Object({ path: Type.String(), count: Count })),
          byLocale: Type.Array(Type.Object({ locale: Type.String(), count: Count })),
        }),
        '4xx': Message,
      },
    },
  }, async (request) => {
    const days = request.query.days ?? 7;
    return { days, ...(await analytics.summary(days)) };
  });
});
