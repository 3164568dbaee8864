import { Type } from 'typebox';
import { Paging, defineRoutes } from '../../core/http.ts';
import { AuditService } from './audit.service.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const Entry = Type.Object({
  id: Type.Integer(),
  actorId: NullableString,
  actorEmail: NullableString,
  action: Type.String(),
  targetType: Type.String(),
  targetId: NullableString,
  before: Type.Unknown(),
  after: Type.Unknown(),
  at: Type.String(),
});

export default defineRoutes((app, deps) => {
  const audit = new AuditService(deps);

  app.get('/api/admin/get-audit-log', {
    schema: {
      querystring: Type.Object({
        ...Paging,
        action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        targetType: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      }),
      response: { 200: Type.Object({ auditLog: Type.Array(Entry), total: Type.Integer() }), '4xx': Type.Object({ message: Type.String() }) },
    },
  }, async (request) => audit.list(request.query));
});
