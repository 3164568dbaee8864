import { commonErrors } from './common.ts';
import { uploadErrors } from './uploads.ts';
import { authErrors } from './auth.ts';
import { profileErrors } from './profile.ts';
import { adsErrors } from './ads.ts';
import { listingsErrors } from './listings.ts';
import { walletsErrors } from './wallets.ts';
import { pricingErrors } from './pricing.ts';
import { locationsErrors } from './locations.ts';
import { masterErrors } from './master.ts';
import { reportsErrors } from './reports.ts';
import { opsErrors } from './ops.ts';
import { paymentsErrors } from './payments.ts';
import { smsErrors } from './sms.ts';
import { healthErrors } from './health.ts';
import { moderationErrors } from './moderation.ts';

/**
 * Every error the API can answer, by stable code. An error body is `{message, code, params?}`:
 * `message` is the English template below filled with `params`; the client shows
 * `errors:<code>` in the page's language with the same params, and falls back to `message`.
 * The server's error classes take an `ErrorCode`, so a code that is not here does not compile;
 * server/core/errors.test.ts fails when a code lacks a real Spanish or Portuguese translation.
 *
 * To add one: put it in the domain's file of this folder (or a new file spread in below), then
 * add its translations to src/i18n/locales/{es,pt}/errors/<domain>.json. Field names shown in
 * messages (`params.field`) are entries too: `field.<name>` with the field's label.
 */
export const ERRORS = {
  ...commonErrors,
  ...uploadErrors,
  ...authErrors,
  ...profileErrors,
  ...adsErrors,
  ...listingsErrors,
  ...walletsErrors,
  ...pricingErrors,
  ...locationsErrors,
  ...masterErrors,
  ...reportsErrors,
  ...opsErrors,
  ...paymentsErrors,
  ...smsErrors,
  ...healthErrors,
  ...moderationErrors,
} as const;

export type ErrorCode = keyof typeof ERRORS;
export type ErrorParams = Readonly<Record<string, string | number>>;

export interface ErrorBody {
  message: string;
  code: ErrorCode;
  params?: ErrorParams;
}

/** Fills a template's `{{name}}` placeholders; a missing param stays visible as its name. */
export function fillTemplate(template: string, params: ErrorParams | undefined): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => (params && name in params ? String(params[name]) : name));
}

export function renderError(code: ErrorCode, params?: ErrorParams): string {
  return fillTemplate(ERRORS[code], params);
}

/** The placeholders a template uses, for checking translations against the English. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
}
