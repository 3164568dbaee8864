import type { PublicAd } from '../../contract/api/ads.ts';
import type { AdPage, AggregateLocation, HomeCounts, StateCount as TypeStateCount } from '../../contract/api/listings.ts';
import type { ListingType } from '../../contract/api/pricing.ts';
import type { Transparency } from '../../contract/api/moderation.ts';
import { checkSearchQuery } from '../../contract/rules.ts';
import { DEFAULT_PAGE_SIZE } from '../../contract/api/paging.ts';
import { LISTING_TYPES } from './routes';

// One loader per public route, with the data its page shows. The server renderer runs it against
// the services (server/modules/site/site.source.ts) and embeds the result in the page; in the
// browser, client-side navigation runs the same loader against the API (src/api/publicSource.ts).
// Pages read the result with useRouteData (routeData.ts). No JSX, no browser globals.

/** 200 with the page's data, or the page does not exist (404) or no longer exists (410). */
export type Loaded<T> = { status: 200; data: T } | { status: 404 | 410; data: null };

export interface StateRef {
  id: string;
  name: string;
  slug: string;
}

/** Where loaders read: the services on the server, the API in the browser. Errors carry `status`. */
export interface PublicSource {
  home(): Promise<HomeCounts>;
  states(): Promise<StateRef[]>;
  aggregate(type: ListingType, state?: string): Promise<AggregateLocation[]>;
  stateCounts(type: ListingType): Promise<TypeStateCount[]>;
  listings(q: { state: string; city: string; type: ListingType; page: number }): Promise<AdPage>;
  ad(id: string): Promise<PublicAd>;
  search(q: { query: string; state?: string; type?: ListingType; page: number }): Promise<AdPage>;
  transparency(): Promise<Transparency>;
}

export type Params = Record<string, string | undefined>;

export interface RouteLoader<T> {
  /** Names the data (the route and what it depends on); equal keys are equal data. */
  key(params: Params, search: string): string;
  load(params: Params, search: string, source: PublicSource): Promise<Loaded<T>>;
}

const statusOf = (e: unknown): number | undefined => {
  const x = e as { status?: unknown; statusCode?: unknown; code?: unknown; params?: { field?: unknown } } | null;
  // A page past the deepest one listings and search serve (or the API's paging allows) is no page, like one past the last.
  if (x?.code === 'listings.page_too_far' || (x?.code === 'validation.invalid' && x.params?.field === 'page')) return 404;
  const s = x?.status ?? x?.statusCode;
  return typeof s === 'number' ? s : undefined;
};

/** Runs `fn`; a 404 or 410 from the source becomes that status, anything else is thrown. */
async function guard<T>(fn: () => Promise<T>): Promise<Loaded<T>> {
  try {
    return { status: 200, data: await fn() };
  } catch (e) {
    const s = statusOf(e);
    if (s === 404 || s === 410) return { status: s, data: null };
    throw e;
  }
}

const missing = <T>(): Loaded<T> => ({ status: 404, data: null });

/** A query the search refuses (only signs, no word to look for) matches no ad. */
async function searchOrNone(fn: () => Promise<AdPage>, page: number): Promise<Loaded<AdPage>> {
  try {
    return await guard(fn);
  } catch (e) {
    if (statusOf(e) !== 400 || (e as { code?: unknown }).code !== 'validation.search_required') throw e;
    return page > 1 ? missing() : { status: 200, data: { ads: [], total: 0, page: 1, pageSize: DEFAULT_PAGE_SIZE } };
  }
}

export const typeFromSlug = (slugOrCode: string | null | undefined): ListingType | null =>
  (LISTING_TYPES.find((x) => x.slug === slugOrCode || x.code === slugOrCode)?.code as ListingType | undefined) ?? null;

