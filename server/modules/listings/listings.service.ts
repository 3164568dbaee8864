import type { AppDeps } from '../../core/deps.ts';
import { Invalid, NotFound } from '../../core/errors.ts';
import { RULE_CODES, checkSearchQuery } from '../../../contract/rules.ts';
import type { AdPage, AggregateLocation, HomeCounts } from '../../../contract/api/listings.ts';
import type { PublicAd } from '../../../contract/api/ads.ts';
import { LISTING_TYPES, parseListingType } from '../ads/ads.rules.ts';
import { toPublicAd } from '../ads/ads.dto.ts';
import type { ListingType } from '../ads/ads.tables.ts';
import { checkReport, createReport, hashIp, notifyStaff, reportLimiter } from '../reports/reports.service.ts';
import type { Report } from '../../../contract/api/reports.ts';
import type { Actor } from '../../core/policy.ts';
import { can, type ListedAd } from './listings.policy.ts';
import { LISTING_COUNT_CAP, PublicReads, SEARCH_COUNT_CAP, type ListingFilter } from './listings.repository.ts';

export const DEFAULT_PAGE_SIZE = 20;
/** Aggregates and the home counts are cached until the public set changes (ads_public_version), and at most this long. */
const CACHE_MS = 60_000;
const MAX_TERMS = 8;
/** Distinct searches kept (each at most SEARCH_COUNT_CAP numbers: 8 kB). */
const SEARCH_CACHE_ENTRIES = 500;

function pageArgs(q: { page?: number; pageSize?: number }, maxOffset: number) {
  const pageSize = Math.min(100, Math.max(1, Math.floor(q.pageSize ?? DEFAULT_PAGE_SIZE)));
  const page = Math.max(1, Math.floor(q.page ?? 1));
  const offset = (page - 1) * pageSize;
  if (offset >= maxOffset) throw new Invalid('page', 'listings.page_too_far');
  return { page, pageSize, offset };
}

/** The user's words as an FTS5 expression: each word quoted (no operators from input), all required. */
export function toMatchExpression(query: string, filters: { listingType?: ListingType; stateId?: string }): string | null {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
  if (!words.length) return null;
  let expr = `{title description place} : (${words.map((w) => `"${w}"`).join(' ')})`;
  if (filters.listingType) expr += ` AND tags : "ty${filters.listingType.replace(/_/g, '')}"`;
  if (filters.stateId) expr += ` AND tags : "st${filters.stateId.replace(/[^a-z0-9]/gi, '')}"`;
  return expr;
}

export class ListingsService {
  private readonly deps: AppDeps;
  readonly reads: PublicReads;
  private readonly cache = new Map<string, { version: number; at: number; value: unknown }>();
  private readonly searchCache = new Map<string, { version: number; seqs: number[] }>();

  constructor(deps: AppDeps) {
    this.deps = deps;
    this.reads = new PublicReads(deps.database.reader, deps.database.sqlite);
  }

  private nowIso(): string {
    return this.deps.clock.now().toISOString();
  }

  private cached<T>(key: string, compute: () => T): T {
    const version = this.reads.version();
    const t = this.deps.clock.now().getTime();
    const hit = this.cache.get(key);
    if (hit && hit.version === version && t - hit.at < CACHE_MS) return hit.value as T;
    const value = compute();
    this.cache.set(key, { version, at: t, value });
    return value;
  }

  /**
   * The bounded match list of a search, cached until the public set changes (ads_public_version):
   * the next pages, and everyone else asking the same thing meanwhile, read only their page.
   */
  private matches(match: string): number[] {
    const version = this.reads.version();
    const hit = this.searchCache.get(match);
    if (hit && hit.version === version) {
      this.searchCache.delete(match); // most recently used goes last
      this.searchCache.set(match, hit);
      return hit.seqs;
    }
    const seqs = this.reads.searchSeqs(match);
    this.searchCache.delete(match);
    this.searchCache.set(match, { version, seqs });
    if (this.searchCache.size > SEARCH_CACHE_ENTRIES) this.searchCache.delete(this.searchCache.keys().next().value!);
    return seqs;
  }

  /** 404 for an unknown or disabled state/city: their pages do not exist for the public. */
  private resolvePlace(stateSlug?: string, citySlug?: string): { stateId?: string; cityId?: string } {
    if (!stateSlug) {
      if (citySlug) throw new Invalid('state', 'listings.city_needs_state');
      return {};
    }
    const state = this.reads.stateBySlug(stateSlug);
    if (!state || !state.enabled) throw new NotFound('listings.unknown_state');
    if (!citySlug) return { stateId: state.id };
    const city = this.reads.cityBySlug(state.id, citySlug);
    if (!city || !city.enabled) throw new NotFound('listings.unknown_city');
    return { stateId: state.id, cityId: city.id };
  }

