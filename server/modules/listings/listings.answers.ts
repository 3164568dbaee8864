import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { accepts } from '../../core/encoding.ts';
import { own, sizeOf, TaggedCache, type Body } from './listings.cache.ts';

// The public API's answers as they are kept and sent (AnswerCache), what an answer depends on
// (Answer, and refused() for the errors a page keeps), and the doorkeeper in front of the caches.

/**
 * A body in the form that is cheapest to send and keep. A string body is measured
 * (Buffer.byteLength), joined to the response head and UTF-8 encoded on every send: nearly free
 * for an ASCII string, but ~30 µs for an 18 kB page holding one non-ASCII character (V8 then keeps
 * the whole string two bytes a character). Such a body is kept as its UTF-8 bytes instead; a small
 * ASCII one stays a string (one write of head and body, cheaper than head + Buffer for 1 kB). A
 * large one is always bytes, outside the JavaScript heap: kept as a string it would be promoted to
 * the old generation and, pushed out by later misses, left there as garbage (measured: 400 MB of
 * heap on a run of misses, twice the memory for the same answers); it is encoded at once, without
 * the scan for a character past ASCII (3 % of an uncached list's time).
 */
export function toBody(s: string): Body {
  if (s.length >= COMPRESS_FROM) return own(Buffer.from(s));
  return /[\x80-\uffff]/.test(s) ? own(Buffer.from(s)) : s; // any UTF-16 unit above 0x7f: not ASCII
}

/** A public answer and what it depends on. `json` is the body when already serialized. */
export interface Answer<T = unknown> {
  value?: T;
  json?: string;
  tags: readonly string[];
  /** Holds until then (ms since epoch) at the latest. */
  until: number;
}

/** What a refused public read (a 404 or 410) depended on, as an answer's tags and lifetime. */
export interface Refusal {
  tags: readonly string[];
  until: number;
}
const REFUSAL = Symbol('refusal');

/**
 * Marks a public read's error with what it depends on. The API keeps no error, but a page keeps
 * its 404 or 410 (the missing pages' cache) by the tags its loaders read: a hidden ad's page, or a
 * list's page past its end, must go when the ad comes back or the list grows, not an hour later.
 */
export function refused<E extends Error>(err: E, tags: readonly string[], until = Number.POSITIVE_INFINITY): E {
  (err as E & { [REFUSAL]?: Refusal })[REFUSAL] = { tags, until };
  return err;
}

/** What an error thrown by a public read depended on (see refused()), if it says. */
export function refusalOf(err: unknown): Refusal | undefined {
  return err instanceof Error ? (err as Error & { [REFUSAL]?: Refusal })[REFUSAL] : undefined;
}

/** Answers from this size on are kept compressed: a list of 20 cards, 9 kB, is 1.5 kB so. */
const COMPRESS_FROM = 2048;

/** A kept answer: the body itself, or its brotli bytes (large ones, once a browser asked for them). */
interface Kept {
  br: Buffer | null;
  raw: Body | null;
  bytes: number;
}

/**
 * Brotli at quality 1 with a 2^18 window (small encoder buffers), ~15 µs for a 9 kB list. Quality
 * 1 against 0 (measured on lists and ads at 1M ads): 9 % smaller (a 9 kB list 1,519 bytes against
 * 1,665; ads and searches 923 against 998), so the cache holds 9 % more, for 1–2 µs; quality 3 is
 * 6 % smaller again but takes twice as long.
 */
const quickBrotli = (body: Body) =>
  brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 18, [constants.BROTLI_PARAM_SIZE_HINT]: sizeOf(body) },
  });

const acceptsBrotli = (reply: FastifyReply) => accepts(reply.request.headers['accept-encoding'], 'br');

/**
 * Adds to the answer's Vary (a route may have set one: the ad's, by who asks). An answer large
 * enough to be sent compressed to a browser says Vary: accept-encoding whichever encoding it goes
 * out in, or a shared cache would hand the uncompressed copy a client without brotli got first to
 * every browser (RFC 9110 §12.5.5).
 */
function vary(reply: FastifyReply, on: string): void {
  const set = reply.getHeader('vary');
  reply.header('vary', set === undefined ? on : `${String(set)}, ${on}`);
}

function sendKept(reply: FastifyReply, k: Kept): FastifyReply {
  reply.type('application/json; charset=utf-8');
  if (!k.br) {
    if (k.bytes >= COMPRESS_FROM) vary(reply, 'accept-encoding');
    return reply.send(k.raw);
  }
  vary(reply, 'accept-encoding');
  if (acceptsBrotli(reply)) return reply.header('content-encoding', 'br').send(k.br);
  return reply.send(brotliDecompressSync(k.br)); // a client without brotli (curl, scripts): rare
}

/**
 * Which keys were asked for before: an answer is kept from its second asking on (the
 * "doorkeeper" of TinyLFU). Most of a crawl's and a long tail's URLs are asked for once; kept at
 * once, each pushed an answer that would be asked for again out of the cache. A bitset with two
 * FNV-1a hashes of the key, 2^20 bits (128 kB); once `capacity` keys went in it starts empty
 * again (false "seen before": under 1 % at half the default capacity, ~3 % when full). A false
 * "seen" only keeps an answer at its first asking, as before; a key forgotten at a reset waits for
 * one more asking.
 */
