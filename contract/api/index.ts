/**
 * The API's contract: every /api route as "METHOD /path" → its TypeBox schemas (params, query,
 * body, answers by status). Server routes register with these schemas (they validate requests
 * and whitelist answers); the client imports their static types only (`import type`), so no
 * schema code reaches the bundle; browser tests check their fixtures against the answers
 * (src/test/contract.ts); the OpenAPI document is made from them.
 */
import { authApi } from './auth.ts';
import { profileApi } from './profile.ts';
import { locationsApi } from './locations.ts';
import { masterApi } from './master.ts';
import { auditApi } from './audit.ts';
import { realtimeApi } from './realtime.ts';
import { walletsApi } from './wallets.ts';
import { pricingApi } from './pricing.ts';
import { adsApi } from './ads.ts';
import { listingsApi } from './listings.ts';
import { reportsApi } from './reports.ts';
import { analyticsApi } from './analytics.ts';
import { cronApi } from './cron.ts';
import { docsApi } from './docs.ts';
import { paymentsApi } from './payments.ts';
import { smsApi } from './sms.ts';
import { healthApi } from './health.ts';
import { moderationApi } from './moderation.ts';

export const API = {
  ...authApi,
  ...profileApi,
  ...locationsApi,
  ...masterApi,
  ...auditApi,
  ...realtimeApi,
  ...walletsApi,
  ...pricingApi,
  ...adsApi,
  ...listingsApi,
  ...reportsApi,
  ...analyticsApi,
  ...cronApi,
  ...docsApi,
  ...paymentsApi,
  ...smsApi,
  ...healthApi,
  ...moderationApi,
} as const;

export type ApiRoute = keyof typeof API;
