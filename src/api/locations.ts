import { api } from './client';

export interface State {
  id: string;
  name: string;
  code: string;
  slug: string;
  countryCode: string;
  enabled: boolean;
}
export interface City {
  id: string;
  stateId: string;
  name: string;
  slug: string;
  population: number;
  latitude: number;
  longitude: number;
  enabled: boolean;
}

export const locationsApi = {
  states: (isAll = false) => api.get<{ states: State[] }>('states-from-country', { searchParams: isAll ? { isAll: true } : {} }),
  cities: (stateId: string, isAll = false) =>
    api.get<{ cities: City[] }>(`cities-from-state/${encodeURIComponent(stateId)}`, { searchParams: isAll ? { isAll: true } : {} }),
};
