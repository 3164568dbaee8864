/**
 * How often each key was asked for lately, near enough: TinyLFU's count-min sketch (Einziger,
 * Friedman and Manes, "TinyLFU: A Highly Efficient Cache Admission Policy", 2017; the policy of
 * Java's Caffeine). A cache full of answers keeps a new one only if it was asked for more often
 * than the one it would push out: a long tail of list pages asked for twice no longer pushes out
 * the searches and ads asked for every second.
 *
 * Each key counts in four of `size` 4-bit counters (one byte each here; 15 at most), picked by its
 * hash; its frequency is the least of the four (collisions only ever add). `size` is 8 counters an
 * entry of the cache at most, a power of two: 512 kB for the API answers' 50,000 entries.
 *
 * All counters are halved every `5 × entries held` askings (100 at least), so what is no longer
 * asked for fades within a few rounds of the cache. Caffeine halves every 10 × its maximum size:
 * here (~30 × the answers held) a change of traffic (the bench's phases, each kind alone after
 * another) left the old answers their counts for tens of seconds, and the cache refused the new
 * ones (searches alone at 17 % of hello-world instead of 47–60 %). Measured in alternating runs of
 * the bench's JSON phases (README, "Public reads"): 3 × held, the mix 9–12 % faster and each kind
 * alone within 4 %; 5 × held, the mix 18–19 % faster and each kind alone 5–11 % slower.
 */
export class FrequencySketch {
  private readonly counts: Uint8Array;
  /** The same bytes, four at a time (halving). */
  private readonly words: Uint32Array;
  private readonly mask: number;
  private added = 0;
  /** Refusals of keys asked for more than five times (every 128th is let in). */
  private warmRefusals = 0;
  /** The last key hashed and its hash: a cache keeps a missed key right after looking it up. */
  private lastKey = '';
  private lastHash = keyHash('');

  constructor(entries: number) {
    let size = 1024;
    while (size < entries * 8) size *= 2;
    this.counts = new Uint8Array(size);
    this.words = new Uint32Array(this.counts.buffer);
    this.mask = size - 1;
  }

  /** keyHash(key), the last key's remembered: a miss's lookup and its keeping hash it once. */
  hashOf(key: string): number {
    if (key !== this.lastKey) {
      this.lastKey = key;
      this.lastHash = keyHash(key);
    }
    return this.lastHash;
  }

  /** Counts one asking of the key whose keyHash() is `h`, in a cache holding `held` entries. */
  add(h: number, held: number): void {
    const c = this.counts;
    for (let i = 0; i < 4; i++) {
      const j = spread(h, i) & this.mask;
      if (c[j] < 15) c[j]++;
    }
    if (++this.added >= Math.max(100, 5 * held)) this.halve();
  }

  /** How often the key whose keyHash() is `h` was asked for (0–15; halved every period). */
  frequency(h: number): number {
    const c = this.counts;
    let f = 15;
    for (let i = 0; i < 4; i++) f = Math.min(f, c[spread(h, i) & this.mask]);
    return f;
  }

  /**
   * Whether a new key (hash `candidate`) should push out a kept one (hash `victim`): only if it was
   * asked for more often. Every 128th refusal of a key asked for more than five times lets it in
   * all the same: keys made to collide with a kept one's counters cannot freeze what a cache holds.
   */
  admits(candidate: number, victim: number): boolean {
    const f = this.frequency(candidate);
    return this.frequency(victim) < f || (f > 5 && ++this.warmRefusals % 128 === 0);
  }

  private halve(): void {
    const w = this.words;
    for (let i = 0; i < w.length; i++) w[i] = (w[i] >>> 1) & 0x7f7f7f7f;
    this.added = 0;
  }
}

/** A key's 32-bit hash (FNV-1a over its UTF-16 units), what FrequencySketch counts by. */
export function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The i-th of a hash's four counters: the hash mixed with i (murmur3's finalizer), so the four are independent. */
function spread(h: number, i: number): number {
  let x = (h + Math.imul(i, 0x9e3779b9)) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
