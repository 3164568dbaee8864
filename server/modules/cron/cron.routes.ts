import { defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { cronApi } from '../../../contract/api/cron.ts';
import { failLeftoverRuns, startScheduler, stopJobs } from './cron.service.ts';

export default defineRoutes((app, deps) => {
  const cron = deps.services.cron;

  let scheduler: { stop(): void } | null = null;
  app.addHook('onReady', async () => {
    // Runs left `running` by a previous process will never finish: say so.
    await failLeftoverRuns(deps);
    // In-process jobs run only when CRON is on (tests run them by hand with runJob and a ManualClock).
    if (deps.config.cron) scheduler = startScheduler(deps);
  });
  app.addHook('onClose', async () => {
    scheduler?.stop();
    await stopJobs(deps);
  });

  app.get('/api/admin/get-cron-jobs', { schema: cronApi['GET /api/admin/get-cron-jobs'] }, async (request) => cron.list(request.query));

  app.post('/api/admin/run-cron-job', { schema: cronApi['POST /api/admin/run-cron-job'] }, async (request) => ({
    cronJob: await cron.runNow(requireUser(request), request.body.name),
  }));

  app.delete('/api/admin/delete-cron-job-status-by-id/:id', { schema: cronApi['DELETE /api/admin/delete-cron-job-status-by-id/:id'] }, async (request) => {
    await cron.delete(requireUser(request), request.params.id);
    return { deleted: true as const };
  });
});
