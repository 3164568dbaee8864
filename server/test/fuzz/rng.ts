// A small seeded PRNG (mulberry32): the same seed gives the same inputs on every machine, so a
// failure found in CI reproduces locally with FUZZ_SEED=<the printed seed>.

/** FNV-1a over the parts: a stable 32-bit seed for (run seed, route). */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u0001')) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (!items.length) throw new Error('pick from an empty list');
    return items[this.int(items.length)];
  }

  /** Picks by weight: [[weight, value], …]; entries with weight 0 are never picked. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T {
    const total = entries.reduce((n, [w]) => n + w, 0);
    let r = this.next() * total;
    for (const [w, v] of entries) {
      if (w <= 0) continue;
      r -= w;
      if (r < 0) return v;
    }
    return entries.filter(([w]) => w > 0).at(-1)![1];
  }
}
