import { api } from './client';

export type ReportKind = 'ad' | 'trafficking' | 'contact' | 'law_enforcement';
export type ReportStatus = 'open' | 'closed';

export interface Report {
  id: string;
  kind: ReportKind;
  adId: string | null;
  message: string;
  contact: string | null;
  status: ReportStatus;
  ipHash: string | null;
  createdAt: string;
}

// The server's limits (server/modules/reports/reports.service.ts), shown before submit.
export const REPORT_MESSAGE_MIN = 10;
export const REPORT_MESSAGE_MAX = 5000;
export const REPORT_CONTACT_MAX = 254;

export interface NewReport {
  kind: Exclude<ReportKind, 'ad'>;
  message: string;
  contact?: string | null;
  adId?: string | null;
}

export interface ReportQuery {
  page?: number;
  pageSize?: number;
  status?: ReportStatus;
  kind?: ReportKind;
}

export const reportsApi = {
  // A public form: a 401/403 must never bounce the visitor to the login page.
  submit: (body: NewReport) => api.post<{ id: string; createdAt: string }>('reports', { json: body, redirectOnAuth: false }),
  list: (q: ReportQuery) => {
    const searchParams: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') searchParams[k] = v;
    return api.get<{ reports: Report[]; total: number; page: number; pageSize: number }>('admin/get-reports', { searchParams });
  },
  setStatus: (id: string, status: ReportStatus) => api.post<{ report: Report }>('admin/set-report-status', { json: { id, status } }),
};
