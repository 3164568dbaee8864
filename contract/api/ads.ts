import { Type, type Static, type TSchema } from 'typebox';
import { Errors, PageInfo, Paging } from './common.ts';
import { UserStatusSchema } from './auth.ts';
import { ListingTypeSchema } from './pricing.ts';
import { WalletSchema } from './wallets.ts';
import type { RouteContract } from './types.ts';

export const AdStatusSchema = Type.Union([
  Type.Literal('unpaid'),
  Type.Literal('in_review'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
  Type.Literal('disabled'),
  Type.Literal('expired'),
]);
export type AdStatus = Static<typeof AdStatusSchema>;

/** Why an ad was rejected, as a category (the transparency report counts them); the reason stays free text. */
export const RejectionCategorySchema = Type.Union([
  Type.Literal('underage_suspected'),
  Type.Literal('trafficking_suspected'),
  Type.Literal('prohibited_content'),
  Type.Literal('spam'),
  Type.Literal('misleading'),
  Type.Literal('other'),
]);
export type RejectionCategory = Static<typeof RejectionCategorySchema>;
/** An ad's status as staff search it: the stored ones, and 'deleted' for an ad kept under a legal hold after its deletion. */
export const SearchStatusSchema = Type.Union([...AdStatusSchema.anyOf, Type.Literal('deleted')]);
export type SearchStatus = Static<typeof SearchStatusSchema>;
/** A staff list's search: an ad id, words of the title and description, phone digits, the owner's e-mail or nickname. */
const StaffSearch = Type.Optional(Type.String({ maxLength: 200 }));

/** One stored photo: the large WebP and its thumbnail (both under /uploads/ads/). */
export const PhotoSchema = Type.Object({
  url: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  thumbUrl: Type.String(),
  /** The thumbnail's own size (the two sizes make an image's srcset). */
  thumbWidth: Type.Optional(Type.Integer()),
  thumbHeight: Type.Optional(Type.Integer()),
});
export type Photo = Static<typeof PhotoSchema>;

/** A place as a card names it. */
export const PlaceNameSchema = Type.Object({ name: Type.String(), slug: Type.String() });

/**
 * An ad in a list (listings, search): what its card shows, and nothing more (the detail has the
 * rest). Built by SQLite (migration 0011, view ads_card_source) and sent as stored.
 */
export const AdCardSchema = Type.Object({
  id: Type.String(),
  listingType: ListingTypeSchema,
  title: Type.String(),
  age: Type.String(),
  state: PlaceNameSchema,
  city: PlaceNameSchema,
  phoneVerified: Type.Boolean(),
  /** The first photo, both sizes. */
  photo: Type.Union([
    Type.Object({
      url: Type.String(),
      width: Type.Integer(),
      height: Type.Integer(),
      thumbUrl: Type.String(),
      thumbWidth: Type.Integer(),
      thumbHeight: Type.Integer(),
    }),
    Type.Null(),
  ]),
  bumpedAt: Type.Union([Type.String(), Type.Null()]),
});
export type AdCard = Static<typeof AdCardSchema>;

export const PlaceSchema = Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String() });
export type Place = Static<typeof PlaceSchema>;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** One line of an ad's rates (contract/ad-extras.ts): how long, for how much. */
export const RateLineSchema = Type.Object({ minutes: Type.Integer(), priceCents: Type.Integer() });
const Hours = Type.Object({ from: Type.String(), to: Type.String() });
/** Hours by weekday ('HH:MM', 24-hour; `to` before `from` runs past midnight); a missing day is not available. */
export const AvailabilitySchema = Type.Object({
  mon: Type.Optional(Hours),
  tue: Type.Optional(Hours),
  wed: Type.Optional(Hours),
  thu: Type.Optional(Hours),
  fri: Type.Optional(Hours),
  sat: Type.Optional(Hours),
  sun: Type.Optional(Hours),
});
/** What peers' ads show beyond the text: rates, incall / outcall, hours. */
export const AdDetailsSchema = Type.Object({
  rates: Type.Array(RateLineSchema),
  incall: Type.Boolean(),
  outcall: Type.Boolean(),
  availability: AvailabilitySchema,
});
export type AdDetails = Static<typeof AdDetailsSchema>;