/** Reads ?page= as a positive integer (1 when missing or junk). */
export function pageParam(search: string): number {
  const n = Number(new URLSearchParams(search).get('page'));
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** ?type= of the browse pages: a listing type's slug; absent is all types, anything else does not exist. */
function typeParam(search: string): { type: ListingType | null; known: boolean } {
  const raw = new URLSearchParams(search).get('type');
  if (!raw) return { type: null, known: true };
  const type = typeFromSlug(raw);
  return { type, known: type !== null };
}

export interface HomeData {
  counts: HomeCounts | null;
}

export interface StateCount {
  slug: string;
  name: string;
  count: number;
}

export interface UsData {
  type: ListingType | null;
  states: StateCount[];
}

export interface CityCount {
  slug: string;
  name: string;
  count: number;
  byType: Partial<Record<ListingType, number>>;
}

/** The cities a state page shows in full at the top, largest first; the others are reached by their first letter. */
const TOP_CITIES = 12;

export interface LetterCount {
  /** The first letter of the cities' names, accents taken off ("Á" is "A"), upper case. */
  letter: string;
  /** How many cities (not ads). */
  count: number;
}

/**
 * A state page: its largest cities, then the others by first letter, one letter at a time
 * (?letter=): a state of a thousand cities is a light page, and every city is still a link away.
 */
export interface StateData {
  type: ListingType | null;
  state: StateRef;
  /** The largest cities (at most TOP_CITIES), largest first. */
  top: CityCount[];
  /** The first letters of the other cities, in order. */
  letters: LetterCount[];
  /** The letter asked for (?letter=), or null. */
  letter: string | null;
  /** The other cities of that letter, by name (none without a letter). */
  cities: CityCount[];
}

export interface CityData {
  type: ListingType;
  page: AdPage;
}

export interface SearchData {
  states: StateRef[];
  /** Null while the query is not a valid search. */
  results: AdPage | null;
}

/** The cities of one state from the per-type numbers, largest first (ties by name). */
export function cityCounts(parts: ReadonlyArray<{ type: ListingType; rows: readonly AggregateLocation[] }>): CityCount[] {
  const m = new Map<string, CityCount>();
  for (const p of parts)
    for (const r of p.rows) {
      const c = m.get(r.citySlug) ?? { slug: r.citySlug, name: r.cityName, count: 0, byType: {} };
      c.count += r.count;
      c.byType[p.type] = (c.byType[p.type] ?? 0) + r.count;
      m.set(r.citySlug, c);
    }
  return [...m.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'en'));
}

const home: RouteLoader<HomeData> = {
  key: () => 'home',
  // The numbers are a bonus: without them the page still offers every way in.
  load: async (_p, _s, source) => ({ status: 200, data: { counts: await source.home().catch(() => null) } }),
};

const listingsUs: RouteLoader<UsData> = {
  key: (_p, search) => `us:${typeParam(search).type ?? ''}`,
  async load(_p, search, source) {
    const { type, known } = typeParam(search);
    if (!known) return missing();
    const [states, counts] = await Promise.all([
      source.states(),
      type
        ? source.stateCounts(type).then((rows) => new Map(rows.map((r) => [r.stateSlug, r.count])))
        : source.home().then((h) => new Map(h.topStates.map((s) => [s.slug, s.count]))),
    ]);
    // Every enabled state is listed: a state without ads yet is still a place to look.
    return { status: 200, data: { type, states: states.map((s) => ({ slug: s.slug, name: s.name, count: counts.get(s.slug) ?? 0 })) } };
  },
};

/** Every city of a state with ads (of one type, or of all), largest first: the state page's filter box searches them. */
export async function stateCities(stateSlug: string, type: ListingType | null, source: PublicSource): Promise<CityCount[]> {
  const types = type ? [type] : LISTING_TYPES.map((t) => t.code as ListingType);
  return cityCounts(await Promise.all(types.map(async (t) => ({ type: t, rows: await source.aggregate(t, stateSlug) }))));
}

/** The first letter a city is listed under: "Ávila" under A, "29 Palms" under 2. */
const firstLetter = (name: string): string => name.normalize('NFD').charAt(0).toUpperCase();

