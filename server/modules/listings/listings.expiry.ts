import type { Clock } from '../../core/clock.ts';
import type { ListingScope, PublicReads } from './listings.repository.ts';
import type { ChangeRow, ExpiringRow } from './listings.search.repository.ts';
import { COUNTS, countsStateTag, countsTypeTag, scopeTag, scopeTags } from './listings.tags.ts';

/** How far ahead upcoming expiries are read. */
const SPAN_MS = 60_000;

/**
 * Ads leave the public set when their time runs out, with no write: the hourly expire-ads job
 * hides them later (and takes them off the trigger-kept counters then). To keep every total exact
 * and every cached answer honest meanwhile, this keeps the public ads whose time ran out (still
 * counted) or runs out within the next minute: a few dozen rows at a million ads, read through a
 * partial index. It says how many counted ads of a list are overdue (taken off its total) and when
 * the next one of that list runs out (until when an answer for it holds).
 */
export class ExpiryWindow {
  private readonly reads: PublicReads;
  private readonly clock: Clock;
  private end = 0;
  private dirty = true;
  private byId = new Map<string, ExpiringRow>();
  private byTag = new Map<string, number[]>();
  private seqs = new Map<number, number>();

  constructor(reads: PublicReads, clock: Clock) {
    this.reads = reads;
    this.clock = clock;
  }

  /**
   * A change can bring an ad into the window or take one out: read it again on next use. Returns
   * the numbers' tags of the ads it changed that were overdue (counted, but taken off the numbers
   * here): renewed, or changed in any way, such an ad may count again while its place and type
   * stay the same, which the change log's rows alone do not tell the numbers' caches.
   */
  onChanges(rows: readonly ChangeRow[], all: boolean): string[] {
    if (all) this.dirty = true;
    const tags: string[] = [];
    const now = this.clock.now().getTime();
    for (const r of rows) {
      const was = r.ad_id ? this.byId.get(r.ad_id) : undefined;
      if (was || (r.new_expires && Date.parse(r.new_expires) <= this.end)) this.dirty = true;
      if (was && Date.parse(was.expires_at) <= now) tags.push(COUNTS, countsTypeTag(was.listing_type), countsStateTag(was.state_id));
    }
    return tags;
  }

  private fresh(now: number): void {
    if (!this.dirty && now < this.end) return;
    this.end = now + SPAN_MS;
    const rows: ExpiringRow[] = this.reads.expiring(new Date(this.end).toISOString());
    this.byId = new Map(rows.map((r) => [r.id, r]));
    this.byTag = new Map();
    this.seqs = new Map();
    for (const r of rows) {
      const at = Date.parse(r.expires_at);
      this.seqs.set(r.bump_seq, at);
      for (const tag of scopeTags(r.city_id, r.state_id, r.listing_type)) {
        let list = this.byTag.get(tag);
        if (!list) this.byTag.set(tag, (list = []));
        list.push(at); // rows come in expiry order
      }
    }
    this.dirty = false;
  }

  /** How many ads of a list the counters still count though their time ran out. */
  overdue(scope: ListingScope): number {
    const now = this.clock.now().getTime();
    this.fresh(now);
    const list = this.byTag.get(scopeTag(scope));
    if (!list) return 0;
    let n = 0;
    while (n < list.length && list[n] <= now) n++;
    return n;
  }

  /** When the next ad of a list runs out (at the latest, the end of the window). */
  nextChange(scope: ListingScope): number {
    const now = this.clock.now().getTime();
    this.fresh(now);
    const list = this.byTag.get(scopeTag(scope));
    return list?.find((at) => at > now) ?? this.end;
  }

  /**
   * For a search's matches (bump_seqs): the ones whose time ran out, and when the next one runs
   * out (at the latest, the end of the window).
   */
  forSeqs(seqs: Iterable<number>): { overdue: Set<number>; next: number } {
    const now = this.clock.now().getTime();
    this.fresh(now);
    const overdue = new Set<number>();
    let next = this.end;
    if (!this.seqs.size) return { overdue, next };
    for (const s of seqs) {
      const at = this.seqs.get(s);
      if (at === undefined) continue;
      if (at <= now) overdue.add(s);
      else if (at < next) next = at;
    }
    return { overdue, next };
  }
}
