import type { FastifyReply } from 'fastify';
import type { Clock } from '../../core/clock.ts';

/**
 * Serialized public pages (listings, search, aggregates, home), reused while the public set has
 * not changed (ads_public_version) and for at most `ttlMs` (expiry is a matter of time, not of a
 * write). The body is produced by the route's own response serializer, so the schema whitelist
 * applies to what is cached; a hit sends the bytes as they are. Least recently used pages go first.
 */
export class PageCache {
  private readonly pages = new Map<string, { version: number; at: number; body: string }>();
  private readonly clock: Clock;
  private readonly version: () => number;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(opts: { clock: Clock; version: () => number; ttlMs: number; maxEntries: number }) {
    this.clock = opts.clock;
    this.version = opts.version;
    this.ttlMs = opts.ttlMs;
    this.maxEntries = opts.maxEntries;
  }

  /** Sends the cached body for `key`, or computes, serializes, caches and sends it. */
  send(reply: FastifyReply, key: string, compute: () => unknown): FastifyReply {
    const version = this.version();
    const now = this.clock.now().getTime();
    const hit = this.pages.get(key);
    const page = hit && hit.version === version && now - hit.at < this.ttlMs
      ? hit
      // compute() throws for bad input or unknown places: nothing is cached then.
      : { version, at: now, body: String(reply.serialize(compute())) };
    this.pages.delete(key);
    this.pages.set(key, page);
    if (this.pages.size > this.maxEntries) this.pages.delete(this.pages.keys().next().value!);
    return reply.type('application/json; charset=utf-8').send(page.body);
  }
}