/** ?letter= as given (trimmed, upper case), or null when absent. */
function letterParam(search: string): string | null {
  const raw = new URLSearchParams(search).get('letter');
  return raw === null ? null : raw.trim().toUpperCase();
}

const listingsState: RouteLoader<StateData> = {
  key: (p, search) => `state:${p.state}:${typeParam(search).type ?? ''}:${letterParam(search) ?? ''}`,
  async load(p, search, source) {
    const { type, known } = typeParam(search);
    const wanted = letterParam(search);
    const state = (await source.states()).find((s) => s.slug === p.state);
    if (!known || !state) return missing();
    const cities = await stateCities(state.slug, type, source);
    const byLetter = new Map<string, CityCount[]>();
    for (const c of cities.slice(TOP_CITIES)) {
      const l = firstLetter(c.name);
      const group = byLetter.get(l);
      if (group) group.push(c);
      else byLetter.set(l, [c]);
    }
    // A letter no city of the rest starts with is no page (as a page past the end is not).
    const chosen = wanted === null ? null : byLetter.get(wanted);
    if (chosen === undefined) return missing();
    const letters = [...byLetter.entries()].map(([letter, cs]) => ({ letter, count: cs.length })).sort((a, b) => a.letter.localeCompare(b.letter, 'en'));
    return {
      status: 200,
      data: {
        type,
        state: { id: state.id, name: state.name, slug: state.slug },
        top: cities.slice(0, TOP_CITIES),
        letters,
        letter: wanted,
        cities: chosen ? chosen.sort((a, b) => a.name.localeCompare(b.name, 'en')) : [],
      },
    };
  },
};

const listingsCity: RouteLoader<CityData> = {
  key: (p, search) => `city:${p.state}/${p.city}/${p.type}/${pageParam(search)}`,
  async load(p, search, source) {
    const type = typeFromSlug(p.type);
    if (!type || !p.state || !p.city) return missing();
    const r = await guard(() => source.listings({ state: p.state!, city: p.city!, type, page: pageParam(search) }));
    return r.status === 200 ? { status: 200, data: { type, page: r.data } } : r;
  },
};

const ad: RouteLoader<PublicAd> = {
  key: (p) => `ad:${p.id}`,
  load: (p, _s, source) => guard(() => source.ad(p.id ?? '')),
};

/** The search a URL asks for, as the page and its loader read it. */
export function searchParams(search: string): { query: string; state: string; type: ListingType | ''; page: number; valid: boolean } {
  const q = new URLSearchParams(search);
  const query = q.get('query') ?? '';
  return { query, state: q.get('state') ?? '', type: typeFromSlug(q.get('type')) ?? '', page: pageParam(search), valid: !checkSearchQuery(query) };
}

const search: RouteLoader<SearchData> = {
  key: (_p, s) => {
    const q = searchParams(s);
    return `search:${q.valid ? q.query.trim() : ''}|${q.state}|${q.type}|${q.page}`;
  },
  async load(_p, s, source) {
    const q = searchParams(s);
    const [states, results] = await Promise.all([
      source.states(),
      q.valid
        ? searchOrNone(() => source.search({ query: q.query.trim(), state: q.state || undefined, type: q.type || undefined, page: q.page }), q.page)
        : null,
    ]);
    if (results && results.status !== 200) return results;
    return { status: 200, data: { states, results: results?.data ?? null } };
  },
};

/** The transparency report's monthly figures: the page is its table, so it is rendered with them. */
const transparency: RouteLoader<Transparency> = {
  key: () => 'transparency',
  load: async (_p, _s, source) => ({ status: 200, data: await source.transparency() }),
};

/** The loaders by route name (src/app/routes.ts); routes without one have no data. */
export const LOADERS = { home, listingsUs, listingsState, listingsCity, ad, search, transparency } as const;
export type LoaderName = keyof typeof LOADERS;
