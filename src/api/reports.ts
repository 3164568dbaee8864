import { api } from './client';
import type * as Contract from '../../contract/api/reports.ts';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

type Reports = typeof Contract.reportsApi;
export type NewReport = BodyOf<Reports['POST /api/reports']>;
export type ReportReceipt = ResponseOf<Reports['POST /api/reports'], 201>;
export type ReportQuery = QueryOf<Reports['GET /api/admin/get-reports']>;
export type ReportPage = ResponseOf<Reports['GET /api/admin/get-reports']>;
export type Report = ReportPage['reports'][number];
export type ReportKind = Report['kind'];
export type ReportStatus = Report['status'];

// The server's limits, shown before submit. Written here, not imported: the contract's schema code
// must stay out of the bundle; typed as the contract's constants, so a change there fails here.
export const REPORT_MESSAGE_MIN: typeof Contract.REPORT_MESSAGE_MIN = 10;
export const REPORT_MESSAGE_MAX: typeof Contract.REPORT_MESSAGE_MAX = 5000;

export const reportsApi = {
  // A public form: a 401/403 must never bounce the visitor to the login page.
  submit: (body: NewReport) => api.post<ReportReceipt>('reports', { json: body, redirectOnAuth: false }),
  list: (q: ReportQuery) => {
    const searchParams: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(q)) if (v !== undefined) searchParams[k] = v;
    return api.get<ReportPage>('admin/get-reports', { searchParams });
  },
  setStatus: (id: BodyOf<Reports['POST /api/admin/set-report-status']>['id'], status: ReportStatus, note?: string) =>
    api.post<ResponseOf<Reports['POST /api/admin/set-report-status']>>('admin/set-report-status', { json: note ? { id, status, note } : { id, status } }),
};
