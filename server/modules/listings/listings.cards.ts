import type { CacheBudget } from './listings.cache.ts';
import { TaggedCache } from './listings.cache.ts';
import type { CardRow } from './listings.search.repository.ts';
import type { ChangeSet } from './listings.tags.ts';

/**
 * The cards searches show, by bump_seq: the JSON of ads_cards rows, each kept until its ad's time
 * runs out or a change names its bump_seq (every change of a card's row logs the ad's old and new
 * bump_seq in ads_public_changes, migrations 0011, 0016 and 0020; a change of place empties it).
 *
 * A search's page reads its 20 cards by bump_seq, each a row somewhere in a table clustered by city
 * (two B-tree descents a card): ~100 µs at a million ads. Searches' first pages share most of their
 * cards (the newest matches of common words): on the benchmark's 10,000 searches, 200,000 cards
 * shown are 11,574 ads, the 2,000 most shown 79 % of them.
 */
export class CardCache {
  readonly cache: TaggedCache<string>;

  constructor(budget: CacheBudget) {
    this.cache = new TaggedCache<string>(budget.entries, budget.bytes);
  }

  /**
   * The cards of `seqs` in that order, joined by commas (one JSON array's body), those of ads whose
   * time ran out left out; the ones not kept are read with `read` in one statement. Only while the
   * caches are in step with the change log (`consistent`, see PublicChanges.sync) are cards taken
   * from here or kept.
   */
  join(seqs: ArrayLike<number>, now: number, consistent: boolean, read: (missing: number[]) => CardRow[]): string {
    const found: Array<string | undefined> = new Array(seqs.length);
    let missing: number[] | undefined;
    for (let i = 0; i < seqs.length; i++) {
      const hit = consistent ? this.cache.get(String(seqs[i]), now) : undefined;
      if (hit) found[i] = hit.value;
      else (missing ??= []).push(seqs[i]);
    }
    if (missing) {
      const rows = new Map<number, CardRow>();
      for (const r of read(missing)) rows.set(r.seq, r);
      for (let i = 0; i < seqs.length; i++) {
        if (found[i] !== undefined) continue;
        const r = rows.get(seqs[i]);
        if (!r) continue; // hidden or ran out since the list was read
        found[i] = r.card;
        if (consistent) this.cache.set(String(r.seq), { value: r.card, until: Date.parse(r.expires_at), tags: [] });
      }
    }
    let out = '';
    for (const card of found) if (card !== undefined) out += out ? `,${card}` : card;
    return out;
  }

  /** Forgets the cards a batch of changes names (PublicChanges.subscribe). */
  apply(c: ChangeSet): void {
    if (c.all) return this.cache.clear();
    for (const r of c.rows) {
      if (r.old_seq !== null) this.cache.forget(String(r.old_seq));
      if (r.new_seq !== null) this.cache.forget(String(r.new_seq));
    }
  }
}