// The ad in three views, each the field whitelist of the answers that use it: a public route
// answers PublicAdSchema, so an owner field can never reach a guest even if a service returned it
// by mistake. age is '21'…'45' or 'over45'.
const publicFields = {
  id: Type.String(),
  listingType: ListingTypeSchema,
  title: Type.String(),
  description: Type.String(),
  age: Type.String(),
  state: PlaceSchema,
  city: PlaceSchema,
  phone: Type.String(),
  /** The phone is its owner's verified phone (a confirmed text-message code): the "Phone verified" badge. */
  phoneVerified: Type.Boolean(),
  photos: Type.Array(PhotoSchema),
  status: AdStatusSchema,
  online: Type.Boolean(),
  bumpedAt: Nullable(Type.String()),
  publishedAt: Nullable(Type.String()),
  expiresAt: Nullable(Type.String()),
  /** Rates, incall / outcall, hours (every answer built from the ads row carries them). */
  details: Type.Optional(AdDetailsSchema),
};

/** The editable content of an ad, as a revision holds it (and the live ad it would replace). */
export const AdContentSchema = Type.Object({
  listingType: ListingTypeSchema,
  title: Type.String(),
  description: Type.String(),
  age: Type.String(),
  state: PlaceSchema,
  city: PlaceSchema,
  phone: Type.String(),
  photos: Type.Array(PhotoSchema),
  details: AdDetailsSchema,
});
export type AdContent = Static<typeof AdContentSchema>;

/** The latest edit of an approved ad that is not live yet: waiting for review, or rejected (with the reason). */
export const RevisionSchema = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('rejected')]),
  rejectionReason: Nullable(Type.String()),
  createdAt: Type.String(),
  content: AdContentSchema,
});
export type Revision = Static<typeof RevisionSchema>;

const ownerFields = {
  ...publicFields,
  ownerId: Type.String(),
  /** Set when staff rejected the ad. */
  rejectionReason: Nullable(Type.String()),
  /** What was paid (null while unpaid). */
  priceCents: Nullable(Type.Integer()),
  paidWalletId: Nullable(Type.String()),
  createdAt: Type.String(),
  /** An edit of this (approved) ad waiting for review or rejected; null when none. My ads lists carry it. */
  revision: Type.Optional(Nullable(RevisionSchema)),
  /** Page views of the ad in the last 7 and 30 days (my ads lists). */
  views7: Type.Optional(Type.Integer()),
  views30: Type.Optional(Type.Integer()),
  /**
   * The truth about an ad the owner cannot see as the public does: whether the public sees it now
   * (`shown`), whether staff closed its city or state (`placeClosed`: it shows nowhere until they
   * open it again or the owner moves it), and whether its paid term is held (`termHeld`: approved
   * while the account was not, or while its place was closed; its days start when both are, and
   * `expiresAt` is a nominal end until then). Every answer built from the ads row carries them.
   */
  shown: Type.Optional(Type.Boolean()),
  placeClosed: Type.Optional(Type.Boolean()),
  termHeld: Type.Optional(Type.Boolean()),
};

/** An ad as anyone may see it (listings, search, the ad's page). */
export const PublicAdSchema = Type.Object(publicFields);
/** An ad as its owner sees it (cart, my ads): with the payment and the rejection reason. */
export const OwnerAdSchema = Type.Object(ownerFields);
/** An ad as staff see it in review lists: the owner's view plus who posted it. */
export const StaffAdSchema = Type.Object({
  ...ownerFields,
  owner: Type.Object({ id: Type.String(), email: Type.String(), nickname: Type.String(), status: UserStatusSchema }),
  /**
   * In the review queue, an edit of a live ad: `id` is the revision's (decide it with that id),
   * `revisionOf` the ad's, the other fields are the proposed content and `previous` the live one.
   */
  revisionOf: Type.Optional(Type.String()),
  previous: Type.Optional(AdContentSchema),
  /**
   * When the item last changed (an owner may edit an ad in review; an edit of a live ad is a new
   * item each time): an approval names it in `seen`, so only the version the reviewer saw is approved.
   */
  updatedAt: Type.String(),
});
export type PublicAd = Static<typeof PublicAdSchema>;
export type OwnerAd = Static<typeof OwnerAdSchema>;
export type StaffAd = Static<typeof StaffAdSchema>;

