import { proxy } from 'valtio';
import { createResource, onReset } from './resource';
import { readWithinPages } from './paging';
import { reportsApi, type NewReport, type ReportKind, type ReportQuery, type ReportStatus } from '../api/reports';

export const REPORTS_PAGE_SIZE = 20;
// Open reports first: what staff come for. Every filter here, so a reset (sign-out, another user) clears them all.
const initial = (): { page: number; status: ReportStatus | ''; kind: ReportKind | '' } => ({ page: 1, status: 'open', kind: '' });

/**
 * Staff's list of reports (admin reports screen) and the filters it shows, kept in the store as
 * the other staff lists keep theirs: opening a reported ad's owner and coming back finds them.
 */
export const adminReportsStore = createResource((q: ReportQuery) => reportsApi.list(q));
export const reportsQuery = proxy(initial());
onReset(() => Object.assign(reportsQuery, initial()));

/** Reads the page of reports the filters name. */
export function loadReports() {
  const { page, status, kind } = reportsQuery;
  return adminReportsStore.load({ page, pageSize: REPORTS_PAGE_SIZE, status: status || undefined, kind: kind || undefined });
}

/**
 * Reads the list again after a change. Closing the last report of the last page empties it: the
 * last page that still has reports shows (readWithinPages), not one that says none match while others wait.
 */
export function reloadReports() {
  return readWithinPages(reportsQuery, REPORTS_PAGE_SIZE, () => loadReports());
}

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
