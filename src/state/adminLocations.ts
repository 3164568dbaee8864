import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { adminLocationsApi } from '../api/admin-locations';
import { locationsApi } from '../api/locations';

export const CITY_PAGE_SIZE = 25;

/**
 * The seed's `adminLocations` data area: every state, enabled or not (isAll), kept apart from the
 * public `states` area so disabled states never leak into the public pickers.
 */
export const adminStatesStore = createResource(async () => (await locationsApi.states(true)).states);

export const cityQuery = proxy({ stateId: '', query: '', page: 1 });
onReset(() => Object.assign(cityQuery, { stateId: '', query: '', page: 1 }));

export const adminCitiesStore = createResource(() =>
  adminLocationsApi.citiesByState({ stateId: cityQuery.stateId, query: cityQuery.query.trim(), page: cityQuery.page, pageSize: CITY_PAGE_SIZE }),
);

export async function setStateEnabled(stateId: string, enabled: boolean): Promise<void> {
  const unchanged = sessionCheck();
  await adminLocationsApi.setPlacesEnabled({ stateId, enabled });
  if (!unchanged()) return;
  const s = adminStatesStore.state.data?.find((x) => x.id === stateId);
  if (s) s.enabled = enabled;
}

export async function setCitiesEnabled(stateId: string, cityIds: string[], enabled: boolean): Promise<void> {
  const unchanged = sessionCheck();
  await adminLocationsApi.setPlacesEnabled({ stateId, cityIds, enabled });
  if (!unchanged()) return;
  for (const c of adminCitiesStore.state.data?.cities ?? []) if (cityIds.includes(c.id)) c.enabled = enabled;
}
