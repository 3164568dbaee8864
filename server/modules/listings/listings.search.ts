import type { ListingType } from '../ads/ads.tables.ts';
import type { ChangeRow, PublicReads } from './listings.repository.ts';

const MAX_TERMS = 8;
/** Distinct searches kept (each at most SEARCH_COUNT_CAP numbers, newest first: under 2 kB). */
const ENTRIES = 5000;

export interface SearchFilters {
  listingType?: ListingType;
  stateId?: string;
}

/** Lower case, accents off: how both sides are compared (ads_fts: unicode61 remove_diacritics 2). */
function fold(s: string): string {
  return s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
}

export function queryWords(query: string): string[] {
  return (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
}

/** The user's words as an FTS5 expression: each word quoted (no operators from input), all required. */
export function toMatchExpression(query: string, filters: SearchFilters): string | null {
  const words = queryWords(query);
  if (!words.length) return null;
  let expr = `{title description place} : (${words.map((w) => `"${w}"`).join(' ')})`;
  if (filters.listingType) expr += ` AND tags : "ty${filters.listingType.replace(/_/g, '')}"`;
  if (filters.stateId) expr += ` AND tags : "st${filters.stateId.replace(/[^a-z0-9]/gi, '')}"`;
  return expr;
}

interface Entry {
  /** Newest bump first (descending). */
  seqs: number[];
  words: string[];
  filters: SearchFilters;
}

/** Whether a descending list holds `seq` (binary search: a Set would weigh ten times the list). */
function holds(seqs: readonly number[], seq: number | null): boolean {
  if (seq === null) return false;
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

/**
 * The bounded match lists of searches, kept until a change could alter one: an ad it holds changed
 * or left (its bump_seq is in the list), or an ad entered or changed whose words, type and state
 * could match it. The word test is looser than FTS5's (a word anywhere in the folded text), so it
 * may drop a list for nothing, never keep one that changed.
 */
export class SearchMatches {
  private readonly entries = new Map<string, Entry>();
  private readonly reads: PublicReads;

  constructor(reads: PublicReads) {
    this.reads = reads;
  }

  get(match: string): number[] | undefined {
    const e = this.entries.get(match);
    if (!e) return undefined;
    this.entries.delete(match); // most recently used goes last
    this.entries.set(match, e);
    return e.seqs;
  }

  /** Keeps a list; returns the one it pushed out, if any (the pages built on it must go too: nothing would drop them). */
  set(match: string, seqs: number[], words: string[], filters: SearchFilters): string | undefined {
    this.entries.delete(match);
    this.entries.set(match, { seqs, words: words.map(fold), filters });
    if (this.entries.size <= ENTRIES) return undefined;
    const oldest = this.entries.keys().next().value!;
    this.entries.delete(oldest);
    return oldest;
  }

  clear(): string[] {
    const all = [...this.entries.keys()];
    this.entries.clear();
    return all;
  }

  /** Drops the lists the changes can touch; returns their match expressions. */
  onChanges(rows: readonly ChangeRow[]): string[] {
    if (!this.entries.size) return [];
    const dropped: string[] = [];
    const texts = new Map<string, string | null>();
    for (const r of rows) {
      if (r.kind !== 'ad' || !r.ad_id) continue;
      let text: string | null | undefined;
      for (const [match, e] of this.entries) {
        let hit = holds(e.seqs, r.old_seq) || holds(e.seqs, r.new_seq);
        if (!hit && r.new_seq !== null) {
          if (e.filters.listingType && e.filters.listingType !== r.new_type) continue;
          if (e.filters.stateId && e.filters.stateId !== r.new_state) continue;
          if (text === undefined) {
            if (!texts.has(r.ad_id)) {
              const t = this.reads.adText(r.ad_id);
              texts.set(r.ad_id, t ? fold(t.text) : null);
            }
            text = texts.get(r.ad_id)!;
          }
          hit = text !== null && e.words.every((w) => text!.includes(w));
        }
        if (hit) {
          dropped.push(match);
          this.entries.delete(match);
        }
      }
    }
    return dropped;
  }
}
