import type { AppDeps } from '../../core/deps.ts';
import { AppError, Invalid, NotFound } from '../../core/errors.ts';
import { RULE_CODES, checkSearchQuery, searchWords } from '../../../contract/rules.ts';
import type { AggregateLocation, HomeCounts, StateCount, ViewedAd } from '../../../contract/api/listings.ts';
import { LISTING_TYPES, parseListingType } from '../ads/ads.rules.ts';
import { toPublicAd } from '../ads/ads.dto.ts';
import type { Report } from '../../../contract/api/reports.ts';
import type { Actor } from '../../core/policy.ts';
import { can, type ListedAd } from './listings.policy.ts';
import { can as adsCan } from '../ads/ads.policy.ts';
import { LISTING_COUNT_CAP, PublicReads, type ListingScope } from './listings.repository.ts';
import { SEARCH_COUNT_CAP } from './listings.search.repository.ts';
import type { Place } from './listings.statements.repository.ts';
import { PublicChanges } from './listings.changes.ts';
import { ExpiryWindow } from './listings.expiry.ts';
import { SearchMatches, packSeqs, toMatchExpression, type Seqs } from './listings.search.ts';
import { CardCache } from './listings.cards.ts';
import { refused, type Answer } from './listings.answers.ts';
import { cacheBudgets, TaggedCache, type CacheUse } from './listings.cache.ts';
import { COUNTS, PLACES, adTag, countsStateTag, countsTypeTag, scopeTag, searchTag } from './listings.tags.ts';
import { PlaceSlugs, listingTypeOf, pageArgs } from './listings.params.ts';
import { reportAd } from './listings.reports.ts';
import { cacheUse } from './listings.memory.ts';
import { searchSeqs } from './listings.fulltext.ts';

/** Aggregates, the home counts and the states are kept at most this long (besides their tags). */
const VALUE_MS = 60_000;
const DAY_MS = 86_400_000;

const names = (p: { name: string; slug: string }) => ({ name: p.name, slug: p.slug });
/** Strings in SQLite's BINARY order (by code point; the same for the places' names as by UTF-16 unit). */
const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The public reads: lists, search, an ad, the numbers per place. Every answer says which tags it
 * depends on and until when it holds (listings.tags.ts), so the caches built on these reads (the
 * API's, the server-rendered pages') keep it exactly as long as nothing it shows has changed.
 */
export class ListingsService {
  private readonly deps: AppDeps;
  readonly reads: PublicReads;
  readonly changes: PublicChanges;
  readonly expiry: ExpiryWindow;
  readonly matches: SearchMatches;
  /** The cards searches show, by bump_seq. */
  readonly cards: CardCache;
  private readonly values: TaggedCache<unknown>;
  /** Places by slug (listings.params.ts). */
  private readonly places: PlaceSlugs;
  /** Every cache of answers built on these reads, by name ('values', 'api', 'pages'): tests read their hits and misses. */
  readonly caches = new Map<string, TaggedCache<unknown>>();

  constructor(deps: AppDeps) {
    this.deps = deps;
    const { values, searches, cards } = cacheBudgets(deps.config.cacheMb);
    this.values = new TaggedCache<unknown>(values.entries, values.bytes);
    this.reads = new PublicReads(deps.database.reader);
    this.places = new PlaceSlugs(this.reads);
    this.changes = new PublicChanges(this.reads, deps.database.sqlite);
    this.expiry = new ExpiryWindow(this.reads, deps.clock);
    this.matches = new SearchMatches(this.reads, searches, { admission: true });
    // First listener: it adds the searches a change can alter, and the numbers an overdue ad's change alters, to the change's tags, for the caches after it.
    this.changes.subscribe((c) => {
      for (const tag of this.expiry.onChanges(c.rows, c.all)) c.tags.add(tag);
      for (const match of c.all ? this.matches.clear() : this.matches.onChanges(c.rows)) c.tags.add(searchTag(match));
      this.values.apply(c);
      if (c.all) this.places.slugs.clear(); // a place enabled or disabled
    });
    this.cards = new CardCache(cards);
    this.changes.subscribe((c) => this.cards.apply(c));
    this.caches.set('values', this.values);
  }

