// What the caches built on the public reads hold and how they are used, against their budgets:
// what the memory health check reports (health.service.ts).
import type { CacheBudget, CacheUse } from './listings.cache.ts';
import type { ListingsService } from './listings.service.ts';

/** Every cache's lookups since the server started and what it holds, against its budget (the memory health check). */
export function cacheUse(listings: ListingsService): CacheUse[] {
  const caches: [string, { stats: { hits: number; misses: number; refused: number }; weight: number; size: number; budget: CacheBudget }][] = [
    ...listings.caches,
    ['searches', listings.matches],
    ['cards', listings.cards.cache],
  ];
  return caches.map(([name, c]) => ({
    name,
    hits: c.stats.hits,
    misses: c.stats.misses,
    refused: c.stats.refused,
    bytes: c.weight,
    maxBytes: c.budget.bytes,
    entries: c.size,
    maxEntries: c.budget.entries,
  }));
}
