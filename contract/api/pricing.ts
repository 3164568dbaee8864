import { Type, type Static } from 'typebox';
import { Errors, PageInfo, Paging } from './common.ts';
import type { RouteContract } from './types.ts';

export const ListingTypeSchema = Type.Union([Type.Literal('female_esc'), Type.Literal('female_rub'), Type.Literal('shemale_esc')]);
export const PricingKindSchema = Type.Union([Type.Literal('ad'), Type.Literal('bump')]);

/** The price of an ad (with its duration in days) or of a bump (no duration: null) for one listing type. */
export const PricingSchema = Type.Object({
  id: Type.String(),
  kind: PricingKindSchema,
  listingType: ListingTypeSchema,
  priceCents: Type.Integer(),
  durationDays: Type.Union([Type.Integer(), Type.Null()]),
});
export type Pricing = Static<typeof PricingSchema>;
export type PricingKind = Static<typeof PricingKindSchema>;
export type ListingType = Static<typeof ListingTypeSchema>;

/** A promo code as staff see it; `personal` codes belong to one user (the e-mailed welcome codes). */
/** A new promo code's worth when none is given (PRODUCT §4: "amountCents (default 2000, the '20' of the seed)"). */
export const DEFAULT_PROMO_CENTS = 2000;

export const PromoCodeSchema = Type.Object({
  id: Type.String(),
  code: Type.String(),
  amountCents: Type.Integer(),
  maxUses: Type.Integer(),
  uses: Type.Integer(),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
  active: Type.Boolean(),
  personal: Type.Boolean(),
  createdAt: Type.String(),
});
export type PromoCode = Static<typeof PromoCodeSchema>;

const PricingList = Type.Object({ pricing: Type.Array(PricingSchema) });
const OnePromoCode = Type.Object({ promoCode: PromoCodeSchema });

/** The pricing module's routes: "METHOD /path" → the schemas of its request and answers. */
export const pricingApi = {
  /** Public: the ad price of each listing type. */
  'GET /api/get-ad-pricing': { response: { 200: PricingList, ...Errors } },
  /** Public: the bump price of each listing type. */
  'GET /api/get-bump-pricing': { response: { 200: PricingList, ...Errors } },
  'GET /api/admin/get-all-pricing': { response: { 200: PricingList, ...Errors } },
  /**
   * durationDays only for ad prices (a bump has none). `from`: the price as the admin's screen
   * showed it; when the stored one is no longer that (another admin changed it meanwhile), nothing
   * changes (409 pricing.changed_meanwhile), so a stale form never reverts their price.
   */
  'POST /api/admin/set-price-by-id': {
    body: Type.Object({
      id: Type.String({ maxLength: 40 }),
      priceCents: Type.Integer({ minimum: 0 }),
      durationDays: Type.Optional(Type.Integer({ minimum: 1 })),
      from: Type.Optional(
        Type.Object({
          priceCents: Type.Integer(),
          durationDays: Type.Union([Type.Integer(), Type.Null()]),
        }),
      ),
    }),
    response: { 200: Type.Object({ pricing: PricingSchema }), ...Errors },
  },
  /** Newest first; personal (welcome) codes only when asked for. */
  'GET /api/admin/get-all-promo-codes': {
    querystring: Type.Object({ ...Paging, includePersonal: Type.Optional(Type.Boolean()) }),
    response: { 200: Type.Object({ promoCodes: Type.Array(PromoCodeSchema), ...PageInfo }), ...Errors },
  },
  /**
   * Without id: creates the code (201); with id: updates it (200). `from` (updates only): the code
   * as the admin's form showed it; when the stored one differs in any of these fields (another
   * admin changed it meanwhile), nothing changes (409 pricing.promo_code_changed_meanwhile), so a
   * stale form never re-enables a code another admin switched off.
   */
  'POST /api/admin/set-promo-code-by-id': {
    body: Type.Object({
      id: Type.Optional(Type.String({ maxLength: 40 })),
      code: Type.String({ maxLength: 64 }),
      /** Left out: 2000 for a new code (DEFAULT_PROMO_CENTS); an update keeps the amount it has. */
      amountCents: Type.Optional(Type.Integer()),
      maxUses: Type.Integer(),
      /** A day or a moment (ISO 8601); null or "" for none; left out of an update, the code keeps the expiry it has. */
      expiresAt: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
      active: Type.Boolean(),
      from: Type.Optional(
        Type.Object({
          code: Type.String({ maxLength: 64 }),
          amountCents: Type.Integer(),
          maxUses: Type.Integer(),
          expiresAt: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
          active: Type.Boolean(),
        }),
      ),
    }),
    response: { 200: OnePromoCode, 201: OnePromoCode, ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
