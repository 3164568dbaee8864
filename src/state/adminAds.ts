import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { readWithinPages } from './paging';
import { adminAdsApi, type ApprovedAdsQuery, type RejectionCategory, type ReviewDecision, type ReviewSeen } from '../api/admin-ads';

export const ADMIN_PAGE_SIZE = 20;

/** The seed's `adminPendingAds` data area, with the list's query. */
export const pendingQuery = proxy({ page: 1, includeUnpaid: false, query: '' });
export const adminPendingAdsStore = createResource(() =>
  adminAdsApi.pendingAds({
    page: pendingQuery.page,
    pageSize: ADMIN_PAGE_SIZE,
    includeUnpaid: pendingQuery.includeUnpaid,
    query: pendingQuery.query || undefined,
  }),
);

/** The seed's `adminApprovedAds` data area, with the list's query. */
export const approvedQuery = proxy<{ page: number; status: '' | NonNullable<ApprovedAdsQuery['status']>; query: string }>({ page: 1, status: '', query: '' });
export const adminApprovedAdsStore = createResource(() =>
  adminAdsApi.approvedAds({
    page: approvedQuery.page,
    pageSize: ADMIN_PAGE_SIZE,
    status: approvedQuery.status || undefined,
    query: approvedQuery.query || undefined,
  }),
);

onReset(() => {
  Object.assign(pendingQuery, { page: 1, includeUnpaid: false, query: '' });
  Object.assign(approvedQuery, { page: 1, status: '', query: '' });
});

/** Reads a list again after a change, the page it was on or, when the change emptied it, the last (readWithinPages). */
async function reloadList(q: { page: number }, load: () => Promise<{ total: number } | null>): Promise<void> {
  await readWithinPages(q, ADMIN_PAGE_SIZE, () => load());
}

/** Approves or rejects ads, then reloads the list (counts and pages change). */
export async function decidePendingAds(
  adIds: string[],
  decision: ReviewDecision,
  reason?: string,
  category?: RejectionCategory,
  seen?: ReviewSeen,
): Promise<number> {
  const unchanged = sessionCheck();
  const { updated } = await adminAdsApi.decide(adIds, decision, reason, category, seen);
  if (unchanged()) await reloadList(pendingQuery, adminPendingAdsStore.load);
  return updated;
}

/** Disables or enables ads as `seen` shows them (an ad changed since is left as it is), then reloads the list. */
export async function setApprovedAdsStatus(adIds: string[], status: 'approved' | 'disabled', seen?: ReviewSeen): Promise<number> {
  const unchanged = sessionCheck();
  const { updated } = await adminAdsApi.setAdStatus(adIds, status, seen);
  if (unchanged()) await reloadList(approvedQuery, adminApprovedAdsStore.load);
  return updated;
}
