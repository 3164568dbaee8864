import type { ListingType } from '../ads/ads.tables.ts';
import type { CacheBudget } from './listings.cache.ts';
import { FrequencySketch } from './listings.frequency.ts';
import type { PublicReads } from './listings.repository.ts';
import { SEARCH_COUNT_CAP, type ChangeRow } from './listings.search.repository.ts';

/**
 * A search's matches (bump_seqs, newest first), 4 bytes a number: a plain array of numbers takes
 * 8 bytes an element and a header in V8's heap. A bump_seq past 2^31 − 1 (two billion bumps) is
 * kept in 8 bytes rather than cut.
 */
export type Seqs = Int32Array | Float64Array;

export function packSeqs(seqs: readonly number[]): Seqs {
  for (const s of seqs) if (s > 0x7fffffff || s < 0) return Float64Array.from(seqs);
  return Int32Array.from(seqs);
}

/** What a kept list weighs, near enough: its numbers, its key and words (two bytes a character at most), the objects around them. */
function weigh(match: string, seqs: Seqs, words: readonly string[]): number {
  let n = 200 + seqs.byteLength + 2 * match.length;
  for (const w of words) n += 24 + 2 * w.length;
  return n;
}

export interface SearchFilters {
  listingType?: ListingType;
  stateId?: string;
}

/**
 * Letters unicode61 folds (Unicode's case folding) that toLowerCase leaves as they are: the micro
 * sign, the long s (and "ẛ", which NFD makes "ſ" and a dot), the final sigma and Greek symbol forms.
 * With them, every letter and digit up to U+2FFFF that the index takes as one term folds to the same
 * as every other letter of that term (search.edges.test.ts checks it on a set of them).
 */
const CASE_FOLDS: Record<string, string> = { µ: 'μ', ſ: 's', ς: 'σ', ϐ: 'β', ϑ: 'θ', ϕ: 'φ', ϖ: 'π', ϰ: 'κ', ϱ: 'ρ', ϵ: 'ε' };
const CASE_FOLDED = /[µſςϐϑϕϖϰϱϵ]/g;

/** Lower case, accents off: how both sides are compared (ads_fts: unicode61 remove_diacritics 2). */
export function fold(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(CASE_FOLDED, (c) => CASE_FOLDS[c]);
}

/**
 * The user's words (contract/rules.ts searchWords: distinct, each one token of ads_fts, so a quoted
 * word is never a phrase, which ads_fts, detail=column, refuses) as an FTS5 expression: each word
 * quoted (no operators from input), all required.
 */
export function toMatchExpression(words: readonly string[], filters: SearchFilters): string | null {
  if (!words.length) return null;
  let expr = `{title description place} : (${words.map((w) => `"${w}"`).join(' ')})`;
  if (filters.listingType) expr += ` AND tags : "ty${filters.listingType.replace(/_/g, '')}"`;
  if (filters.stateId) expr += ` AND tags : "st${filters.stateId.replace(/[^a-z0-9]/gi, '')}"`;
  return expr;
}

interface Entry {
  /** Newest bump first (descending). */
  seqs: Seqs;
  /**
   * Its first and last numbers (-1 and +Infinity when empty) and whether it is full (its read
   * stopped at its limit: every match newer than its last is in it, older ones may not be): most
   * changes are told apart from these alone, without reading the list's own memory (a change is
   * checked against every list kept, ~11,000 of them).
   */
  newest: number;
  oldest: number;
  full: boolean;
  words: string[];
  filters: SearchFilters;
  bytes: number;
  /** keyHash of its match expression (its frequency in the sketch). */
  hash: number;
}

