import { createResource } from './resource';
import { reportsApi, type NewReport, type ReportQuery, type ReportStatus } from '../api/reports';

/** Staff's list of reports (admin reports screen). */
export const adminReportsStore = createResource((q: ReportQuery) => reportsApi.list(q));

/**
 * Opens or closes a report; the caller reloads the list (patched in place, a report reopened in
 * the list of closed ones would stay there, labelled Open, and the count would be wrong).
 */
export async function setReportStatus(id: string, status: ReportStatus): Promise<void> {
  await reportsApi.setStatus(id, status);
}

/** Closes a report with a note (kept in the audit log); the caller reloads the list. */
export async function closeReport(id: string, note: string): Promise<void> {
  await reportsApi.setStatus(id, 'closed', note);
}

/** Sends one of the public forms (trafficking, contact, law enforcement). */
export function submitReport(body: NewReport) {
  return reportsApi.submit(body);
}
