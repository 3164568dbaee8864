import type { ListingType } from '../ads/ads.tables.ts';
import { SEARCH_TOTAL_CAP } from '../../../contract/api/listings.ts';
import { INT, PublicStatements, TEXT } from './listings.statements.repository.ts';

// The public reads behind search and the caches: full-text matches, the cards of given bump_seqs,
// the words an ad is matched on, and the change feed (ads_public_changes) with the ads whose time
// runs out, which the caches follow. Statements prepared once (listings.statements.repository.ts).

/**
 * Search never counts past this many matches: the total says "200+" and pages stop at 10 of 20.
 * Counting is what a search costs (FTS5 walks every match it counts: ~0.2 ms for 200 matches of two
 * common words at a million ads, five times that for 1,000), and few readers go past page 10.
 */
export const SEARCH_COUNT_CAP = SEARCH_TOTAL_CAP;

/** A public ad whose time runs out soon (or already ran out, before the expire-ads job hid it). */
export interface ExpiringRow {
  id: string;
  city_id: string;
  state_id: string;
  listing_type: ListingType;
  bump_seq: number;
  expires_at: string;
}

/** One row of ads_public_changes (migration 0011). */
export interface ChangeRow {
  seq: number;
  kind: 'ad' | 'place';
  ad_id: string | null;
  old_seq: number | null;
  old_city: string | null;
  old_state: string | null;
  old_type: ListingType | null;
  new_seq: number | null;
  new_city: string | null;
  new_state: string | null;
  new_type: ListingType | null;
  new_expires: string | null;
}

/** One ads_cards row as a search's page reads it. */
export interface CardRow {
  seq: number;
  expires_at: string;
  /** The card's JSON (ads_card_source). */
  card: string;
}

/** What search matches an ad on: its words and its place (ads_fts columns). */
export interface AdText {
  text: string;
  state_id: string;
  listing_type: ListingType;
}

export class PublicSearchReads extends PublicStatements {
  /**
   * Full-text matches in bump order, bounded: ads_fts holds visible ads only and its rowid is minus
   * the ad's bump_seq (migration 0014), so FTS5 walks its index forwards, newest bump first, with no
   * ranking, and stops after SEARCH_COUNT_CAP matches whatever the word. Returns their bump_seqs.
   * A longer `limit` (to read past ads whose time ran out, see ListingsService.search) is its own
   * statement: the common read keeps its constant LIMIT.
   */
  searchSeqs(match: string, limit = SEARCH_COUNT_CAP): number[] {
    if (limit !== SEARCH_COUNT_CAP)
      return this.stmt('search-longer', () => `SELECT -rowid FROM ads_fts WHERE ads_fts MATCH ? ORDER BY rowid LIMIT ${INT}`)
        .pluck()
        .all(match, limit) as number[];
    return this.stmt('search', () => `SELECT -rowid FROM ads_fts WHERE ads_fts MATCH ? ORDER BY rowid LIMIT ${SEARCH_COUNT_CAP}`)
      .pluck()
      .all(match) as number[];
  }

  /** The cards of given bump_seqs, in no order, with their bump_seq and end (CardCache keeps them); ads whose time ran out are left out. */
  cardsBySeqs(seqs: readonly number[], now: string): CardRow[] {
    if (!seqs.length) return [];
    return this.stmt(
      'cards-by-seqs',
      () => `SELECT bump_seq AS seq, expires_at, card FROM ads_cards WHERE bump_seq IN (SELECT value FROM json_each(?)) AND expires_at > ${TEXT}`,
    ).all(JSON.stringify(seqs), now) as CardRow[];
  }

  /** Public ads whose time runs out by `until` (index ads_public_expiry: a few rows a minute at a million ads). */
  expiring(until: string): ExpiringRow[] {
    return this.stmt(
      'expiring',
      () => `SELECT id, city_id, state_id, listing_type, bump_seq, expires_at FROM ads WHERE visible = 1 AND expires_at <= ${TEXT} ORDER BY expires_at`,
    ).all(until) as ExpiringRow[];
  }

  /** Changes of the public set after `seq`, oldest first (at most `limit`). */
  changesAfter(seq: number, limit: number): ChangeRow[] {
    return this.stmt('changes', () => `SELECT * FROM ads_public_changes WHERE seq > ${INT} ORDER BY seq LIMIT ${INT}`).all(seq, limit) as ChangeRow[];
  }

  lastChange(): number {
    return (this.stmt('last-change', () => 'SELECT coalesce(max(seq), 0) AS s FROM ads_public_changes').get() as { s: number }).s;
  }

  /** The words and place search matches an ad on (see the ads_fts triggers of 0003). */
  adText(id: string): AdText | undefined {
    const r = this.stmt('ad-text', () => `SELECT title, description, city_id, state_id, listing_type FROM ads WHERE id = ${TEXT}`).get(id) as
      { title: string; description: string; city_id: string; state_id: string; listing_type: ListingType } | undefined;
    if (!r) return undefined;
    const c = this.place('city', r.city_id);
    const s = this.place('state', r.state_id);
    return { text: `${r.title} ${r.description} ${c.name} ${s.name} ${s.code ?? ''}`, state_id: r.state_id, listing_type: r.listing_type };
  }
}