  /** Every cache's lookups since the server started and what it holds, against its budget (the memory health check). */
  cacheUse(): CacheUse[] {
    return cacheUse(this);
  }

  /** A cache of answers built from these reads: changes are applied to it too (the last one of a name is listed). */
  register(name: string, cache: TaggedCache<unknown>): void {
    this.caches.set(name, cache);
    this.changes.subscribe((c) => cache.apply(c));
  }

  /** Brings the caches up to date; false when nothing read now may be cached (see PublicChanges.sync). */
  sync(): boolean {
    return this.changes.sync();
  }

  private nowMs(): number {
    return this.deps.clock.now().getTime();
  }

  private nowIso(): string {
    return this.deps.clock.now().toISOString();
  }

  private value<T>(key: string, compute: () => { value: T; tags: readonly string[]; until: number }): { value: T; tags: readonly string[]; until: number } {
    const consistent = this.sync();
    const now = this.nowMs();
    const hit = consistent ? this.values.get(key, now) : undefined;
    if (hit) return hit as { value: T; tags: readonly string[]; until: number };
    const v = compute();
    const until = Math.min(v.until, now + VALUE_MS);
    if (consistent && until > now) this.values.set(key, { ...v, until });
    return { ...v, until };
  }

  /** Public ads of a list this scope holds, counted exactly: the counters less the ads whose time ran out. */
  private liveCount(scope: ListingScope): number {
    return Math.max(0, this.reads.count(scope) - this.expiry.overdue(scope));
  }

  /**
   * One page of a list, as its JSON body: the cards come joined by SQLite. A page past the end is
   * 404 (page 1 of an empty list is not: the place exists, it has no ads yet).
   */
  listings(q: { state?: string; city?: string; type?: string; page?: number; pageSize?: number }): Answer {
    this.sync();
    const { page, pageSize, offset } = pageArgs(q, LISTING_COUNT_CAP);
    const place = this.places.resolvePlace(q.state, q.city);
    const scope: ListingScope = { stateId: place.stateId, cityId: place.cityId, listingType: listingTypeOf(q.type) };
    const { json, n } = this.reads.cards(scope, this.nowIso(), pageSize, offset);
    // Past the end until an ad enters the list (which drops its tag).
    if (page > 1 && n === 0) throw refused(new NotFound('listings.page_not_found'), [scopeTag(scope)]);
    // A page that is not full ends the list: its total is exact whatever the counters say. Capped
    // as the pages are (pageArgs), so the last page a total announces is served.
    const total = Math.min(LISTING_COUNT_CAP, n < pageSize ? offset + n : Math.max(this.liveCount(scope), offset + n));
    const named = place.state ? `,"place":${JSON.stringify({ state: names(place.state), ...(place.city ? { city: names(place.city) } : {}) })}` : '';
    return {
      json: `{"ads":[${json}],"total":${total},"page":${page},"pageSize":${pageSize}${named}}`,
      tags: [scopeTag(scope)],
      until: this.expiry.nextChange(scope),
    };
  }

