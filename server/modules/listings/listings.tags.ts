import type { ListingScope } from './listings.repository.ts';
import type { ChangeRow } from './listings.search.repository.ts';

// What a cached public answer depends on, as tags, and which tags a change of the public set
// touches. An answer is dropped when a change touches one of its tags, and only then:
//
//   ad:<id>              the ad's own page and answer
//   ls:<where>:<type>    one list: <where> is c<cityId>, s<stateId> or * (all), <type> a listing
//                        type or * (all); a city page is ls:c<city>:<type>
//   counts               the home page and the states page (totals of every state and type)
//   counts:<type>        the cities of a type with their numbers (aggregate), all states
//   counts-state:<id>    one state's cities with their numbers (the state page)
//   search:<match>       a search (dropped by SearchMatches, which reads the changed ads' words)
//   places               anything that depends on which places are enabled
//
// A change of place (a city or state enabled or disabled) drops everything.

export const COUNTS = 'counts';
export const PLACES = 'places';

export const adTag = (id: string) => `ad:${id}`;
export const countsTypeTag = (type: string) => `counts:${type}`;
export const countsStateTag = (stateId: string) => `counts-state:${stateId}`;
export const searchTag = (match: string) => `search:${match}`;

/** The one tag of a list. */
export function scopeTag(s: ListingScope): string {
  return `ls:${s.cityId ? `c${s.cityId}` : s.stateId ? `s${s.stateId}` : '*'}:${s.listingType ?? '*'}`;
}

/** Every list an ad in this city, state and type belongs to. */
export function scopeTags(cityId: string, stateId: string, type: string): string[] {
  return [`ls:c${cityId}:${type}`, `ls:c${cityId}:*`, `ls:s${stateId}:${type}`, `ls:s${stateId}:*`, `ls:*:${type}`, 'ls:*:*'];
}

/** What a batch of changes touches: `all` when a place changed (or changes were missed). */
export interface ChangeSet {
  all: boolean;
  tags: Set<string>;
  rows: readonly ChangeRow[];
}

export function changeSet(rows: readonly ChangeRow[], all = false): ChangeSet {
  const tags = new Set<string>();
  for (const r of rows) {
    if (r.kind === 'place') {
      all = true;
      continue;
    }
    if (r.ad_id) tags.add(adTag(r.ad_id));
    const sides: Array<[string | null, string | null, string | null]> = [
      [r.old_city, r.old_state, r.old_type],
      [r.new_city, r.new_state, r.new_type],
    ];
    for (const [city, state, type] of sides) if (city && state && type) for (const t of scopeTags(city, state, type)) tags.add(t);
    // The numbers change when the ad entered, left or moved between places or types.
    if (r.old_city !== r.new_city || r.old_type !== r.new_type) {
      tags.add(COUNTS);
      for (const [, state, type] of sides) {
        if (type) tags.add(countsTypeTag(type));
        if (state) tags.add(countsStateTag(state));
      }
    }
  }
  return { all, tags, rows };
}
