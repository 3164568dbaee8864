import { defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { cronApi } from '../../../contract/api/cron.ts';
import { startScheduler } from './cron.service.ts';

export default defineRoutes((app, deps) => {
  const cron = deps.services.cron;

  // In-process jobs run only when CRON is on (tests run them by hand with runJob and a ManualClock).
  if (deps.config.cron) {
    let scheduler: { stop(): void } | null = null;
    app.addHook('onReady', async () => {
      scheduler = startScheduler(deps);
    });
    app.addHook('onClose', async () => {
      scheduler?.stop();
    });
  }

  app.get('/api/admin/get-cron-jobs', { schema: cronApi['GET /api/admin/get-cron-jobs'] }, async (request) => cron.list(request.query));

  app.delete('/api/admin/delete-cron-job-status-by-id/:id', { schema: cronApi['DELETE /api/admin/delete-cron-job-status-by-id/:id'] }, async (request) => {
    await cron.delete(requireUser(request), request.params.id);
    return { deleted: true as const };
  });
});
