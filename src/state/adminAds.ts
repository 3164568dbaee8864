import { proxy } from 'valtio';
import { createResource, onReset } from './resource';
import { adminMarketApi } from '../api/admin-market';

export const ADMIN_PAGE_SIZE = 20;

/** The seed's `adminPendingAds` data area, with the list's query. */
export const pendingQuery = proxy({ page: 1, includeUnpaid: false });
export const adminPendingAdsStore = createResource(() =>
  adminMarketApi.pendingAds({ page: pendingQuery.page, pageSize: ADMIN_PAGE_SIZE, includeUnpaid: pendingQuery.includeUnpaid }),
);

/** The seed's `adminApprovedAds` data area, with the list's query. */
export const approvedQuery = proxy({ page: 1, status: '' });
export const adminApprovedAdsStore = createResource(() =>
  adminMarketApi.approvedAds({ page: approvedQuery.page, pageSize: ADMIN_PAGE_SIZE, status: approvedQuery.status || undefined }),
);

onReset(() => {
  Object.assign(pendingQuery, { page: 1, includeUnpaid: false });
  Object.assign(approvedQuery, { page: 1, status: '' });
});

/** Approves or rejects ads, then reloads the list (counts and pages change). */
export async function decidePendingAds(adIds: string[], decision: 'approve' | 'reject', reason?: string): Promise<number> {
  const { updated } = await adminMarketApi.decide(adIds, decision, reason);
  await adminPendingAdsStore.load();
  return updated;
}

export async function setApprovedAdsStatus(adIds: string[], status: 'approved' | 'disabled'): Promise<number> {
  const { updated } = await adminMarketApi.setAdStatus(adIds, status);
  await adminApprovedAdsStore.load();
  return updated;
}
