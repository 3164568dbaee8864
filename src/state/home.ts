import { createResource } from './resource';
import { listingsApi, type HomeCounts } from '../api/listings';

export type HomeData = HomeCounts;

/** The home page's counts (GET /api/home): listing types and the states with most ads. */
export const homeStore = createResource((): Promise<HomeData> => listingsApi.home());
