import type { FastifyReply } from 'fastify';
import type { Clock } from '../../core/clock.ts';

type Body = string | Buffer;

/**
 * A cached body in the form that is cheapest to send again. A string body is measured
 * (Buffer.byteLength), joined to the response head and UTF-8 encoded on every send: nearly free
 * for an ASCII string, but ~30 µs for an 18 kB page holding one non-ASCII character (V8 then keeps
 * the whole string two bytes a character). Such a body is kept as its UTF-8 bytes instead; an
 * ASCII one stays a string (one write of head and body, cheaper than head + Buffer for 1 kB).
 */
function toBody(serialized: unknown): Body {
  const s = String(serialized);
  return /[\x80-\uffff]/.test(s) ? Buffer.from(s) : s; // any UTF-16 unit above 0x7f: not ASCII
}

/**
 * Serialized public pages (listings, search, aggregates, home), reused while the public set has
 * not changed (ads_public_version) and for at most `ttlMs` (expiry is a matter of time, not of a
 * write). The body is produced by the route's own response serializer, so the schema whitelist
 * applies to what is cached; a hit sends the bytes as they are (see toBody). Least recently used
 * pages go first.
 */
export class PageCache {
  private readonly pages = new Map<string, { version: number; at: number; body: Body }>();
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
    const page =
      hit && hit.version === version && now - hit.at < this.ttlMs
        ? hit
        : // compute() throws for bad input or unknown places: nothing is cached then.
          { version, at: now, body: toBody(reply.serialize(compute())) };
    this.pages.delete(key);
    this.pages.set(key, page);
    if (this.pages.size > this.maxEntries) this.pages.delete(this.pages.keys().next().value!);
    return reply.type('application/json; charset=utf-8').send(page.body);
  }
}

export interface PublicAdView {
  /** What the route sends (already whitelisted by its response schema when serialized). */
  body: unknown;
  /** Set only when the ad is public right now: then everyone, owner and staff included, sees this same body. */
  publicUntil: string | null;
}

/**
 * Serialized public ads by id, for GET /api/ads/:id. Only an ad that is public when read is kept
 * (an owner's or staff's preview of a hidden ad never is), and an entry is used only while
 * ads_public_version is unchanged (any change of visibility, bump, place, owner status or
 * location status bumps it; ad content is never edited in place) and its expiry is ahead.
 */
export class AdCache {
  private readonly ads = new Map<string, { version: number; at: number; until: number; body: Body }>();
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

  get size(): number {
    return this.ads.size;
  }

  send(reply: FastifyReply, id: string, compute: () => PublicAdView): FastifyReply {
    const version = this.version();
    const now = this.clock.now().getTime();
    const hit = this.ads.get(id);
    if (hit && hit.version === version && now - hit.at < this.ttlMs && hit.until > now) {
      return reply.type('application/json; charset=utf-8').send(hit.body);
    }
    if (hit) this.ads.delete(id);
    // compute() throws NotFound for an unknown or hidden ad: nothing is cached then.
    const view = compute();
    const body = toBody(reply.serialize(view.body));
    if (view.publicUntil) {
      this.ads.set(id, { version, at: now, until: Date.parse(view.publicUntil), body });
      if (this.ads.size > this.maxEntries) this.ads.delete(this.ads.keys().next().value!);
    }
    return reply.type('application/json; charset=utf-8').send(body);
  }
}