export class Doorkeeper {
  private readonly bits = new Uint32Array(1 << 15);
  private added = 0;
  private readonly capacity: number;

  constructor(capacity = 100_000) {
    this.capacity = capacity;
  }

  /** True when `key` was asked for since the last reset; else notes it and answers false. */
  seen(key: string): boolean {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    const a = (h1 >>> 0) & 0xfffff;
    const b = (h2 >>> 0) & 0xfffff;
    const hasA = (this.bits[a >>> 5] >>> (a & 31)) & 1;
    const hasB = (this.bits[b >>> 5] >>> (b & 31)) & 1;
    if (hasA && hasB) return true;
    if (++this.added > this.capacity) {
      this.bits.fill(0);
      this.added = 1;
    }
    this.bits[a >>> 5] |= 1 << (a & 31);
    this.bits[b >>> 5] |= 1 << (b & 31);
    return false;
  }
}

/**
 * Sends public answers (listings, search, aggregates, home, an ad) from a TaggedCache, as bytes:
 * the large ones brotli-compressed (six times fewer bytes to keep and to send). A miss computes
 * the answer (after `sync` brought the caches up to date), serializes it with the route's own
 * response serializer unless it came serialized (so the schema whitelist applies to what is
 * cached), and keeps it for at most `ttlMs`.
 */
export class AnswerCache {
  readonly cache: TaggedCache<Kept>;
  private readonly sync: () => boolean;
  private readonly now: () => number;
  private readonly busy: () => boolean;
  private readonly ttlMs: number;
  private readonly door = new Doorkeeper();

  constructor(opts: { sync: () => boolean; now: () => number; busy: () => boolean; ttlMs: number; maxEntries: number; maxBytes: number }) {
    this.cache = new TaggedCache(opts.maxEntries, opts.maxBytes, { admission: true });
    this.sync = opts.sync;
    this.now = opts.now;
    this.busy = opts.busy;
    this.ttlMs = opts.ttlMs;
  }

  /** Sends the kept answer for `key`, or computes, serializes, keeps and sends it. */
  send(reply: FastifyReply, key: string, compute: () => Answer): FastifyReply {
    const consistent = this.sync();
    const now = this.now();
    const hit = consistent ? this.cache.get(key, now) : undefined;
    if (hit) {
      const k = hit.value;
      // First asked for by a client without brotli, now by a browser: compressed once.
      if (k.raw !== null && k.bytes >= COMPRESS_FROM && acceptsBrotli(reply)) {
        k.br = own(quickBrotli(k.raw));
        k.raw = null;
        this.cache.grew(key, k.br.byteLength - k.bytes);
        k.bytes = k.br.byteLength;
      }
      return sendKept(reply, k);
    }
    // compute() throws for bad input, unknown places and hidden ads: nothing is kept then.
    const a = compute();
    const body = toBody(a.json ?? (reply.serialize(a.value) as string));
    // An answer that holds for no time at all (an owner's preview of a hidden ad) is never kept;
    // the others from their second asking on (Doorkeeper: measured, the uncached listing pages
    // +28 %, city listings with flips +12 %, peak RSS −40 MB, on the bench's traffic).
    const keep = consistent && a.until > now && this.door.seen(key);
    const until = Math.min(a.until, now + this.ttlMs);
    // Compressed at once (measured at quality 0, now 1: quickBrotli): the cache then holds six
    // times as many answers and a browser gets 1.5 kB instead of 9. The bench's listings and mix
    // gained 9–23 % and 9–15 %; its uncached listing pages (each asked for once) lost 9–37 %
    // (before the doorkeeper).
    // Except an answer not kept while the event loop is saturated (core/load.ts): its 20 µs of
    // brotli would serve this one request only. Sent as it is (two alternating pairs of the
    // bench's JSON phases at 1M ads): the uncached listing pages +25–29 %, the mix with flips
    // +17–24 %, the server's CPU a request in that mix 46–47 µs against 55–59.
    const compressible = typeof body !== 'string' && body.byteLength >= COMPRESS_FROM;
    const large = compressible && acceptsBrotli(reply);
    // A large answer asks the full cache first whether it would be let in (admission by frequency):
    // refused, its brotli would be for this one request too. On the bench's city listings at 1M ads,
    // 71 % of the answers compressed to be kept were refused.
    const kept = keep && (!large || this.cache.admitting(key, body.byteLength >>> 3)); // brotli: a list ~6 times smaller
    if (large && (kept || !this.busy())) {
      const br = quickBrotli(body);
      const k: Kept = { br: kept ? own(br) : br, raw: null, bytes: br.byteLength };
      if (kept) this.cache.set(key, { value: k, until, tags: a.tags });
      return sendKept(reply, k);
    }
    if (kept) this.cache.set(key, { value: { br: null, raw: body, bytes: sizeOf(body) }, until, tags: a.tags });
    if (compressible) vary(reply, 'accept-encoding');
    return reply.type('application/json; charset=utf-8').send(body);
  }
}
