import type { MatrixRow } from './vocabulary.ts';
import { rows as ads } from './ads.ts';
import { rows as analytics } from './analytics.ts';
import { rows as audit } from './audit.ts';
import { rows as auth } from './auth.ts';
import { rows as cron } from './cron.ts';
import { rows as docs } from './docs.ts';
import { rows as listings } from './listings.ts';
import { rows as locations } from './locations.ts';
import { rows as master } from './master.ts';
import { rows as pricing } from './pricing.ts';
import { rows as profile } from './profile.ts';
import { rows as realtime } from './realtime.ts';
import { rows as reports } from './reports.ts';
import { rows as site } from './site.ts';
import { rows as uploads } from './uploads.ts';
import { rows as wallets } from './wallets.ts';
import { rows as payments } from './payments.ts';
import { rows as sms } from './sms.ts';
import { rows as health } from './health.ts';
import { rows as moderation } from './moderation.ts';

/** Every module's rows: one file per folder of server/modules/, named after it. */
const byModule: Record<string, MatrixRow[]> = {
  ads,
  analytics,
  audit,
  auth,
  cron,
  docs,
  listings,
  locations,
  master,
  pricing,
  profile,
  realtime,
  reports,
  site,
  uploads,
  wallets,
  payments,
  sms,
  health,
  moderation,
};

export const matrixRows: (MatrixRow & { file: string })[] = Object.entries(byModule).flatMap(([module, rows]) =>
  rows.map((row) => ({ ...row, file: `server/test/matrix/${module}.ts` })),
);
