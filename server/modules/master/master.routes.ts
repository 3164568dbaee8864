import { defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { masterApi } from '../../../contract/api/master.ts';

export default defineRoutes((app, deps) => {
  const master = deps.services.master;

  app.get('/api/master/get-pending-users', { schema: masterApi['GET /api/master/get-pending-users'] }, async (request) => master.pendingUsers(request.query));

  app.get('/api/master/get-approved-users', { schema: masterApi['GET /api/master/get-approved-users'] }, async (request) =>
    master.approvedUsers(request.query),
  );

  app.post('/api/master/update-user-roles', { schema: masterApi['POST /api/master/update-user-roles'] }, async (request) => ({
    user: await master.updateRoles(requireUser(request), request.body.userId, request.body.roles, request.body.from),
  }));

  app.post('/api/master/update-user-status', { schema: masterApi['POST /api/master/update-user-status'] }, async (request) => ({
    user: await master.updateStatus(requireUser(request), request.body.userId, request.body.status, request.body.from),
  }));
});