  search(q: { query?: string; state?: string; type?: string; page?: number; pageSize?: number }): Answer {
    const consistent = this.sync();
    const query = q.query ?? '';
    const words = searchWords(query);
    const rule = checkSearchQuery(query, words);
    if (rule) throw new Invalid('query', RULE_CODES[rule]);
    const { page, pageSize, offset } = pageArgs(q, SEARCH_COUNT_CAP);
    const { stateId } = this.places.resolvePlace(q.state);
    const filters = { listingType: listingTypeOf(q.type), stateId };
    const match = toMatchExpression(words, filters);
    if (!match) throw new Invalid('query', RULE_CODES.searchRequired);
    let seqs = consistent ? this.matches.get(match) : undefined;
    // An answer is kept only while its list is: a change drops the answers of the lists it alters.
    let kept = seqs !== undefined;
    // The matches read now (null: none, or FTS5 refused the expression) and that read's limit (0: none).
    let limit = 0;
    let found: Seqs | null = null;
    if (!seqs) {
      limit = SEARCH_COUNT_CAP;
      found = searchSeqs(this.reads, this.deps.log, match, limit);
      seqs = found ?? packSeqs([]);
    }
    let { overdue, next } = this.expiry.forSeqs(seqs);
    // Ads whose time ran out (before expire-ads hid them) take places among the matches read: while
    // fewer than SEARCH_COUNT_CAP are live and the read stopped at its limit, read that many more
    // (rare: the common search reads once).
    while (overdue.size && seqs.length - overdue.size < SEARCH_COUNT_CAP && (limit ? seqs.length >= limit : this.matches.isFull(match))) {
      limit = SEARCH_COUNT_CAP + overdue.size;
      found = searchSeqs(this.reads, this.deps.log, match, limit);
      seqs = found ?? packSeqs([]);
      if (!found) kept = false;
      ({ overdue, next } = this.expiry.forSeqs(seqs));
    }
    if (found && consistent) {
      const out = this.matches.set(match, found, words, filters, found.length >= limit);
      kept = !out.includes(match);
      for (const m of out) for (const c of this.caches.values()) c.drop(searchTag(m));
    }
    let live = overdue.size ? seqs.filter((s) => !overdue.has(s)) : seqs;
    if (live.length > SEARCH_COUNT_CAP) live = live.subarray(0, SEARCH_COUNT_CAP);
    const shown = live.slice(offset, offset + pageSize);
    if (page > 1 && !shown.length) throw refused(new NotFound('listings.page_not_found'), [searchTag(match)], kept ? Number.POSITIVE_INFINITY : 0);
    const json = this.cards.join(shown, this.nowMs(), consistent, (missing) => this.reads.cardsBySeqs(missing, this.nowIso()));
    return {
      json: `{"ads":[${json}],"total":${live.length},"page":${page},"pageSize":${pageSize}}`,
      tags: [searchTag(match)],
      until: kept ? next : 0,
    };
  }

  /**
   * A publicly visible ad; its owner and staff also see it while it is not (preview, review), with
   * `ownerId` and `rejectionReason` added (PRODUCT §7). Anyone else: 410 for an ad that ran out or
   * was deleted after it was published, 404 otherwise (never published, or hidden for now: offline,
   * disabled, its owner or place suspended, its term held).
   */
  ad(id: string, viewer: Actor): Answer<{ ad: ViewedAd }> & { value: { ad: ViewedAd } } {
    this.sync();
    const row = this.reads.adById(id);
    // A refusal depends on the ad as its answer would (a change of it drops a kept 404 page).
    const tags = [adTag(id)];
    if (!row) throw refused(this.reads.isGone(id) ? new AppError(410, 'listings.ad_gone') : new NotFound('listings.ad_not_found'), tags);
    const listed = this.listed(row);
    if (!can(viewer, 'view', listed)) {
      // A held term has not run (its owner awaits approval, or its place is closed): the ad comes back whole, so 404, never 410.
      const ranOut = !row.term_held && (row.status === 'expired' || (row.status === 'approved' && row.expires_at !== null && row.expires_at <= this.nowIso()));
      if (ranOut) throw refused(new AppError(410, 'listings.ad_gone'), tags);
      // Hidden (offline, disabled, its owner or place suspended): 404 until its time runs out, then 410, with no write to say so.
      throw refused(
        new NotFound('listings.ad_not_found'),
        tags,
        row.status === 'approved' && row.expires_at && !row.term_held ? Date.parse(row.expires_at) : Number.POSITIVE_INFINITY,
      );
    }
    // Only the public view is kept; an owner's or staff's view (of a public ad too) holds for no time.
    if (adsCan(viewer, 'preview', listed)) {
      const ad = { ...toPublicAd(row), ownerId: row.owner_id, rejectionReason: this.reads.rejectionReason(id) };
      return { value: { ad }, tags, until: 0 };
    }
    return { value: { ad: toPublicAd(row) }, tags, until: Date.parse(row.expires_at!) };
  }

