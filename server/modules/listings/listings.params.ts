// What a public read names, checked: its page, its place (by slug) and its listing type, each
// refused as the API refuses it (400, or 404 for a place the public cannot see).
import { Invalid, NotFound } from '../../core/errors.ts';
import { DEFAULT_PAGE_SIZE } from '../../../contract/api/paging.ts';
import { parseListingType } from '../ads/ads.rules.ts';
import type { ListingType } from '../ads/ads.tables.ts';
import type { PublicReads } from './listings.repository.ts';
import type { Place } from './listings.statements.repository.ts';

export function pageArgs(q: { page?: number; pageSize?: number }, maxOffset: number) {
  const pageSize = Math.min(100, Math.max(1, Math.floor(q.pageSize ?? DEFAULT_PAGE_SIZE)));
  const page = Math.max(1, Math.floor(q.page ?? 1));
  const offset = (page - 1) * pageSize;
  if (offset >= maxOffset) throw new Invalid('page', 'listings.page_too_far');
  return { page, pageSize, offset };
}

export function listingTypeOf(v: string | undefined): ListingType | undefined {
  if (v === undefined || v === '') return undefined;
  const t = parseListingType(v);
  if (!t) throw new Invalid('type', 'listings.unknown_listing_type');
  return t;
}

/** The places lists name, by slug. */
export class PlaceSlugs {
  private readonly reads: PublicReads;
  /** Places by slug (every request of a list names one; places are never renamed, only enabled or disabled). */
  readonly slugs = new Map<string, { id: string; name: string; enabled: number }>();

  constructor(reads: PublicReads) {
    this.reads = reads;
  }

  /** A place by slug, remembered once found (an unknown slug is asked again: the place may be added). */
  private slug<T extends { id: string; name: string; enabled: number }>(key: string, read: () => T | undefined): T | undefined {
    let p = this.slugs.get(key) as T | undefined;
    if (!p && (p = read())) this.slugs.set(key, p);
    return p;
  }

  /** 404 for an unknown or disabled state/city: their pages do not exist for the public. */
  resolvePlace(stateSlug?: string, citySlug?: string): { stateId?: string; cityId?: string; state?: Place; city?: Place } {
    if (!stateSlug) {
      if (citySlug) throw new Invalid('state', 'listings.city_needs_state');
      return {};
    }
    const state = this.slug(`s/${stateSlug}`, () => this.reads.stateBySlug(stateSlug));
    if (!state || !state.enabled) throw new NotFound('listings.unknown_state');
    if (!citySlug) return { stateId: state.id, state: { id: state.id, name: state.name, slug: stateSlug } };
    const city = this.slug(`c/${state.id}/${citySlug}`, () => this.reads.cityBySlug(state.id, citySlug));
    if (!city || !city.enabled) throw new NotFound('listings.unknown_city');
    return {
      stateId: state.id,
      cityId: city.id,
      state: { id: state.id, name: state.name, slug: stateSlug },
      city: { id: city.id, name: city.name, slug: citySlug },
    };
  }
}
