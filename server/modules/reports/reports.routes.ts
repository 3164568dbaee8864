import { Type } from 'typebox';
import { Paging, defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { CONTACT_MAX, MESSAGE_MAX, ReportsService } from './reports.service.ts';

const Message = Type.Object({ message: Type.String() });
const Kind = Type.Enum(['ad', 'trafficking', 'contact', 'law_enforcement']);
const Status = Type.Enum(['open', 'closed']);
const Report = Type.Object({
  id: Type.String(),
  kind: Kind,
  adId: Type.Union([Type.String(), Type.Null()]),
  message: Type.String(),
  contact: Type.Union([Type.String(), Type.Null()]),
  status: Status,
  ipHash: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

export default defineRoutes((app, deps) => {
  const reports = new ReportsService(deps);

  // Public forms: report trafficking, contact us, law enforcement (ad reports have their own route).
  app.post('/api/reports', {
    schema: {
      body: Type.Object({
        kind: Type.Enum(['trafficking', 'contact', 'law_enforcement']),
        // The service checks the real bounds with a clearer message; these only cap the size.
        message: Type.String({ maxLength: MESSAGE_MAX + 1000 }),
        contact: Type.Optional(Type.Union([Type.String({ maxLength: CONTACT_MAX + 100 }), Type.Null()])),
        adId: Type.Optional(Type.Union([Type.String({ pattern: '^[a-z0-9]{1,40}$' }), Type.Null()])),
      }, { additionalProperties: false }),
      response: { 201: Type.Object({ id: Type.String(), createdAt: Type.String() }), '4xx': Message },
    },
  }, async (request, reply) => {
    const { kind, message, contact, adId } = request.body;
    const r = await reports.submit({ kind, message, contact, adId }, request.ip);
    return reply.status(201).send({ id: r.id, createdAt: r.createdAt });
  });

  app.get('/api/admin/get-reports', {
    schema: {
      querystring: Type.Object({
        ...Paging,
        status: Type.Optional(Status),
        kind: Type.Optional(Kind),
      }),
      response: {
        200: Type.Object({ reports: Type.Array(Report), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() }),
        '4xx': Message,
      },
    },
  }, async (request) => reports.list(request.query));

  app.post('/api/admin/set-report-status', {
    schema: {
      body: Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }), status: Status }),
      response: { 200: Type.Object({ report: Report }), '4xx': Message },
    },
  }, async (request) => ({ report: await reports.setStatus(requireUser(request), request.body.id, request.body.status) }));
});