/** An ad refused by screening (kept for staff; the ad itself was never stored). */
export const ScreeningEntrySchema = Type.Object({
  id: Type.Integer(),
  userId: Nullable(Type.String()),
  userEmail: Nullable(Type.String()),
  field: Type.Union([Type.Literal('title'), Type.Literal('description')]),
  term: Type.String(),
  title: Type.String(),
  description: Type.String(),
  createdAt: Type.String(),
});
export type ScreeningEntry = Static<typeof ScreeningEntrySchema>;

/**
 * The text fields of POST /api/post-ad. The body is multipart, so no JSON schema describes it:
 * the service checks each field (codes ad.*, naming the field) and the photos come as files.
 */
export const POST_AD_FIELDS = [
  'listingType',
  'title',
  'description',
  'age',
  'stateId',
  'cityId',
  'phone',
  // Optional (issue 13): rates and availability as JSON text, incall / outcall as 'true' / 'false'.
  'rates',
  'incall',
  'outcall',
  'availability',
] as const;
/** PUT /api/ads/{id} adds the photos to keep: a JSON array of the current photo URLs. */
export const EDIT_AD_FIELDS = [...POST_AD_FIELDS, 'keepPhotos'] as const;
type OptionalAdField = 'rates' | 'incall' | 'outcall' | 'availability';
export type PostAdFields = Record<Exclude<(typeof POST_AD_FIELDS)[number], OptionalAdField>, string> & Partial<Record<OptionalAdField, string>>;

const Id = Type.String({ minLength: 1, maxLength: 40 });
const IdParams = Type.Object({ id: Id });

/**
 * My ads' two lists: 'approved' holds the ads that were ever approved (approved, disabled,
 * expired), 'pending' the others (unpaid, in review, rejected); an ad's status tells which.
 */
export const OwnAdsListSchema = Type.Union([Type.Literal('approved'), Type.Literal('pending')]);
export type OwnAdsList = Static<typeof OwnAdsListSchema>;

/** How many of the user's ads are in each status (an approved ad past its expiry counted as expired, as my ads shows it). */
export const AdCountsSchema = Type.Object({
  unpaid: Type.Integer(),
  in_review: Type.Integer(),
  approved: Type.Integer(),
  rejected: Type.Integer(),
  disabled: Type.Integer(),
  expired: Type.Integer(),
});
export type AdCounts = Static<typeof AdCountsSchema>;

/**
 * A decision on one of the user's ads: the latest on the ad as it stands now, approved (when it
 * was), rejected (with the reason), disabled by staff, or expired (when its time ran out); or
 * staff's on an edit of it, edit_approved or edit_rejected (with the reason), when they decided.
 * The title is the ad's as it is now.
 */
export const AdActivitySchema = Type.Object({
  adId: Type.String(),
  title: Type.String(),
  event: Type.Union([
    Type.Literal('approved'),
    Type.Literal('rejected'),
    Type.Literal('disabled'),
    Type.Literal('expired'),
    Type.Literal('edit_approved'),
    Type.Literal('edit_rejected'),
  ]),
  at: Type.String(),
  /** The rejection's reason, of the ad or of the edit (null for the other events). */
  reason: Nullable(Type.String()),
});
export type AdActivity = Static<typeof AdActivitySchema>;
/**
 * A payment's body: the wallet, and what the payer was shown (optional): a price or term changed
 * since is refused with 409 pricing.price_changed, nothing charged.
 */
const PayBody = Type.Object({
  walletId: Id,
  priceCents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  durationDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
});
const BumpBody = Type.Object({ walletId: Id, priceCents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })) });
const OneAd = Type.Object({ ad: OwnerAdSchema });
const AdAndWallet = Type.Object({ ad: OwnerAdSchema, wallet: WalletSchema });
const AdIds = Type.Array(Id, { minItems: 1, maxItems: 100 });
const Updated = Type.Object({ updated: Type.Integer() });
/** The version of each ad a staff member saw (its `updatedAt` in the list): a decision applies to that version only. */
const Seen = Type.Optional(Type.Array(Type.Object({ id: Id, updatedAt: Type.String({ maxLength: 40 }) }), { maxItems: 100 }));

