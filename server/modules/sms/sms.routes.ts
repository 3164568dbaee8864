import { defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { smsApi } from '../../../contract/api/sms.ts';

export default defineRoutes((app, deps) => {
  const sms = deps.services.sms;

  // Staff (/api/admin is staff-only by prefix): the Textbelt key, its balance, messages.
  app.get('/api/admin/get-textbelt-token', { schema: smsApi['GET /api/admin/get-textbelt-token'] }, async () => sms.getToken());

  app.put('/api/admin/update-textbelt-token-by-id/:id', { schema: smsApi['PUT /api/admin/update-textbelt-token-by-id/:id'] }, async (request) =>
    sms.updateToken(requireUser(request), request.params.id, request.body.token),
  );

  app.get('/api/admin/get-textbelt-balance/:id', { schema: smsApi['GET /api/admin/get-textbelt-balance/:id'] }, async (request) =>
    sms.balance(request.params.id),
  );

  app.post('/api/admin/send-textbelt-test-sms', { schema: smsApi['POST /api/admin/send-textbelt-test-sms'] }, async (request) => {
    const { phone, message } = request.body;
    return { message: await sms.sendTest(requireUser(request), { phone, message }) };
  });

  app.get('/api/admin/get-textbelt-messages', { schema: smsApi['GET /api/admin/get-textbelt-messages'] }, async (request) => sms.list(request.query));

  app.post('/api/admin/refresh-textbelt-statuses', { schema: smsApi['POST /api/admin/refresh-textbelt-statuses'] }, async () => sms.refreshStatuses());

  // Any signed-in user, for their own account.
  app.post('/api/phone-verification', { schema: smsApi['POST /api/phone-verification'] }, async (request, reply) => {
    const answer = await sms.verification.request(requireUser(request), request.body.phone, request.ip);
    return reply.code(202).send(answer);
  });

  app.post('/api/phone-verification/confirm', { schema: smsApi['POST /api/phone-verification/confirm'] }, async (request) =>
    sms.verification.confirm(requireUser(request), request.body.code),
  );
});
