import { Type, type Static } from 'typebox';
import { Errors, PageInfo, Paging, SaidSchema } from './common.ts';
import type { RouteContract } from './types.ts';

/** ok; degraded (works, but look at it soon: slow, low quota, little disk); failing (does not work: admins are e-mailed). */
export const HealthStatusSchema = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('failing')]);
export type HealthStatus = Static<typeof HealthStatusSchema>;

/** The checks every run makes, in the order they are shown. */
export const HEALTH_CHECK_NAMES = ['database', 'disk', 'memory', 'smtp', 'payment-server', 'sms'] as const;
export type HealthCheckName = (typeof HEALTH_CHECK_NAMES)[number];

/**
 * One check of one run: its outcome in plain English words (for logs and the staff e-mail), the
 * same as a code the page words in its language (null on results recorded before there were
 * codes), and how long it took.
 */
export const HealthCheckSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: HealthStatusSchema,
  message: Type.String(),
  says: Type.Union([SaidSchema, Type.Null()]),
  durationMs: Type.Integer(),
  checkedAt: Type.String(),
});
export type HealthCheck = Static<typeof HealthCheckSchema>;

/** What the staff dashboard links to: ads waiting for review, open reports, checks whose latest result is failing. */
export const AdminOverviewSchema = Type.Object({
  pendingAds: Type.Integer(),
  openReports: Type.Integer(),
  failingChecks: Type.Integer(),
});
export type AdminOverview = Static<typeof AdminOverviewSchema>;

/** The health module's routes: "METHOD /path" → the schemas of its request and answers. */
export const healthApi = {
  /**
   * Public, for uptime monitors and load balancers: 200 while this server can serve (its database
   * answers, and the latest database and disk checks are not failing), else 503. No details.
   */
  'GET /api/health': {
    response: {
      200: Type.Object({ status: Type.Literal('ok') }),
      503: Type.Object({ status: Type.Literal('failing') }),
      ...Errors,
    },
  },
  /** Staff: recorded check results, newest first (optionally of one check), and the latest result of each check. */
  'GET /api/admin/get-health-check': {
    querystring: Type.Object({
      ...Paging,
      name: Type.Optional(Type.String({ maxLength: 60 })),
    }),
    response: {
      200: Type.Object({ healthChecks: Type.Array(HealthCheckSchema), latest: Type.Array(HealthCheckSchema), ...PageInfo }),
      ...Errors,
    },
  },
  /** Staff: runs every check now and answers this run's results (joins a run already going instead of starting a second). Audited. */
  'POST /api/admin/run-health-check': {
    body: Type.Object({}),
    response: { 200: Type.Object({ healthChecks: Type.Array(HealthCheckSchema) }), ...Errors },
  },
  /** Staff: deletes one recorded result (audited). */
  'DELETE /api/admin/delete-health-check-by-id/:id': {
    params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
    response: { 200: Type.Object({ deleted: Type.Literal(true) }), ...Errors },
  },
  /** Staff: the counts the dashboard's admin overview shows, each a cheap COUNT. */
  'GET /api/admin/get-overview': {
    response: { 200: AdminOverviewSchema, ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
