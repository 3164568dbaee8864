import { FrequencySketch } from './listings.frequency.ts';
import type { ChangeSet } from './listings.tags.ts';

export type Body = string | Buffer;

/**
 * The bytes in a memory block of their own. A small Buffer is a view into a shared 64 kB block
 * (Node's pool), and zlib's output a view into its 64 kB output block: kept in a cache, a 1.5 kB
 * answer would hold on to 64 kB (measured: a cache of 24 MB weighing 1 GB).
 */
export function own(b: Buffer): Buffer {
  return b.byteLength === b.buffer.byteLength ? b : Buffer.from(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

export interface CacheEntry<V = Body> {
  value: V;
  /** Valid until then (ms since epoch): its earliest expiry, or its lifetime. */
  until: number;
  tags: readonly string[];
}

/** The bytes a cached value holds (strings: their length, a fair measure of ASCII JSON). */
export function sizeOf(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (Buffer.isBuffer(v)) return v.byteLength;
  if (v && typeof v === 'object' && 'bytes' in v && typeof (v as { bytes: unknown }).bytes === 'number') return (v as { bytes: number }).bytes;
  return heapBytes(v);
}

/**
 * What a parsed value (home, a state's aggregates) weighs in V8's heap, near enough: 8 bytes a
 * field or element, an object's or array's header, a string's header and characters. A state's
 * aggregates hold a thousand city objects: counted as 1 kB each, the `values` cache's 4 MB was
 * measured at ~14 MB in a heap snapshot at 1M ads. Walked once, when the value is kept.
 */
export function heapBytes(v: unknown): number {
  if (typeof v === 'string') return 16 + v.length;
  if (v === null || typeof v !== 'object') return 0; // numbers and booleans: counted in their field
  if (Array.isArray(v)) {
    let n = 32 + 8 * v.length;
    for (const x of v) n += heapBytes(x);
    return n;
  }
  let n = 32;
  for (const k in v) n += 8 + heapBytes((v as Record<string, unknown>)[k]);
  return n;
}

/** One cache's share of CACHE_MB: its bytes, and how many entries at most. */
export interface CacheBudget {
  bytes: number;
  entries: number;
}

/**
 * CACHE_MB shared out, in the proportions measured at the default of 60 MB: the API's answers 24
 * parts (~20,000 ads of 1.2 kB or lists of 1.4 kB compressed), rendered pages 16 (~4,000 pages'
 * own parts of 3.8 kB), searches' match lists 12 (~11,000 full lists of 200 numbers, ~1.15 kB
 * each with their bookkeeping), the cards searches show 3 (~7,000 of ~450 bytes), parsed values 4
 * (home, the states' aggregates), pages that do not exist 1. Entry counts scale with the bytes:
 * they bound the bookkeeping (keys, tags) the bytes do not count.
 */
export function cacheBudgets(mb: number): {
  answers: CacheBudget;
  pages: CacheBudget;
  searches: CacheBudget;
  cards: CacheBudget;
  values: CacheBudget;
  missing: CacheBudget;
} {
  const parts = { answers: 24, pages: 16, searches: 12, cards: 3, values: 4, missing: 1 }; // of 60, one MB each at the default
  const all = Object.values(parts).reduce((a, b) => a + b, 0);
  const share = (part: number, entriesAtDefault: number): CacheBudget => ({
    bytes: Math.round((mb * 1024 * 1024 * part) / all),
    entries: Math.max(16, Math.round((entriesAtDefault * mb) / all)),
  });
  return {
    answers: share(parts.answers, 50_000),
    pages: share(parts.pages, 10_000),
    searches: share(parts.searches, 30_000),
    cards: share(parts.cards, 8_000),
    values: share(parts.values, 500),
    missing: share(parts.missing, 1000),
  };
}

type Held<V> = CacheEntry<V> & { bytes: number; used: boolean; hash: number };

/** A cache's lookups (hits and misses, over some time) and what it holds against its budget: what the memory health check reports. */
export interface CacheUse {
  name: string;
  hits: number;
  misses: number;
  /** New entries a full cache turned away: asked for less often than those they would push out (admission). */
  refused: number;
  bytes: number;
  maxBytes: number;
  entries: number;
  maxEntries: number;
}

/**
 * Recently used entries, each dropped when a change touches one of its tags (listings.tags.ts) or
 * its time is up; at most `maxEntries` of them and `maxBytes` of values (the server's memory stays
 * bounded whatever the traffic). Counts its hits and misses.
 *
 * Eviction is second-chance (CLOCK): a hit only marks its entry as used; the oldest entry goes
 * unless it was used since it was last passed over, in which case it moves to the end, unmarked.
 * A strict LRU moved the entry on every hit (a delete and an insert in a Map of tens of thousands
 * of entries, with the request's own key string stored into an old-generation table): measured,
 * a third of a cached ad's cost once 20,000 ads were in play.
 *
 * With `admission`, a full cache keeps a new entry only if its key was asked for (get) more often
 * lately than the entry it would push out (FrequencySketch, TinyLFU); otherwise the new one is not
 * kept (set answers false) and the one that stayed is passed over (moved to the end, as a used
 * one). Every 128th new entry refused although asked for more than five times gets in all the
 * same: keys made to collide with a kept one's counters cannot freeze what the cache holds.
 * Measured on the bench's JSON mix at 1M ads (`scripts/bench-load.ts`, 10 s after 20 s of it):
 * the API answers' 24 MB then answered searches 62 % of the time instead of 47 %, city listings
 * 45 % instead of 42 %, ads 87 % instead of 84 %, and the server 25,383 req/s against 19,196.
 */
export class TaggedCache<V = Body> {
  readonly stats = { hits: 0, misses: 0, dropped: 0, refused: 0 };
  private readonly entries = new Map<string, Held<V>>();
  /**
   * The clock's hand: one iterator kept from eviction to eviction. A Map leaves a hole where an
   * entry was deleted until it is rebuilt, and a new iterator walks every hole from the start:
   * measured, 30 µs an eviction at 50,000 entries (evicting from the front leaves tens of
   * thousands of holes), 0.4 µs with the hand kept.
   */
  private hand: MapIterator<[string, Held<V>]> | undefined;
  private readonly byTag = new Map<string, Set<string>>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private bytes = 0;
  private readonly sketch: FrequencySketch | null;

  constructor(maxEntries: number, maxBytes = Number.POSITIVE_INFINITY, opts: { admission?: boolean } = {}) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.sketch = opts.admission ? new FrequencySketch(maxEntries) : null;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Its bounds: entries and bytes. */
  get budget(): CacheBudget {
    return { entries: this.maxEntries, bytes: this.maxBytes };
  }

  /** The bytes of the values kept. */
  get weight(): number {
    return this.bytes;
  }

  /** Whether a key is kept (whatever its time), without counting or marking it. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string, now: number): CacheEntry<V> | undefined {
    const e = this.entries.get(key);
    if (this.sketch) this.sketch.add(e ? e.hash : this.sketch.hashOf(key), this.entries.size);
    if (e && e.until > now) {
      this.stats.hits++;
      e.used = true;
      return e;
    }
    this.stats.misses++;
    if (e) this.delete(key);
    return undefined;
  }

  /** Keeps an entry (replacing the key's); false when admission refused it: not kept. */
  set(key: string, entry: CacheEntry<V>): boolean {
    const bytes = sizeOf(entry.value);
    if (this.entries.has(key)) this.delete(key);
    else if (!this.admitting(key, bytes)) return false;
    this.entries.set(key, { ...entry, bytes, used: false, hash: this.sketch ? this.sketch.hashOf(key) : 0 });
    this.bytes += bytes;
    for (const tag of entry.tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    while (this.entries.size > 1 && (this.entries.size > this.maxEntries || this.bytes > this.maxBytes)) this.evictOne();
    return true;
  }

  /**
   * Makes room for a new entry of `bytes` whose key hashes to `h`, pushing out entries asked for
   * less often than it; false (what was pushed out so far stays out) when the next one to go was
   * asked for as often or more.
   */
  private admit(h: number, bytes: number): boolean {
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.bytes + bytes > this.maxBytes)) if (!this.pushOutFor(h)) return false;
    return true;
  }

  /**
   * Whether a new entry under `key` of `bytes` at least would be let in, for a value costly to make
   * (a compressed answer, whose size is known only once made): asked before it is made. Judges the
   * entries it would push out for those bytes as set() judges them: false is a refusal (counted,
   * the entry that won passed over); true, they are pushed out, and set() goes on from there.
   * admitting(k, b) then set(k, e) does exactly what set(k, e) alone does, for any e of b bytes or more.
   */
  admitting(key: string, bytes: number): boolean {
    if (!this.sketch || this.entries.has(key) || this.admit(this.sketch.hashOf(key), bytes)) return true;
    this.stats.refused++;
    return false;
  }

  /** Judges the next entry to go against a new key hashing to `h`: pushed out (true), or passed over (false: the new key is refused). */
  private pushOutFor(h: number): boolean {
    const [key, victim] = this.nextVictim()!;
    if (!this.sketch!.admits(h, victim.hash)) {
      this.entries.delete(key); // passed over: the hand stays at the front of the order
      this.entries.set(key, victim);
      return false;
    }
    this.delete(key);
    return true;
  }

  /** Drops the oldest entry not used since it was last passed over (each used one passed moves to the end). */
  private evictOne(): void {
    const next = this.nextVictim();
    if (next) this.delete(next[0]);
  }

  /** The oldest entry not used since it was last passed over, left under the hand; each used one passed moves to the end, unmarked. */
  private nextVictim(): [string, Held<V>] | undefined {
    for (;;) {
      let at = this.hand?.next();
      if (!at || at.done) at = (this.hand = this.entries.entries()).next(); // past the last: round again
      if (at.done) return undefined;
      const [key, e] = at.value;
      if (!e.used) return at.value;
      e.used = false;
      this.entries.delete(key);
      this.entries.set(key, e);
    }
  }

  /** A kept value changed size (compressed once asked for again). */
  grew(key: string, by: number): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.bytes += by;
    this.bytes += by;
  }

  /** Drops one entry by its key (a cache keyed by what a change names, not by tags). */
  forget(key: string): void {
    this.delete(key);
  }

  private delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
    for (const tag of e.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys && !keys.size) this.byTag.delete(tag);
    }
  }

  drop(tag: string): void {
    const keys = this.byTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) {
      this.delete(key);
      this.stats.dropped++;
    }
  }

  clear(): void {
    this.stats.dropped += this.entries.size;
    this.entries.clear();
    this.hand = undefined;
    this.byTag.clear();
    this.bytes = 0;
  }

  /** Applies a batch of changes (PublicChanges.subscribe). */
  apply(c: ChangeSet): void {
    if (c.all) this.clear();
    else for (const tag of c.tags) this.drop(tag);
  }
}
