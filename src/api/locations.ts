import { api } from './client';
import type { locationsApi as contract } from '../../contract/api/locations.ts';
import type { ResponseOf } from '../../contract/api/types.ts';

type LocationsApi = typeof contract;
type StatesAnswer = ResponseOf<LocationsApi['GET /api/states-from-country']>;
type CitiesAnswer = ResponseOf<LocationsApi['GET /api/cities-from-state/:stateId']>;
export type State = StatesAnswer['states'][number];
export type City = CitiesAnswer['cities'][number];

/** isAll: disabled places too (staff only). */
const isAllParams = (isAll: boolean): Record<string, boolean> => (isAll ? { isAll: true } : {});

export const locationsApi = {
  states: (isAll = false) => api.get<StatesAnswer>('states-from-country', { searchParams: isAllParams(isAll) }),
  /** `stateId`: the state's id, code or slug. */
  cities: (stateId: string, isAll = false) => api.get<CitiesAnswer>(`cities-from-state/${encodeURIComponent(stateId)}`, { searchParams: isAllParams(isAll) }),
};
