import { Type, type Static } from 'typebox';
import { Errors, PageInfo, Paging, SaidSchema } from './common.ts';
import type { RouteContract } from './types.ts';

export const CronOutcomeSchema = Type.Union([Type.Literal('running'), Type.Literal('ok'), Type.Literal('failed')]);
export type CronOutcome = Static<typeof CronOutcomeSchema>;

/**
 * One recorded run of an in-process job: `running` (no finishedAt) until it ends; `message` is the
 * job's report or error in English, `says` the same as a code with its figures, which the client
 * words in the page's language (null on runs recorded before it was kept, and while running).
 */
export const CronRunSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  startedAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  outcome: CronOutcomeSchema,
  message: Type.Union([Type.String(), Type.Null()]),
  says: Type.Union([SaidSchema, Type.Null()]),
});
export type CronRun = Static<typeof CronRunSchema>;

/**
 * A registered job: its cron pattern (croner syntax, server time zone), when the scheduler runs it
 * next (null while the scheduler is off: CRON=0) and how its latest recorded run ended (null: none).
 */
export const CronScheduleSchema = Type.Object({
  name: Type.String(),
  cron: Type.String(),
  nextRunAt: Type.Union([Type.String(), Type.Null()]),
  lastOutcome: Type.Union([CronOutcomeSchema, Type.Null()]),
});
export type CronSchedule = Static<typeof CronScheduleSchema>;

/** The cron module's routes: "METHOD /path" → the schemas of its request and answers. */
export const cronApi = {
  /** Staff: the recorded runs, newest first (optionally of one job), and every registered job's schedule. */
  'GET /api/admin/get-cron-jobs': {
    querystring: Type.Object({
      ...Paging,
      name: Type.Optional(Type.String({ maxLength: 60 })),
    }),
    response: {
      200: Type.Object({ cronJobs: Type.Array(CronRunSchema), schedules: Type.Array(CronScheduleSchema), ...PageInfo }),
      ...Errors,
    },
  },
  /**
   * Staff: runs one registered job now and answers its recorded run (a job that fails or runs past
   * its time limit is a run with outcome `failed`, still a 200). 400 for a name that is not
   * registered, 409 while that job is already running (scheduled or started by someone else). Audited.
   */
  'POST /api/admin/run-cron-job': {
    body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 60 }) }),
    response: { 200: Type.Object({ cronJob: CronRunSchema }), ...Errors },
  },
  /** Staff: deletes one run record (audited). */
  'DELETE /api/admin/delete-cron-job-status-by-id/:id': {
    params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
    response: { 200: Type.Object({ deleted: Type.Literal(true) }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
