import { api } from './client';
import type { adsApi as adsContract } from '../../contract/api/ads.ts';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

type Ads = typeof adsContract;
export type PendingAdsQuery = QueryOf<Ads['GET /api/admin/get-pending-ads']>;
export type ApprovedAdsQuery = QueryOf<Ads['GET /api/admin/get-approved-ads']>;
export type ReviewDecision = BodyOf<Ads['POST /api/admin/approve-pending-ads']>['decision'];
export type RejectionCategory = NonNullable<BodyOf<Ads['POST /api/admin/approve-pending-ads']>['category']>;
export type ReviewSeen = NonNullable<BodyOf<Ads['POST /api/admin/approve-pending-ads']>['seen']>;

/** A query without its unset fields (URLSearchParams would send them as "undefined"). */
function defined(q: Record<string, string | number | boolean | undefined>): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(q).filter((e): e is [string, string | number | boolean] => e[1] !== undefined));
}

export const adminAdsApi = {
  pendingAds: (q: PendingAdsQuery) => api.get<ResponseOf<Ads['GET /api/admin/get-pending-ads']>>('admin/get-pending-ads', { searchParams: defined(q) }),
  /** `seen`: each item's updatedAt as the reviewer saw it (an approval or a rejection then decides that version only). */
  decide: (adIds: string[], decision: ReviewDecision, reason?: string, category?: RejectionCategory, seen?: ReviewSeen) =>
    api.post<ResponseOf<Ads['POST /api/admin/approve-pending-ads']>>('admin/approve-pending-ads', {
      json: {
        adIds,
        decision,
        ...(reason ? { reason, ...(category ? { category } : {}) } : {}),
        ...(seen ? { seen } : {}),
      } satisfies BodyOf<Ads['POST /api/admin/approve-pending-ads']>,
    }),
  approvedAds: (q: ApprovedAdsQuery) => api.get<ResponseOf<Ads['GET /api/admin/get-approved-ads']>>('admin/get-approved-ads', { searchParams: defined(q) }),
  /** `seen`: each ad's updatedAt as the list showed it (an ad changed since is left as it is). */
  setAdStatus: (adIds: string[], status: BodyOf<Ads['POST /api/admin/set-status-approved-ads']>['status'], seen?: ReviewSeen) =>
    api.post<ResponseOf<Ads['POST /api/admin/set-status-approved-ads']>>('admin/set-status-approved-ads', {
      json: { adIds, status, ...(seen ? { seen } : {}) } satisfies BodyOf<Ads['POST /api/admin/set-status-approved-ads']>,
    }),
};
