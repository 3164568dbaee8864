import { createResource } from './resource';
import { api } from '../api/client';
import type { ListingType } from '../app/routes';

export interface HomeData {
  types: Array<{ listingType: ListingType; count: number }>;
  topStates: Array<{ stateId: string; slug: string; name: string; count: number }>;
}

/** The home page's counts (GET /api/home): listing types and the states with most ads. */
export const homeStore = createResource(async (): Promise<HomeData> => {
  const data = await api.get<Partial<HomeData>>('home', { redirectOnAuth: false });
  return { types: Array.isArray(data?.types) ? data.types : [], topStates: Array.isArray(data?.topStates) ? data.topStates : [] };
});
