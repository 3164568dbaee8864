import { Type, type Static } from 'typebox';
import { Errors, PageInfo, Paging } from './common.ts';
import type { RouteContract } from './types.ts';

export const CronOutcomeSchema = Type.Union([Type.Literal('running'), Type.Literal('ok'), Type.Literal('error')]);
export type CronOutcome = Static<typeof CronOutcomeSchema>;

/** One recorded run of an in-process job: `running` (no finishedAt) until it ends; `message` is the job's report or error. */
export const CronRunSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  startedAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  outcome: CronOutcomeSchema,
  message: Type.Union([Type.String(), Type.Null()]),
});
export type CronRun = Static<typeof CronRunSchema>;

/** A registered job and its cron pattern (croner syntax, server time zone). */
export const CronJobSchema = Type.Object({ name: Type.String(), schedule: Type.String() });
export type CronJob = Static<typeof CronJobSchema>;

/** The cron module's routes: "METHOD /path" → the schemas of its request and answers. */
export const cronApi = {
  /** Staff: the recorded runs, newest first (optionally of one job), and every registered job. */
  'GET /api/admin/get-cron-jobs': {
    querystring: Type.Object({
      ...Paging,
      name: Type.Optional(Type.String({ maxLength: 60 })),
    }),
    response: {
      200: Type.Object({ cronJobs: Type.Array(CronRunSchema), ...PageInfo, jobs: Type.Array(CronJobSchema) }),
      ...Errors,
    },
  },
  /** Staff: deletes one run record (audited). */
  'DELETE /api/admin/delete-cron-job-status-by-id/:id': {
    params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
    response: { 200: Type.Object({ deleted: Type.Literal(true) }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