  private listingType(v: string | undefined): ListingType | undefined {
    if (v === undefined || v === '') return undefined;
    const t = parseListingType(v);
    if (!t) throw new Invalid('type', 'listings.unknown_listing_type');
    return t;
  }

  listings(q: { state?: string; city?: string; type?: string; page?: number; pageSize?: number }): AdPage {
    const { page, pageSize, offset } = pageArgs(q, LISTING_COUNT_CAP);
    const f: ListingFilter = { ...this.resolvePlace(q.state, q.city), listingType: this.listingType(q.type) };
    const now = this.nowIso();
    const rows = this.reads.listing(f, now, pageSize, offset);
    // The count is skipped when the first page is not full: it is then simply the rows on it.
    const total = page === 1 && rows.length < pageSize ? rows.length : Math.max(this.reads.listingCount(f), offset + rows.length);
    return { ads: rows.map(toPublicAd), total, page, pageSize };
  }

  search(q: { query?: string; state?: string; type?: string; page?: number; pageSize?: number }): AdPage {
    const query = q.query ?? '';
    const rule = checkSearchQuery(query);
    if (rule) throw new Invalid('query', RULE_CODES[rule]);
    const { page, pageSize, offset } = pageArgs(q, SEARCH_COUNT_CAP);
    const { stateId } = this.resolvePlace(q.state);
    const match = toMatchExpression(query, { listingType: this.listingType(q.type), stateId });
    if (!match) throw new Invalid('query', RULE_CODES.searchRequired);
    const seqs = this.matches(match);
    const rows = this.reads.adsBySeqs(seqs.slice(offset, offset + pageSize), this.nowIso());
    return { ads: rows.map(toPublicAd), total: seqs.length, page, pageSize };
  }

  /**
   * A publicly visible ad; its owner and staff also see it while it is not (preview, review).
   * Also says until when it is public (null when only its owner or staff may see it now).
   */
  adView(id: string, viewer: Actor): { ad: PublicAd; publicUntil: string | null } {
    const row = this.reads.adById(id);
    const ad = row && this.listed(row);
    if (!row || !ad || !can(viewer, 'view', ad)) throw new NotFound('listings.ad_not_found');
    return { ad: toPublicAd(row), publicUntil: ad.isPublic ? row.expires_at : null };
  }

  /** An ad as the policy sees it: public now when visible (approved, online, owner and place fine) and not expired. */
  private listed(row: { owner_id: string; visible: number; expires_at: string | null }): ListedAd {
    return { ownerId: row.owner_id, isPublic: row.visible === 1 && row.expires_at !== null && row.expires_at > this.nowIso() };
  }

  aggregate(typeParam: string): { locations: AggregateLocation[] } {
    const listingType = parseListingType(typeParam);
    if (!listingType) throw new NotFound('listings.unknown_listing_type');
    return this.cached(`aggregate:${listingType}`, () => ({
      locations: this.reads.aggregate(listingType).map((r) => ({
        stateId: r.state_id,
        stateSlug: r.state_slug,
        stateName: r.state_name,
        cityId: r.city_id,
        citySlug: r.city_slug,
        cityName: r.city_name,
        count: r.n,
      })),
    }));
  }

  home(): HomeCounts {
    return this.cached('home', () => {
      const counts = new Map(this.reads.typeCounts().map((r) => [r.listing_type, r.n]));
      return {
        types: LISTING_TYPES.map((t) => ({ listingType: t, count: counts.get(t) ?? 0 })),
        topStates: this.reads.stateCounts().map((s) => ({ stateId: s.id, slug: s.slug, name: s.name, count: s.n })),
      };
    });
  }

  /** Files a report about an ad (any existing ad: a hidden one may still need staff attention). */
  async reportAd(reporter: Actor, adId: string, body: { message: string; contact?: string | null }, ip: string): Promise<Report> {
    const input = { kind: 'ad' as const, adId, message: body.message, contact: body.contact ?? null };
    checkReport(input); // bad input does not use up the sender's allowance
    const row = this.reads.adById(adId);
    if (!row || !can(reporter, 'report', this.listed(row))) throw new NotFound('listings.ad_not_found');
    reportLimiter(this.deps).hit([`ip:${ip}`], 'reports.too_many');
    const ipHash = hashIp(this.deps.config.jwtSecret, ip);
    const report = await this.deps.db.transaction().execute((trx) => createReport(trx, { ...input, ipHash }, this.deps.clock.now()));
    await notifyStaff(this.deps, report);
    return report;
  }
}