/** Whether a list holds `seq` (binary search: a Set would weigh ten times the list). */
function holds(e: Entry, seq: number | null): boolean {
  if (seq === null || seq > e.newest || seq < e.oldest) return false;
  const seqs = e.seqs;
  let lo = 0;
  let hi = seqs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (seqs[mid] === seq) return true;
    if (seqs[mid] > seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Whether a change can alter a kept list (see SearchMatches). */
function alters(e: Entry, r: ChangeRow, textOf: (id: string) => string | null): boolean {
  if (holds(e, r.old_seq) || holds(e, r.new_seq)) return true;
  if (r.new_seq === null) return false;
  // A full list is the newest matches, SEARCH_COUNT_CAP of them or more (its total says "200+"): an
  // ad older than its last one stays out of it whatever its words. (Ads coming back online are mostly
  // older than the newest 200 matches of a common word.) Once ads of it run out and fewer than
  // SEARCH_COUNT_CAP of it are live, the search reads its matches again rather than use it.
  if (e.full && r.new_seq < e.oldest) return false;
  if (e.filters.listingType && e.filters.listingType !== r.new_type) return false;
  if (e.filters.stateId && e.filters.stateId !== r.new_state) return false;
  const text = textOf(r.ad_id!);
  return text !== null && e.words.every((w) => text.includes(w));
}

/**
 * The bounded match lists of searches, kept until a change could alter one: an ad it holds changed
 * or left (its bump_seq is in the list), or an ad entered or changed whose words, type and state
 * could match it and whose bump_seq would place it in the list (any, unless the list is full).
 * The word test is looser than FTS5's (a word anywhere in the folded text), so it
 * may drop a list for nothing, never keep one that changed.
 *
 * Bounded by its share of CACHE_MB (bytes and entries), least recently used first out. With
 * `admission`, a full cache keeps a new list only if its search was asked for more often lately
 * than the list it would push out, which then counts as used (TaggedCache's admission).
 */
export class SearchMatches {
  readonly stats = { hits: 0, misses: 0, refused: 0 };
  private readonly entries = new Map<string, Entry>();
  /** The next to go: one iterator kept between evictions (see TaggedCache's hand: a new one would walk every hole the evictions left). */
  private oldest: MapIterator<string> | undefined;
  private readonly reads: PublicReads;
  readonly budget: CacheBudget;
  private bytes = 0;
  private readonly sketch: FrequencySketch | null;

  constructor(reads: PublicReads, budget: CacheBudget, opts: { admission?: boolean } = {}) {
    this.reads = reads;
    this.budget = budget;
    this.sketch = opts.admission ? new FrequencySketch(budget.entries) : null;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The bytes its lists weigh (weigh()): at most budget.bytes. */
  get weight(): number {
    return this.bytes;
  }

  /** Whether a list is kept, without counting or moving it. */
  has(match: string): boolean {
    return this.entries.has(match);
  }

  /** Whether a kept list is full (its read stopped at its limit), without counting or moving it. */
  isFull(match: string): boolean {
    return this.entries.get(match)?.full === true;
  }

  get(match: string): Seqs | undefined {
    const e = this.entries.get(match);
    this.sketch?.add(e ? e.hash : this.sketch.hashOf(match), this.entries.size);
    if (!e) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    this.entries.delete(match); // most recently used goes last
    this.entries.set(match, e);
    return e.seqs;
  }

  /**
   * Keeps a list; returns the ones it pushed out (the answers built on them must go too: nothing
   * else would drop them) and the list itself when it is not kept: alone over the budget, or
   * asked for less often than the next list to go. `full`: its read stopped at its limit (by
   * default, when it holds SEARCH_COUNT_CAP matches or more).
   */
  set(match: string, seqs: Seqs, words: readonly string[], filters: SearchFilters, full = seqs.length >= SEARCH_COUNT_CAP): string[] {
    const had = this.entries.has(match);
    this.remove(match);
    const folded = words.map(fold);
    const bytes = weigh(match, seqs, folded);
    if (bytes > this.budget.bytes) return [match];
    const hash = this.sketch ? this.sketch.hashOf(match) : 0;
    const out: string[] = [];
    while (this.entries.size && (this.entries.size >= this.budget.entries || this.bytes + bytes > this.budget.bytes)) {
      let at = this.oldest?.next();
      if (!at || at.done) at = (this.oldest = this.entries.keys()).next();
      if (at.done) break;
      const victim = this.entries.get(at.value)!;
      // A list replaced is kept whatever its frequency.
      if (this.sketch && !had && !this.sketch.admits(hash, victim.hash)) {
        this.stats.refused++;
        this.entries.delete(at.value); // it stays, as the most recently used
        this.entries.set(at.value, victim);
        out.push(match);
        return out;
      }
      this.remove(at.value);
      out.push(at.value);
    }
    const n = seqs.length;
    this.entries.set(match, {
      seqs,
      newest: n ? seqs[0] : -1,
      oldest: n ? seqs[n - 1] : Infinity,
      full,
      words: folded,
      filters,
      bytes,
      hash,
    });
    this.bytes += bytes;
    return out;
  }

  clear(): string[] {
    const all = [...this.entries.keys()];
    this.entries.clear();
    this.oldest = undefined;
    this.bytes = 0;
    return all;
  }

  private remove(match: string): void {
    const e = this.entries.get(match);
    if (!e) return;
    this.entries.delete(match);
    this.bytes -= e.bytes;
  }

  /** Drops the lists the changes can touch; returns their match expressions. */
  onChanges(rows: readonly ChangeRow[]): string[] {
    const ads = rows.filter((r) => r.kind === 'ad' && r.ad_id);
    if (!this.entries.size || !ads.length) return [];
    const dropped: string[] = [];
    const texts = new Map<string, string | null>();
    const textOf = (id: string): string | null => {
      let t = texts.get(id);
      if (t === undefined) {
        const found = this.reads.adText(id);
        texts.set(id, (t = found ? fold(found.text) : null));
      }
      return t;
    };
    // Each list once, against every change (a list's memory is read once, not once a change).
    for (const [match, e] of this.entries) {
      for (const r of ads) {
        if (!alters(e, r, textOf)) continue;
        dropped.push(match);
        this.remove(match);
        break;
      }
    }
    return dropped;
  }
}
