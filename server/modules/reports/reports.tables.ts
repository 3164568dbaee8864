import type { Generated } from 'kysely';

export type ReportKind = 'ad' | 'trafficking' | 'contact' | 'law_enforcement';
export type ReportStatus = 'open' | 'closed';

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
    locale: string;
    referrer_host: string | null;
    at: string;
  };
}
