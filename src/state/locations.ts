import { createResource } from './resource';
import { locationsApi } from '../api/locations';

/** The seed's `states` and `citiesForState` data areas (public lists; staff pass isAll). */
export const statesStore = createResource(async (isAll: boolean = false) => (await locationsApi.states(isAll)).states);
export const citiesForStateStore = createResource(async (stateId: string, isAll: boolean = false) => (await locationsApi.cities(stateId, isAll)).cities);
