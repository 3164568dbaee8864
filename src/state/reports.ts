import { createResource } from './resource';
import { reportsApi, type NewReport, type ReportQuery, type ReportStatus } from '../api/reports';

/** Staff's list of reports (admin reports screen). */
export const adminReportsStore = createResource((q: ReportQuery) => reportsApi.list(q));

/** Opens or closes a report, then updates it in the loaded page. */
export async function setReportStatus(id: string, status: ReportStatus): Promise<void> {
  const { report } = await reportsApi.setStatus(id, status);
  const data = adminReportsStore.state.data;
  if (!data) return;
  const i = data.reports.findIndex((r) => r.id === id);
  if (i >= 0) data.reports[i] = report;
}

/** Closes a report with a note (kept in the audit log); the caller reloads the list. */
export async function closeReport(id: string, note: string): Promise<void> {
  await reportsApi.setStatus(id, 'closed', note);
}

/** Sends one of the public forms (trafficking, contact, law enforcement). */
export function submitReport(body: NewReport) {
  return reportsApi.submit(body);
}
