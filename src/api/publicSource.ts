import { listingsApi } from './listings';
import { locationsApi } from './locations';
import type { PublicSource } from '../app/loaders';

/**
 * The page loaders' source in the browser: the public API. A failed call throws an ApiError,
 * whose `status` (404, 410) the loaders read.
 */
export const publicSource: PublicSource = {
  home: () => listingsApi.home(),
  states: async () => (await locationsApi.states(false)).states.map((s) => ({ id: s.id, name: s.name, slug: s.slug })),
  aggregate: async (type, state) => (await listingsApi.aggregate(type, state)).locations,
  stateCounts: async (type) => (await listingsApi.stateCounts(type)).states,
  listings: (q) => listingsApi.list(q),
  ad: async (id) => (await listingsApi.ad(id)).ad,
  search: (q) => listingsApi.search(q),
  // Loaded when asked for: the home page imports this module, and its first script stays small.
  transparency: async () => (await import('./moderation')).moderationApi.transparency(),
};
