import { requireUser } from '../../core/auth.ts';
import { defineRoutes } from '../../core/http.ts';
import { auditApi } from '../../../contract/api/audit.ts';

export default defineRoutes((app, deps) => {
  const audit = deps.services.audit;

  app.get('/api/admin/get-audit-log', { schema: auditApi['GET /api/admin/get-audit-log'] }, async (request) => audit.list(requireUser(request), request.query));
});
