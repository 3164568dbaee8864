import { api } from './client';
import type { healthApi as contract } from '../../contract/api/health.ts';
import type { QueryOf, ResponseOf } from '../../contract/api/types.ts';

type HealthApi = typeof contract;
type ListChecks = HealthApi['GET /api/admin/get-health-check'];
type RunChecks = HealthApi['POST /api/admin/run-health-check'];
type DeleteCheck = HealthApi['DELETE /api/admin/delete-health-check-by-id/:id'];
type Overview = HealthApi['GET /api/admin/get-overview'];

export type HealthChecksPage = ResponseOf<ListChecks>;
/** One check of one run: ok, degraded or failing, with its message and duration. */
export type HealthCheck = HealthChecksPage['healthChecks'][number];
/** The page's filter: every field set; an empty name means every check (and is not sent). */
export type HealthQuery = Required<QueryOf<ListChecks>>;
export type AdminOverview = ResponseOf<Overview>;

export const healthApi = {
  list: ({ name, ...paging }: HealthQuery) => api.get<HealthChecksPage>('admin/get-health-check', { searchParams: name ? { ...paging, name } : paging }),
  run: () => api.post<ResponseOf<RunChecks>>('admin/run-health-check', { json: {} }),
  remove: (id: number) => api.delete<ResponseOf<DeleteCheck>>(`admin/delete-health-check-by-id/${id}`),
  overview: () => api.get<AdminOverview>('admin/get-overview'),
};
