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

/** One stored photo: the large WebP and its thumbnail (both under /uploads/ads/). */
export const PhotoSchema = Type.Object({ url: Type.String(), width: Type.Integer(), height: Type.Integer(), thumbUrl: Type.String() });
export type Photo = Static<typeof PhotoSchema>;

export const PlaceSchema = Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String() });
export type Place = Static<typeof PlaceSchema>;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

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
  photos: Type.Array(PhotoSchema),
  status: AdStatusSchema,
  online: Type.Boolean(),
  bumpedAt: Nullable(Type.String()),
  publishedAt: Nullable(Type.String()),
  expiresAt: Nullable(Type.String()),
};
const ownerFields = {
  ...publicFields,
  ownerId: Type.String(),
  /** Set when staff rejected the ad. */
  rejectionReason: Nullable(Type.String()),
  /** What was paid (null while unpaid). */
  priceCents: Nullable(Type.Integer()),
  paidWalletId: Nullable(Type.String()),
  createdAt: Type.String(),
};

/** An ad as anyone may see it (listings, search, the ad's page). */
export const PublicAdSchema = Type.Object(publicFields);
/** An ad as its owner sees it (cart, my ads): with the payment and the rejection reason. */
export const OwnerAdSchema = Type.Object(ownerFields);
/** An ad as staff see it in review lists: the owner's view plus who posted it. */
export const StaffAdSchema = Type.Object({
  ...ownerFields,
  owner: Type.Object({ id: Type.String(), email: Type.String(), nickname: Type.String(), status: UserStatusSchema }),
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
export const POST_AD_FIELDS = ['listingType', 'title', 'description', 'age', 'stateId', 'cityId', 'phone'] as const;
export type PostAdFields = Record<(typeof POST_AD_FIELDS)[number], string>;

const Id = Type.String({ minLength: 1, maxLength: 40 });
const IdParams = Type.Object({ id: Id });
const WalletBody = Type.Object({ walletId: Id });
const OneAd = Type.Object({ ad: OwnerAdSchema });
const AdAndWallet = Type.Object({ ad: OwnerAdSchema, wallet: WalletSchema });
const AdIds = Type.Array(Id, { minItems: 1, maxItems: 100 });
const Updated = Type.Object({ updated: Type.Integer() });

/** The ads module's routes: "METHOD /path" → the schemas of its request and answers. */
export const adsApi = {
  /**
   * Posts an ad into the cart (status unpaid). Multipart: the text fields listingType, title,
   * description, age, stateId, cityId, phone, and 1–10 files under `photos` (JPEG, PNG or WebP,
   * 10 MB each, 60 MB in all); the fields are checked by the service, each refusal naming its field.
   */
  'POST /api/post-ad': { consumes: ['multipart/form-data'], response: { 201: OneAd, ...Errors } },
  /** The cart: the user's unpaid ads, newest first. */
  'GET /api/cart-ads-by-user': { response: { 200: Type.Object({ pendingAds: Type.Array(OwnerAdSchema) }), ...Errors } },
  /** Every ad of the user: ever approved (approved, disabled, expired) and the others (unpaid, in review, rejected). */
  'GET /api/all-ads-by-user': {
    response: { 200: Type.Object({ approvedAds: Type.Array(OwnerAdSchema), pendingAds: Type.Array(OwnerAdSchema) }), ...Errors },
  },
  /** Only an unpaid ad of the user's own (409 otherwise; 404 for another user's). */
  'DELETE /api/delete-cart-ad/:id': { params: IdParams, response: { 200: Type.Object({ deleted: Type.Literal(true) }), ...Errors } },
  /** Pays a cart ad from one of the user's wallets (402 when short, 409 when already paid); the ad goes to review. */
  'PUT /api/ad-payment-in-cart/:id': { params: IdParams, body: WalletBody, response: { 200: AdAndWallet, ...Errors } },
  /** Moves an approved, running ad to the top of its listings for the bump price (409 within a minute of the last bump). */
  'PUT /api/bump-ad/:id': { params: IdParams, body: WalletBody, response: { 200: AdAndWallet, ...Errors } },
  'PUT /api/update-ad-online-status/:id': { params: IdParams, body: Type.Object({ online: Type.Boolean() }), response: { 200: OneAd, ...Errors } },
  /** Another enabled city of an enabled state; not for a rejected or expired ad. */
  'PUT /api/update-ad-location/:id': {
    params: IdParams,
    body: Type.Object({ stateId: Id, cityId: Id }),
    response: { 200: OneAd, ...Errors },
  },

  // Staff review (/api/admin/*: ADMIN_USER or MASTER_USER). Nobody decides on their own ad (409).
  /** Ads in review, oldest payment first; unpaid ones too (after them) when asked. */
  'GET /api/admin/get-pending-ads': {
    querystring: Type.Object({ ...Paging, includeUnpaid: Type.Optional(Type.Boolean()) }),
    response: { 200: Type.Object({ pendingAds: Type.Array(StaffAdSchema), ...PageInfo }), ...Errors },
  },
  /** Approves ads in review, or rejects them with a reason (3–500 characters) and a full refund; `updated` counts the changed ones. */
  'POST /api/admin/approve-pending-ads': {
    body: Type.Object({
      adIds: AdIds,
      decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
      reason: Type.Optional(Type.String({ maxLength: 1000 })),
    }),
    response: { 200: Updated, ...Errors },
  },
  /** Ads that were published (approved, disabled or expired), newest first, optionally of one status. */
  'GET /api/admin/get-approved-ads': {
    querystring: Type.Object({
      ...Paging,
      status: Type.Optional(Type.Union([Type.Literal('approved'), Type.Literal('disabled'), Type.Literal('expired')])),
    }),
    response: { 200: Type.Object({ approvedAds: Type.Array(StaffAdSchema), ...PageInfo }), ...Errors },
  },
  /** Disables approved ads, or enables disabled ones ('approved' and 'enabled' mean the same; an ad whose time ran out becomes expired). */
  'POST /api/admin/set-status-approved-ads': {
    body: Type.Object({ adIds: AdIds, status: Type.Union([Type.Literal('approved'), Type.Literal('disabled'), Type.Literal('enabled')]) }),
    response: { 200: Updated, ...Errors },
  },
  /** Ads refused by screening, newest first. */
  'GET /api/admin/get-screening-log': {
    querystring: Type.Object(Paging),
    response: { 200: Type.Object({ entries: Type.Array(ScreeningEntrySchema), ...PageInfo }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