/**
 * The request header that makes a provider's action happen once (server/core/idempotency.ts): the
 * client makes one random key per action (one post of one form, one bump or renewal of one ad) and
 * sends it again when it retries the action; the server answers a key already done with the stored
 * answer, without acting again, for a day. 8–100 of A–Z a–z 0–9 _ - (else 400
 * request.idempotency_key_invalid); the same key for another action or ad is refused (422
 * request.idempotency_key_reused). Without it a route acts as it always did.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
/** The request headers of the routes in IDEMPOTENT_ROUTES (Fastify's `headers` schema; names lower case). */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'One random key per user action, the same on its retries (8–100 of A–Z a–z 0–9 _ -).' })),
});
/** The routes that take an Idempotency-Key header: those that charge a wallet or fill the cart without a key of their own. */
export const IDEMPOTENT_ROUTES = ['POST /api/post-ad', 'PUT /api/bump-ad/:id', 'PUT /api/renew-ad/:id'] as const;

/** The ads module's routes: "METHOD /path" → the schemas of its request and answers. */
export const adsApi = {
  /**
   * Posts an ad into the cart (status unpaid). Multipart: the text fields listingType, title,
   * description, age, stateId, cityId, phone, and 1–10 files under `photos` (JPEG, PNG or WebP,
   * 10 MB each, 60 MB in all); the fields are checked by the service, each refusal naming its field.
   */
  'POST /api/post-ad': { consumes: ['multipart/form-data'], response: { 201: OneAd, ...Errors } },
  /** The cart: the user's unpaid ads, newest first, a page at a time (20 unless pageSize says). */
  'GET /api/cart-ads-by-user': {
    querystring: Type.Object(Paging),
    response: { 200: Type.Object({ pendingAds: Type.Array(OwnerAdSchema), ...PageInfo }), ...Errors },
  },
  /**
   * The user's ads, newest first, a page at a time (20 unless pageSize says): of one list when
   * `list` names it (the other comes empty), else of both together, each ad in its own list.
   * `adId` asks for that one ad alone (an e-mail's link to it; nothing when it is not the user's).
   * `total` counts what is paged; `totals` the two lists whole.
   */
  'GET /api/all-ads-by-user': {
    querystring: Type.Object({ ...Paging, list: Type.Optional(OwnAdsListSchema), adId: Type.Optional(Id) }),
    response: {
      200: Type.Object({
        approvedAds: Type.Array(OwnerAdSchema),
        pendingAds: Type.Array(OwnerAdSchema),
        ...PageInfo,
        totals: Type.Object({ approvedAds: Type.Integer(), pendingAds: Type.Integer() }),
      }),
      ...Errors,
    },
  },
  /**
   * The dashboard's view of the user's ads: how many are in each status, how many the public sees
   * now (approved, online, not past their expiry, the account approved, the place open), and the
   * latest decisions on them (at most 5, newest first).
   */
  'GET /api/my-ads-overview': {
    response: { 200: Type.Object({ counts: AdCountsSchema, online: Type.Integer(), recent: Type.Array(AdActivitySchema) }), ...Errors },
  },
  /** Only an unpaid ad of the user's own (409 otherwise; 404 for another user's). */
  'DELETE /api/delete-cart-ad/:id': { params: IdParams, response: { 200: Type.Object({ deleted: Type.Literal(true) }), ...Errors } },
  /** Pays a cart ad from one of the user's wallets (402 when short, 409 when already paid); the ad goes to review. */
  'PUT /api/ad-payment-in-cart/:id': { params: IdParams, body: PayBody, response: { 200: AdAndWallet, ...Errors } },
  /** Moves an approved, running ad to the top of its listings for the bump price (409 within a minute of the last bump). */
  'PUT /api/bump-ad/:id': { params: IdParams, body: BumpBody, response: { 200: AdAndWallet, ...Errors } },
  'PUT /api/update-ad-online-status/:id': { params: IdParams, body: Type.Object({ online: Type.Boolean() }), response: { 200: OneAd, ...Errors } },
  /**
   * Edits an own ad (multipart: post-ad's fields, new files under `photos`, and `keepPhotos`, a JSON
   * array of the current photo URLs to keep; 1–10 photos in the result). Screened as at posting.
   * An unpaid or in-review ad changes in place; a rejected one changes and goes back to the cart,
   * unpaid; an approved or expired one gets a revision, reviewed before the public sees it.
   */
  'PUT /api/ads/:id': { params: IdParams, consumes: ['multipart/form-data'], response: { 200: OneAd, ...Errors } },
  /**
   * Renews an approved or expired ad for the ad price: expiresAt = max(now, expiresAt) + the duration,
   * or expiresAt + the duration for a held term (laid end to end, they start together); 402 when short.
   */
  'PUT /api/renew-ad/:id': { params: IdParams, body: PayBody, response: { 200: AdAndWallet, ...Errors } },
  /** Deletes an own ad: one in review is refunded in full to the wallet that paid it; an approved one is removed without refund. */
  'DELETE /api/ads/:id': {
    params: IdParams,
    response: { 200: Type.Object({ deleted: Type.Literal(true), refundedCents: Type.Integer() }), ...Errors },
  },
  /**
   * Another enabled city of an enabled state; not for a rejected or disabled ad. An expired one may
   * move, to be renewed there; a held term starts there when the account is approved.
   */
  'PUT /api/update-ad-location/:id': {
    params: IdParams,
    body: Type.Object({ stateId: Id, cityId: Id }),
    response: { 200: OneAd, ...Errors },
  },

  // Staff review (/api/admin/*: ADMIN_USER or MASTER_USER). Nobody decides on their own ad (409).
  /** Ads in review, oldest payment first; unpaid ones too (after them) when asked. */
  'GET /api/admin/get-pending-ads': {
    querystring: Type.Object({ ...Paging, includeUnpaid: Type.Optional(Type.Boolean()), query: StaffSearch }),
    response: { 200: Type.Object({ pendingAds: Type.Array(StaffAdSchema), ...PageInfo }), ...Errors },
  },
  /**
   * Approves ads in review, or rejects them with a reason (3–500 characters) and a full refund;
   * `updated` counts the changed ones. Revisions (ids from the queue's `revisionOf` items) are
   * decided the same way: approved, they become the live ad; rejected, the live ad stays as it was.
   * `seen` pins a decision (approval or rejection) to what the reviewer saw: an ad in review whose
   * `updatedAt` is no longer the one named (its owner edited it since) is not decided, nor counted;
   * the queue shows it again.
   */
  'POST /api/admin/approve-pending-ads': {
    body: Type.Object({
      adIds: AdIds,
      seen: Seen,
      decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
      reason: Type.Optional(Type.String({ maxLength: 1000 })),
      /** A rejection's category (default 'other'). */
      category: Type.Optional(RejectionCategorySchema),
    }),
    response: { 200: Updated, ...Errors },
  },
  /** Ads that were published (approved, disabled or expired), newest first, optionally of one status. */
  'GET /api/admin/get-approved-ads': {
    querystring: Type.Object({
      ...Paging,
      status: Type.Optional(Type.Union([Type.Literal('approved'), Type.Literal('disabled'), Type.Literal('expired')])),
      query: StaffSearch,
    }),
    response: { 200: Type.Object({ approvedAds: Type.Array(StaffAdSchema), ...PageInfo }), ...Errors },
  },
  /**
   * Disables approved ads, or enables disabled ones ('approved' and 'enabled' mean the same; an ad whose time ran out becomes expired).
   * `seen` pins an enable to what the staff member saw: an ad whose `updatedAt` is no longer the one
   * named (another staff member's newer takedown, its owner's change since) is left as it is, nor
   * counted; the list shows it as it is now. A takedown applies whatever the list showed.
   */
  'POST /api/admin/set-status-approved-ads': {
    body: Type.Object({
      adIds: AdIds,
      status: Type.Union([Type.Literal('approved'), Type.Literal('disabled'), Type.Literal('enabled')]),
      seen: Seen,
    }),
    response: { 200: Updated, ...Errors },
  },
  /** Ads refused by screening, newest first. */
  'GET /api/admin/get-screening-log': {
    querystring: Type.Object(Paging),
    response: { 200: Type.Object({ entries: Type.Array(ScreeningEntrySchema), ...PageInfo }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
