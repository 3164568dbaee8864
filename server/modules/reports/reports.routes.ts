import { defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { reportsApi } from '../../../contract/api/reports.ts';

export default defineRoutes((app, deps) => {
  const reports = deps.services.reports;

  // Public forms: report trafficking, contact us, law enforcement (ad reports have their own route).
  // The service checks the real bounds with a clearer message; the body schema only caps the size.
  app.post('/api/reports', { schema: reportsApi['POST /api/reports'] }, async (request, reply) => {
    const { kind, message, contact, adId } = request.body;
    const r = await reports.submit({ kind, message, contact, adId }, request.ip);
    return reply.status(201).send({ id: r.id, createdAt: r.createdAt });
  });

  app.get('/api/admin/get-reports', { schema: reportsApi['GET /api/admin/get-reports'] }, async (request) => {
    const { page, pageSize, status, kind } = request.query;
    return reports.list(requireUser(request), { page, pageSize, status, kind });
  });

  app.post('/api/admin/set-report-status', { schema: reportsApi['POST /api/admin/set-report-status'] }, async (request) => {
    const { id, status, note } = request.body;
    return { report: await reports.setStatus(requireUser(request), id, status, note) };
  });
});
