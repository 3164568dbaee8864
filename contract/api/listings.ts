import { Type, type Static } from 'typebox';
import { Errors, PageInfo, Paging } from './common.ts';
import { AdCardSchema, PlaceNameSchema, PublicAdSchema } from './ads.ts';
import { ListingTypeSchema } from './pricing.ts';
import { ReportReceiptSchema, reportTextFields } from './reports.ts';
import type { RouteContract } from './types.ts';

const Slug = Type.String({ maxLength: 120 });
const AdId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });

/**
 * Listings count at most this many ads and serve no page past them: a list's total is min(its
 * ads, 10,000), and the client says "10,000+ ads" when it is the cap.
 */
export const LISTING_TOTAL_CAP = 10_000;
/**
 * Search counts at most this many matches (the newest), and serves no page past them: its total is
 * min(matches, 200), and the client says "200+ ads" when it is the cap. Counting is what a search
 * costs (listings.repository.ts SEARCH_COUNT_CAP).
 */
export const SEARCH_TOTAL_CAP = 200;

/**
 * One page of public ads as cards, newest bump first. Its total is capped (LISTING_TOTAL_CAP,
 * SEARCH_TOTAL_CAP): every page up to it is served. A listing names the place it lists (also when
 * it has no ads).
 */
export const AdPageSchema = Type.Object({
  ads: Type.Array(AdCardSchema),
  ...PageInfo,
  place: Type.Optional(Type.Object({ state: Type.Optional(PlaceNameSchema), city: Type.Optional(PlaceNameSchema) })),
});

/** A city with visible ads of one listing type, and how many. */
export const AggregateLocationSchema = Type.Object({
  stateId: Type.String(),
  stateSlug: Type.String(),
  stateName: Type.String(),
  cityId: Type.String(),
  citySlug: Type.String(),
  cityName: Type.String(),
  count: Type.Integer(),
});

/** The home page's counts: every listing type (0 included), and the states with ads, most first. */
export const HomeCountsSchema = Type.Object({
  types: Type.Array(Type.Object({ listingType: ListingTypeSchema, count: Type.Integer() })),
  topStates: Type.Array(Type.Object({ stateId: Type.String(), slug: Type.String(), name: Type.String(), count: Type.Integer() })),
});

/** A state's number of public ads of one listing type. */
export const StateCountSchema = Type.Object({ stateId: Type.String(), stateSlug: Type.String(), count: Type.Integer() });

/**
 * An ad as `GET /api/ads/:id` answers it: the public view, to which its owner's and staff's
 * answers add `ownerId` and `rejectionReason` (PRODUCT §7). A guest's answer carries neither.
 */
export const ViewedAdSchema = Type.Object({
  ...PublicAdSchema.properties,
  ownerId: Type.Optional(Type.String()),
  /** Set when staff rejected the ad; null otherwise. */
  rejectionReason: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

export type AdPage = Static<typeof AdPageSchema>;
export type ViewedAd = Static<typeof ViewedAdSchema>;
export type AggregateLocation = Static<typeof AggregateLocationSchema>;
export type HomeCounts = Static<typeof HomeCountsSchema>;
export type StateCount = Static<typeof StateCountSchema>;

/**
 * The listings module's routes (public reads, guests included): "METHOD /path" → the schemas of
 * its request and answers. Places are slugs; a listing type is its code or its URL slug.
 */
export const listingsApi = {
  'GET /api/listings': {
    querystring: Type.Object({ state: Type.Optional(Slug), city: Type.Optional(Slug), type: Type.Optional(Slug), ...Paging }),
    response: { 200: AdPageSchema, ...Errors },
  },
  'GET /api/search': {
    querystring: Type.Object({ query: Type.Optional(Type.String({ maxLength: 400 })), state: Type.Optional(Slug), type: Type.Optional(Slug), ...Paging }),
    response: { 200: AdPageSchema, ...Errors },
  },
  'GET /api/ads/:id': {
    params: AdId,
    response: { 200: Type.Object({ ad: ViewedAdSchema }), ...Errors },
  },
  'GET /api/users-ads-aggregate/us/:listingType': {
    params: Type.Object({ listingType: Slug }),
    /** One state's cities only (its slug). */
    querystring: Type.Object({ state: Type.Optional(Slug) }),
    response: { 200: Type.Object({ locations: Type.Array(AggregateLocationSchema) }), ...Errors },
  },
  /** The states with public ads of a type and their numbers (the country page by type: 51 rows, not every city). */
  'GET /api/users-ads-aggregate/us/:listingType/states': {
    params: Type.Object({ listingType: Slug }),
    response: { 200: Type.Object({ states: Type.Array(StateCountSchema) }), ...Errors },
  },
  'GET /api/home': {
    response: { 200: HomeCountsSchema, ...Errors },
  },
  // Anyone may report an ad (limited per IP, shared with the public report forms). `urgent`: the
  // person may be a minor or trafficked; filed as a trafficking tip about the ad, listed first for staff.
  'POST /api/report-ad/:id': {
    params: AdId,
    body: Type.Object({ ...reportTextFields, urgent: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    response: { 201: ReportReceiptSchema, ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
