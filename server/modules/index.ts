import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../core/deps.ts';
import auth from './auth/auth.routes.ts';
import profile from './profile/profile.routes.ts';
import locations from './locations/locations.routes.ts';
import master from './master/master.routes.ts';
import audit from './audit/audit.routes.ts';
import realtime from './realtime/realtime.routes.ts';
import wallets from './wallets/wallets.routes.ts';
import pricing from './pricing/pricing.routes.ts';
import ads from './ads/ads.routes.ts';
import listings from './listings/listings.routes.ts';
import reports from './reports/reports.routes.ts';
import analytics from './analytics/analytics.routes.ts';
import cron from './cron/cron.routes.ts';
import site from './site/site.routes.ts';
import uploads from './uploads/uploads.routes.ts';
import docs from './docs/docs.routes.ts';
import payments from './payments/payments.routes.ts';
import sms from './sms/sms.routes.ts';
import health from './health/health.routes.ts';
import moderation from './moderation/moderation.routes.ts';

/** Every domain module, registered in this order by buildApp. site (pages, SPA fallback) goes last. */
export const modules: FastifyPluginAsync<AppDeps>[] = [
  auth,
  uploads,
  profile,
  locations,
  master,
  audit,
  realtime,
  wallets,
  pricing,
  ads,
  listings,
  reports,
  analytics,
  cron,
  docs,
  payments,
  sms,
  health,
  moderation,
  site,
];
