import type { Generated } from 'kysely';
import type { ReportKind, ReportStatus } from '../../../contract/api/reports.ts';
import type { PageLocale } from '../../../contract/api/analytics.ts';

export type { ReportKind, ReportStatus };

/** migrations/sqlite/0004_reports.sql: reports, and the analytics module's page_views. */
export interface ReportsTables {
  reports: {
    id: string;
    kind: ReportKind;
    ad_id: string | null;
    message: string;
    contact: string | null;
    status: Generated<ReportStatus>;
    ip_hash: string | null;
    created_at: string;
  };
  page_views: {
    id: Generated<number>;
    path: string;
    /** Only what the page-view route accepts (contract/api/analytics.ts). */
    locale: PageLocale;
    referrer_host: string | null;
    at: string;
  };
}
