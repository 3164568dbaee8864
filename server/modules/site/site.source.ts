import type { PublicSource, StateRef } from '../../../src/app/loaders.ts';
import type { ListingsService } from '../listings/listings.service.ts';
import type { Answer } from '../listings/listings.cache.ts';

/**
 * The page loaders' source on the server: the listings service itself (no HTTP), as a guest sees
 * it. Records what every answer read depends on (its tags) and until when it holds, so the
 * rendered page is cached by the same keys as the API's answers and dropped with them.
 */
export class ServerSource implements PublicSource {
  readonly tags = new Set<string>();
  until = Number.POSITIVE_INFINITY;
  private readonly service: ListingsService;

  constructor(listings: ListingsService) {
    this.service = listings;
  }

  private use<T>(a: Answer<T>): Answer<T> {
    for (const t of a.tags) this.tags.add(t);
    this.until = Math.min(this.until, a.until);
    return a;
  }

  // Async like the browser's source: a service's throw (404, 410) becomes a rejected promise.
  async home() {
    return this.use(this.service.home()).value!;
  }

  async states(): Promise<StateRef[]> {
    return this.use(this.service.states()).value!.map((s) => ({ id: s.id, name: s.name, slug: s.slug }));
  }

  async aggregate(type: string, state?: string) {
    return this.use(this.service.aggregate(type, state)).value!.locations;
  }

  async stateCounts(type: string) {
    return this.use(this.service.stateCounts(type)).value!.states;
  }

  async listings(q: { state: string; city: string; type: string; page: number }) {
    return JSON.parse(this.use(this.service.listings(q)).json!);
  }

  async ad(id: string) {
    const a = this.use(this.service.ad(id, null));
    return a.value!.ad;
  }

  async search(q: { query: string; state?: string; type?: string; page: number }) {
    return JSON.parse(this.use(this.service.search(q)).json!);
  }
}
