import { api } from './client';
import type { locationsApi as contract } from '../../contract/api/locations.ts';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

type LocationsApi = typeof contract;
type CitiesByState = LocationsApi['GET /api/admin/get-cities-by-state'];
type SetStatus = LocationsApi['POST /api/admin/set-status-state-cities'];
export type CitiesPage = ResponseOf<CitiesByState>;
export type CitiesQuery = QueryOf<CitiesByState>;

export const adminLocationsApi = {
  /** An empty `query` is left out (every city of the state). */
  citiesByState: ({ query, ...rest }: CitiesQuery) => api.get<CitiesPage>('admin/get-cities-by-state', { searchParams: query ? { ...rest, query } : rest }),
  /** Without cityIds: the state itself; with cityIds: those cities of it. */
  setPlacesEnabled: (body: BodyOf<SetStatus>) => api.post<ResponseOf<SetStatus>>('admin/set-status-state-cities', { json: body }),
};