  /** An ad as the policy sees it: public now when visible (approved, online, owner and place fine) and not expired. */
  listed(row: { owner_id: string; visible: number; expires_at: string | null }): ListedAd {
    return { ownerId: row.owner_id, isPublic: row.visible === 1 && row.expires_at !== null && row.expires_at > this.nowIso() };
  }

  /** Cities with public ads of a type, in one state or all, with their numbers. */
  aggregate(typeParam: string, stateSlug?: string): Answer<{ locations: AggregateLocation[] }> {
    const listingType = parseListingType(typeParam);
    if (!listingType) throw new NotFound('listings.unknown_listing_type');
    const stateId = stateSlug ? this.places.resolvePlace(stateSlug).stateId : undefined;
    return this.value(`aggregate:${listingType}:${stateId ?? ''}`, () => {
      const locations: AggregateLocation[] = [];
      let takenOff = false;
      for (const r of this.reads.aggregate(listingType, stateId)) {
        const count = r.n - this.expiry.overdue({ cityId: r.city_id, listingType });
        if (count !== r.n) takenOff = true;
        if (count > 0)
          locations.push({
            stateId: r.state_id,
            stateSlug: r.state_slug,
            stateName: r.state_name,
            cityId: r.city_id,
            citySlug: r.city_slug,
            cityName: r.city_name,
            count,
          });
      }
      // The counters ordered the rows (state, most ads, name: SQLite's binary order); ads whose time
      // ran out, taken off here, can change that order.
      if (takenOff) locations.sort((a, b) => binary(a.stateName, b.stateName) || b.count - a.count || binary(a.cityName, b.cityName));
      return {
        value: { locations },
        tags: [stateId ? countsStateTag(stateId) : countsTypeTag(listingType)],
        until: this.expiry.nextChange({ stateId, listingType }),
      };
    });
  }

  /** States with public ads of a type, with their numbers: what the country page shows for a type (not its every city). */
  stateCounts(typeParam: string): Answer<{ states: StateCount[] }> {
    const listingType = parseListingType(typeParam);
    if (!listingType) throw new NotFound('listings.unknown_listing_type');
    return this.value(`state-counts:${listingType}`, () => {
      const counted: (StateCount & { name: string })[] = [];
      for (const r of this.reads.stateCountsOfType(listingType)) {
        const count = r.n - this.expiry.overdue({ stateId: r.id, listingType });
        if (count > 0) counted.push({ stateId: r.id, stateSlug: r.slug, count, name: r.name });
      }
      // Most first, then by name (ads whose time ran out, taken off here, can change the counters' order).
      counted.sort((a, b) => b.count - a.count || binary(a.name, b.name));
      const states: StateCount[] = counted.map(({ stateId, stateSlug, count }) => ({ stateId, stateSlug, count }));
      return { value: { states }, tags: [countsTypeTag(listingType)], until: this.expiry.nextChange({ listingType }) };
    });
  }

  home(): Answer<HomeCounts> {
    return this.value('home', () => {
      const counts = new Map(this.reads.typeCounts().map((r) => [r.listing_type, r.n]));
      const topStates = this.reads
        .stateCounts()
        .map((s) => ({ stateId: s.id, slug: s.slug, name: s.name, count: s.n - this.expiry.overdue({ stateId: s.id }) }))
        .filter((s) => s.count > 0)
        .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
      return {
        value: {
          types: LISTING_TYPES.map((t) => ({ listingType: t, count: Math.max(0, (counts.get(t) ?? 0) - this.expiry.overdue({ listingType: t })) })),
          topStates,
        },
        tags: [COUNTS],
        until: this.expiry.nextChange({}),
      };
    });
  }

  /** The enabled states, by name. */
  states(): Answer<Place[]> {
    return this.value('states', () => ({ value: this.reads.enabledStates(), tags: [PLACES], until: this.nowMs() + DAY_MS }));
  }

  /** Files a report about an ad (listings.reports.ts). */
  reportAd(reporter: Actor, adId: string, body: { message: string; contact?: string | null; urgent?: boolean }, ip: string): Promise<Report> {
    return reportAd(this.deps, this, reporter, adId, body, ip);
  }
}
