import { Type } from 'typebox';
import { Paging, defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { CronService, startScheduler } from './cron.service.ts';

const Message = Type.Object({ message: Type.String() });
const Run = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  startedAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.String(),
  message: Type.Union([Type.String(), Type.Null()]),
});

export default defineRoutes((app, deps) => {
  const cron = new CronService(deps);

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

  app.get('/api/admin/get-cron-jobs', {
    schema: {
      querystring: Type.Object({
        ...Paging,
        name: Type.Optional(Type.String({ maxLength: 60 })),
      }),
      response: {
        200: Type.Object({
          cronJobs: Type.Array(Run), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer(),
          jobs: Type.Array(Type.Object({ name: Type.String(), schedule: Type.String() })),
        }),
        '4xx': Message,
      },
    },
  }, async (request) => cron.list(request.query));

  app.delete('/api/admin/delete-cron-job-status-by-id/:id', {
    schema: {
      params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
      response: { 200: Type.Object({ deleted: Type.Boolean() }), '4xx': Message },
    },
  }, async (request) => {
    await cron.delete(requireUser(request), request.params.id);
    return { deleted: true };
  });
});
