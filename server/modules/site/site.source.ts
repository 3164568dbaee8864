import type { PublicSource, StateRef } from '../../../src/app/loaders.ts';
import type { Clock } from '../../core/clock.ts';
import type { Services } from '../../services.ts';
import type { ListingsService } from '../listings/listings.service.ts';
import type { ModerationService } from '../moderation/moderation.service.ts';
import { refusalOf, type Answer } from '../listings/listings.answers.ts';

/**
 * The transparency report changes with no listings change to drop its page by: a page showing it
 * is kept as long as the API lets browsers keep the report (GET /api/transparency, max-age=300).
 */
const TRANSPARENCY_TTL_MS = 300_000;

/**
 * The page loaders' source on the server: the listings service itself (no HTTP), as a guest sees
 * it. Records what every answer read depends on (its tags) and until when it holds, so the
 * rendered page is cached by the same keys as the API's answers and dropped with them.
 */
export class ServerSource implements PublicSource {
  readonly tags = new Set<string>();
  until = Number.POSITIVE_INFINITY;
  private readonly service: ListingsService;
  private readonly moderation: ModerationService;
  private readonly clock: Clock;

  constructor(services: Pick<Services, 'listings' | 'moderation'>, clock: Clock) {
    this.service = services.listings;
    this.moderation = services.moderation;
    this.clock = clock;
  }

  private depend(a: { tags: readonly string[]; until: number }): void {
    for (const t of a.tags) this.tags.add(t);
    this.until = Math.min(this.until, a.until);
  }

  /** A read, recorded; its refusal too (a hidden ad's 404, a page past a list's end): the page showing it is kept by what it depended on. */
  private read<T>(answer: () => Answer<T>): Answer<T> {
    try {
      const a = answer();
      this.depend(a);
      return a;
    } catch (err) {
      const r = refusalOf(err);
      if (r) this.depend(r);
      throw err;
    }
  }

  // Async like the browser's source: a service's throw (404, 410) becomes a rejected promise.
  async home() {
    return this.read(() => this.service.home()).value!;
  }

  async states(): Promise<StateRef[]> {
    return this.read(() => this.service.states()).value!.map((s) => ({ id: s.id, name: s.name, slug: s.slug }));
  }

  async aggregate(type: string, state?: string) {
    return this.read(() => this.service.aggregate(type, state)).value!.locations;
  }

  async stateCounts(type: string) {
    return this.read(() => this.service.stateCounts(type)).value!.states;
  }

  async listings(q: { state: string; city: string; type: string; page: number }) {
    return JSON.parse(this.read(() => this.service.listings(q)).json!);
  }

  async ad(id: string) {
    const a = this.read(() => this.service.ad(id, null));
    return a.value!.ad;
  }

  async search(q: { query: string; state?: string; type?: string; page: number }) {
    return JSON.parse(this.read(() => this.service.search(q)).json!);
  }

  async transparency() {
    this.until = Math.min(this.until, this.clock.now().getTime() + TRANSPARENCY_TTL_MS);
    return this.moderation.transparency();
  }
}
