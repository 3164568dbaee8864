import { api } from './client';
import type { moderationApi as Routes } from '../../contract/api/moderation.ts';
import type { adsApi as AdsRoutes } from '../../contract/api/ads.ts';
import type { analyticsApi as AnalyticsRoutes } from '../../contract/api/analytics.ts';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

// Every shape here is the contract's (contract/api/moderation.ts), imported as types only.
type M = typeof Routes;
export type SearchQuery = QueryOf<M['GET /api/admin/search-ads']>;
export type SearchPage = ResponseOf<M['GET /api/admin/search-ads']>;
export type ModAd = SearchPage['ads'][number];
export type SearchStatus = ModAd['status'];
export type UserDetail = ResponseOf<M['GET /api/admin/get-user/:id']>;
export type LegalHold = UserDetail['holds'][number];
export type HoldTarget = LegalHold['targetType'];
export type HoldsPage = ResponseOf<M['GET /api/admin/get-legal-holds']>;
export type DuplicateFlag = ResponseOf<M['GET /api/admin/get-duplicate-flags']>['flags'][number];
export type Transparency = ResponseOf<M['GET /api/transparency']>;
export type TransparencyMonth = Transparency['months'][number];
export type ScreeningPage = ResponseOf<(typeof AdsRoutes)['GET /api/admin/get-screening-log']>;
export type PageViews = ResponseOf<(typeof AnalyticsRoutes)['GET /api/admin/get-page-views']>;

export const SEARCH_STATUSES: SearchStatus[] = ['unpaid', 'in_review', 'approved', 'rejected', 'disabled', 'expired', 'deleted'];
export const REJECTION_CATEGORIES: NonNullable<BodyOf<(typeof AdsRoutes)['POST /api/admin/approve-pending-ads']>['category']>[] = [
  'underage_suspected',
  'trafficking_suspected',
  'prohibited_content',
  'spam',
  'misleading',
  'other',
];

/** A query without its empty fields. */
function defined<T extends Record<string, unknown>>(q: T): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number | boolean>;
}

/** The moderators' tools (/api/admin, staff only) and the public transparency report. */
export const moderationApi = {
  search: (q: SearchQuery) => api.get<SearchPage>('admin/search-ads', { searchParams: defined(q) }),
  user: (id: string) => api.get<UserDetail>(`admin/get-user/${encodeURIComponent(id)}`),
  placeHold: (body: BodyOf<M['POST /api/admin/place-legal-hold']>) =>
    api.post<ResponseOf<M['POST /api/admin/place-legal-hold'], 201>>('admin/place-legal-hold', { json: body }),
  releaseHold: (body: BodyOf<M['POST /api/admin/release-legal-hold']>) =>
    api.post<ResponseOf<M['POST /api/admin/release-legal-hold']>>('admin/release-legal-hold', { json: body }),
  holds: (q: QueryOf<M['GET /api/admin/get-legal-holds']>) => api.get<HoldsPage>('admin/get-legal-holds', { searchParams: defined(q) }),
  duplicateFlags: (adIds: readonly string[]) =>
    api.get<ResponseOf<M['GET /api/admin/get-duplicate-flags']>>('admin/get-duplicate-flags', { searchParams: { adIds: adIds.join(',') } }),
  screeningLog: (q: QueryOf<(typeof AdsRoutes)['GET /api/admin/get-screening-log']>) =>
    api.get<ScreeningPage>('admin/get-screening-log', { searchParams: defined(q) }),
  pageViews: (days: number) => api.get<PageViews>('admin/get-page-views', { searchParams: { days } }),
  // A public page: a 401/403 must never bounce the visitor to the login page.
  transparency: () => api.get<Transparency>('transparency', { redirectOnAuth: false }),
};

/** Where the browser downloads an evidence file (a plain link: the server answers with the ZIP). */
export const evidenceUrl = (id: string) => `/api/admin/export-evidence/${encodeURIComponent(id)}`;
