// The pure parts of the benchmark (scripts/bench.ts and its load generator): the traffic model's
// samplers, the search queries built from real ad text, a mergeable latency histogram, and the
// load generator's HTTP/1.1 response reader.

/** Zipf(s) popularity of ranks 1…n: rank r weighs 1 / r^s (s = 0: all equal). */
export function zipfWeights(n: number, s: number): Float64Array {
  const w = new Float64Array(n);
  for (let r = 0; r < n; r++) w[r] = 1 / Math.pow(r + 1, s);
  return w;
}

/**
 * Picks an index with probability proportional to its weight: a cumulative table and a binary
 * search (O(log n) a pick, no allocation). Zero weights are never picked.
 */
export function weightedPicker(weights: ArrayLike<number>): (rand: () => number) => number {
  const cumulative = new Float64Array(weights.length);
  let sum = 0;
  for (let i = 0; i < weights.length; i++) cumulative[i] = sum += Math.max(0, weights[i]);
  if (!(sum > 0)) throw new Error('weightedPicker: no positive weight');
  return (rand) => {
    const x = rand() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * A random order of the indexes with a positive weight, drawn by weight without replacement
 * (Efraimidis–Spirakis: each index gets the key ln(u) / w, largest first): the first k indexes are
 * a weighted sample of k distinct ones.
 */
export function weightedOrder(weights: ArrayLike<number>, rand: () => number): number[] {
  const index: number[] = [];
  const keys = new Float64Array(weights.length);
  for (let i = 0; i < weights.length; i++)
    if (weights[i] > 0) {
      keys[i] = Math.log(1 - rand()) / weights[i];
      index.push(i);
    }
  return index.sort((a, b) => keys[b] - keys[a]);
}

/** Fisher–Yates, in place. */
export function shuffle<T>(list: T[], rand: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/**
 * Splits `total` into whole parts proportional to the weights (largest remainder): the parts sum to
 * `total` exactly, and no part exceeds its cap.
 */
export function apportion(weights: number[], total: number, caps: number[] = weights): number[] {
  const parts = weights.map(() => 0);
  let left = Math.min(
    total,
    caps.reduce((a, c) => a + c, 0),
  );
  // A few passes: what a capped part cannot take goes to the others.
  while (left > 0) {
    const open = weights.map((w, i) => (parts[i] < caps[i] && w > 0 ? i : -1)).filter((i) => i >= 0);
    if (!open.length) break;
    const sum = open.reduce((a, i) => a + weights[i], 0);
    const exact = open.map((i) => ({ i, x: (left * weights[i]) / sum }));
    let given = 0;
    for (const e of exact) {
      const take = Math.min(Math.floor(e.x), caps[e.i] - parts[e.i]);
      parts[e.i] += take;
      given += take;
    }
    exact.sort((a, b) => (b.x % 1) - (a.x % 1));
    for (const e of exact) {
      if (given >= left) break;
      if (parts[e.i] < caps[e.i]) {
        parts[e.i]++;
        given++;
      }
    }
    if (!given) break;
    left -= given;
  }
  return parts;
}

export interface AdText {
  title: string;
  description: string;
  stateSlug: string;
}
export interface SearchTerms {
  query: string;
  state?: string;
}

/** The words of an ad's text a visitor might type: letters only, 3 or more, lower case, once each. */
export function adWords(ad: Pick<AdText, 'title' | 'description'>): string[] {
  // Listing pages cut the description short with "…": its last word may be a stump.
  const description = ad.description.endsWith('…') ? ad.description.replace(/\S*…$/, '') : ad.description;
  const words = `${ad.title} ${description}`.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  return [...new Set(words)];
}

/**
 * `n` distinct searches built from real ads' words: every distinct single word (up to a third of
 * `n`), then, alternately, two words of one ad in their order ("elegant discreet") and a word of an
 * ad within that ad's state. Fewer than `n` when the text cannot give that many.
 */
export function buildSearches(ads: AdText[], n: number, rand: () => number): SearchTerms[] {
  const perAd = ads.map((a) => ({ words: adWords(a), state: a.stateSlug })).filter((a) => a.words.length >= 2);
  const out: SearchTerms[] = [];
  const seen = new Set<string>();
  const add = (t: SearchTerms) => {
    const key = `${t.query}|${t.state ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    out.push(t);
    return true;
  };
  const singles = shuffle([...new Set(perAd.flatMap((a) => a.words))], rand);
  for (const w of singles.slice(0, Math.floor(n / 3))) add({ query: w });
  if (!perAd.length) return out;
  let misses = 0;
  for (let k = 0; out.length < n && misses < 20 * n; k++) {
    const ad = perAd[Math.floor(rand() * perAd.length)];
    let ok: boolean;
    if (k % 2 === 0) {
      const i = Math.floor(rand() * ad.words.length);
      let j = Math.floor(rand() * (ad.words.length - 1));
      if (j >= i) j++;
      ok = add({ query: `${ad.words[Math.min(i, j)]} ${ad.words[Math.max(i, j)]}` });
    } else {
      ok = add({ query: ad.words[Math.floor(rand() * ad.words.length)], state: ad.state });
    }
    if (!ok) misses++;
  }
  return shuffle(out, rand);
}

// Latency histogram: logarithmic buckets 1 % wide from 1 µs to over a minute, so load processes
// can add theirs together and quantiles stay within 1 %.
const LN_STEP = Math.log(1.01);
const BUCKETS = 1900;

export class Histogram {
  readonly counts = new Uint32Array(BUCKETS);
  count = 0;

  record(ms: number): void {
    const us = Math.max(1, ms * 1000);
    this.counts[Math.min(BUCKETS - 1, Math.floor(Math.log(us) / LN_STEP))]++;
    this.count++;
  }

  /** Sparse [bucket, count] pairs, for JSON. */
  toPairs(): [number, number][] {
    const pairs: [number, number][] = [];
    this.counts.forEach((c, i) => c && pairs.push([i, c]));
    return pairs;
  }

  add(pairs: [number, number][]): this {
    for (const [i, c] of pairs) {
      this.counts[i] += c;
      this.count += c;
    }
    return this;
  }

  /** The latency at quantile q (0–1) in ms: the middle of its bucket; 0 when empty. */
  quantile(q: number): number {
    if (!this.count) return 0;
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i];
      if (seen >= rank) return Math.exp((i + 0.5) * LN_STEP) / 1000;
    }
    return Math.exp(BUCKETS * LN_STEP) / 1000;
  }
}

/** What scripts/bench-load.ts is asked to do (a JSON file) and what it answers (one JSON line). */
export interface LoadKind {
  name: string;
  share: number;
  paths: string[];
  /** Popularity of each path (default: all equal). */
  weights?: number[];
  /** Each path once, in order (for pages no cache has seen). */
  once?: boolean;
}
export interface LoadSpec {
  origin: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  warmup: number;
  seed: number;
  kinds: LoadKind[];
}
export interface KindResult {
  requests: number;
  statuses: Record<string, number>;
  bytes: number;
  hist: [number, number][];
}
export interface LoadResult {
  seconds: number;
  errors: number;
  repeats: number;
  kinds: Record<string, KindResult>;
}

const CRLF = 0x0d0a;
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Reads HTTP/1.1 responses off a keep-alive socket without keeping their bodies: status line,
 * Content-Length or chunked transfer coding (chunk sizes, trailers), Connection: close. Calls
 * `onResponse` once per complete response with its status and body size; `end()` completes a body
 * that runs until the connection closes.
 */
export class ResponseReader {
  private buf: Buffer = Buffer.alloc(0);
  private state: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailer' | 'until-close' = 'head';
  private need = 0;
  private status = 0;
  private bytes = 0;
  private close = false;
  private readonly onResponse: (status: number, bytes: number, close: boolean) => void;

  constructor(onResponse: (status: number, bytes: number, close: boolean) => void) {
    this.onResponse = onResponse;
  }

  feed(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      switch (this.state) {
        case 'head': {
          const end = this.buf.indexOf(HEADER_END);
          if (end < 0) return;
          const head = this.buf.subarray(0, end).toString('latin1');
          this.buf = this.buf.subarray(end + 4);
          this.status = Number(head.slice(9, 12));
          this.bytes = 0;
          this.close = /\r\nconnection: *close/i.test(head);
          const length = /\r\ncontent-length: *(\d+)/i.exec(head);
          if (/\r\ntransfer-encoding: *[^\r]*chunked/i.test(head)) this.state = 'chunk-size';
          else if (length) {
            this.need = Number(length[1]);
            this.state = 'length';
          } else if (this.status === 204 || this.status === 304 || (this.status >= 100 && this.status < 200)) {
            this.need = 0;
            this.state = 'length';
          } else this.state = 'until-close';
          break;
        }
        case 'length': {
          const take = Math.min(this.need, this.buf.length);
          this.buf = this.buf.subarray(take);
          this.need -= take;
          this.bytes += take;
          if (this.need > 0) return;
          this.done();
          break;
        }
        case 'chunk-size': {
          const end = this.lineEnd();
          if (end < 0) return;
          this.need = parseInt(this.buf.subarray(0, end).toString('latin1'), 16);
          this.buf = this.buf.subarray(end + 2);
          this.state = this.need > 0 ? 'chunk-data' : 'trailer';
          break;
        }
        case 'chunk-data': {
          const take = Math.min(this.need, this.buf.length);
          this.buf = this.buf.subarray(take);
          this.need -= take;
          this.bytes += take;
          if (this.need > 0) return;
          this.state = 'chunk-crlf';
          break;
        }
        case 'chunk-crlf': {
          if (this.buf.length < 2) return;
          this.buf = this.buf.subarray(2);
          this.state = 'chunk-size';
          break;
        }
        case 'trailer': {
          // Trailer lines, then an empty line.
          const end = this.lineEnd();
          if (end < 0) return;
          this.buf = this.buf.subarray(end + 2);
          if (end === 0) this.done();
          break;
        }
        case 'until-close':
          this.bytes += this.buf.length;
          this.buf = Buffer.alloc(0);
          return;
      }
    }
  }

  /** The connection closed: a body that runs until then is complete. */
  end(): void {
    if (this.state === 'until-close') {
      this.close = true;
      this.done();
    }
  }

  private lineEnd(): number {
    for (let i = 0; i + 1 < this.buf.length; i++) if (this.buf.readUInt16BE(i) === CRLF) return i;
    return -1;
  }

  private done(): void {
    this.state = 'head';
    this.onResponse(this.status, this.bytes, this.close);
  }
}
