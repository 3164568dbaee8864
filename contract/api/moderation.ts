import { Type, type Static, type TSchema } from 'typebox';
import { Errors, PageInfo, Paging } from './common.ts';
import { UserStatusSchema } from './auth.ts';
import { StaffRoleSchema } from './profile.ts';
import { ListingTypeSchema } from './pricing.ts';
import { RejectionCategorySchema, ScreeningEntrySchema, SearchStatusSchema } from './ads.ts';
import { ReportKindSchema, ReportStatusSchema } from './reports.ts';
import { AuditEntrySchema } from './audit.ts';
import type { RouteContract } from './types.ts';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Id = Type.String({ minLength: 1, maxLength: 40 });

export const HoldTargetSchema = Type.Union([Type.Literal('user'), Type.Literal('ad')]);
export type HoldTarget = Static<typeof HoldTargetSchema>;

/** The limits of a hold's reason and of the notes staff write (release, closing a report). */
export const HOLD_REASON_MIN = 3;
export const HOLD_REASON_MAX = 1000;
export const NOTE_MIN = 3;
export const NOTE_MAX = 1000;

/** An account as the moderation screens name it (an erased account keeps a placeholder address). */
export const ModOwnerSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  nickname: Type.String(),
  status: UserStatusSchema,
  deleted: Type.Boolean(),
});

/** An ad in staff search and on the user page: every status, deleted ones kept under a hold too. */
export const ModAdSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  status: SearchStatusSchema,
  listingType: ListingTypeSchema,
  phone: Type.String(),
  /** "City, ST" (null when the place is unknown). */
  place: Nullable(Type.String()),
  thumbUrl: Nullable(Type.String()),
  photoCount: Type.Integer(),
  createdAt: Type.String(),
  publishedAt: Nullable(Type.String()),
  expiresAt: Nullable(Type.String()),
  rejectionReason: Nullable(Type.String()),
  rejectionCategory: Nullable(RejectionCategorySchema),
  /** When it was deleted (an ad kept under a hold), else null. */
  deletedAt: Nullable(Type.String()),
  owner: ModOwnerSchema,
  /** A legal hold covers it (on the ad or on its owner). */
  held: Type.Boolean(),
});
export type ModAd = Static<typeof ModAdSchema>;

export const LegalHoldSchema = Type.Object({
  id: Type.String(),
  targetType: HoldTargetSchema,
  targetId: Type.String(),
  /** The account concerned (the held ad's owner). */
  userId: Type.String(),
  reason: Type.String(),
  placedBy: Nullable(Type.String()),
  placedAt: Type.String(),
  releasedAt: Nullable(Type.String()),
  releasedBy: Nullable(Type.String()),
  releaseNote: Nullable(Type.String()),
  active: Type.Boolean(),
});
export type LegalHold = Static<typeof LegalHoldSchema>;

/** Another account's ad with the same phone, a near-identical photo (Hamming distance of the photo hashes) or the same text (title and description). */
export const DuplicateFlagSchema = Type.Object({
  adId: Type.String(),
  otherAdId: Type.String(),
  otherAdTitle: Nullable(Type.String()),
  otherAdStatus: Nullable(SearchStatusSchema),
  otherOwner: Type.Object({ id: Type.String(), email: Type.String(), nickname: Type.String() }),
  kind: Type.Union([Type.Literal('phone'), Type.Literal('photo'), Type.Literal('text')]),
  distance: Nullable(Type.Integer()),
});
export type DuplicateFlag = Static<typeof DuplicateFlagSchema>;

export const SignInSchema = Type.Object({
  at: Type.String(),
  ip: Type.String(),
  userAgent: Nullable(Type.String()),
  success: Type.Boolean(),
  failure: Nullable(Type.Union([Type.Literal('wrong_password'), Type.Literal('suspended')])),
});
export type SignIn = Static<typeof SignInSchema>;

/** One user, whole: the account, their ads, reports about them, money, sign-ins, holds, related accounts, staff actions. */
export const UserDetailSchema = Type.Object({
  user: Type.Object({
    ...ModOwnerSchema.properties,
    roles: Type.Array(StaffRoleSchema),
    phone: Nullable(Type.String()),
    phoneVerified: Type.Boolean(),
    avatarUrl: Nullable(Type.String()),
    createdAt: Type.String(),
    deletedAt: Nullable(Type.String()),
    /** A legal hold covers the account (on it or on one of its ads). */
    held: Type.Boolean(),
  }),
  /** The account's ads, live or kept under a hold, newest first (the last 200 of `adsTotal`). */
  ads: Type.Array(ModAdSchema),
  adsTotal: Type.Integer(),
  /** Reports about those ads, newest first (the last 200 of `reportsTotal`). */
  reports: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: ReportKindSchema,
      adId: Nullable(Type.String()),
      message: Type.String(),
      status: ReportStatusSchema,
      createdAt: Type.String(),
    }),
  ),
  reportsTotal: Type.Integer(),
  wallets: Type.Array(Type.Object({ id: Type.String(), walletType: Type.String(), balanceCents: Type.Integer() })),
  /** Ledger entries of every wallet, newest first (the last 200 of `ledgerTotal`: their sum is the balance only when all are shown). */
  ledger: Type.Array(
    Type.Object({
      id: Type.Integer(),
      walletId: Type.String(),
      walletType: Type.String(),
      amountCents: Type.Integer(),
      kind: Type.String(),
      reference: Nullable(Type.String()),
      createdAt: Type.String(),
    }),
  ),
  ledgerTotal: Type.Integer(),
  /** Invoices, newest first (the last 200 of `invoicesTotal`). */
  invoices: Type.Array(
    Type.Object({
      id: Type.String(),
      invoiceId: Nullable(Type.String()),
      amountCents: Type.Integer(),
      status: Type.String(),
      createdAt: Type.String(),
      creditedAt: Nullable(Type.String()),
    }),
  ),
  invoicesTotal: Type.Integer(),
  /** Sign-ins, successful or not, newest first (the last 200 of `signInsTotal`; kept 180 days). */
  signIns: Type.Array(SignInSchema),
  signInsTotal: Type.Integer(),
  holds: Type.Array(LegalHoldSchema),
  /** Other accounts sharing a phone, a near-identical photo or a sign-in address with this one. */
  related: Type.Array(
    Type.Object({
      id: Type.String(),
      email: Type.String(),
      nickname: Type.String(),
      reasons: Type.Array(Type.Union([Type.Literal('phone'), Type.Literal('photo'), Type.Literal('ip')])),
    }),
  ),
  /** Ads refused by screening (their wording), newest first. */
  screening: Type.Array(ScreeningEntrySchema),
  /** Staff actions on the account and its ads, newest first (the last 100). */
  audit: Type.Array(AuditEntrySchema),
});
export type UserDetail = Static<typeof UserDetailSchema>;

const CategoryCounts = Type.Object({
  underage_suspected: Type.Integer(),
  trafficking_suspected: Type.Integer(),
  prohibited_content: Type.Integer(),
  spam: Type.Integer(),
  misleading: Type.Integer(),
  other: Type.Integer(),
  /** Rejected before categories existed. */
  uncategorized: Type.Integer(),
});

/** One calendar month (UTC) of moderation, in counts only: no personal data. */
export const TransparencyMonthSchema = Type.Object({
  /** YYYY-MM */
  month: Type.String(),
  adsReviewed: Type.Integer(),
  adsApproved: Type.Integer(),
  adsRejected: Type.Integer(),
  rejectedByCategory: CategoryCounts,
  /** Ads staff disabled (taken down after publication). */
  adsDisabled: Type.Integer(),
  /** Of those, ads someone had reported before they were disabled. */
  adsDisabledAfterReport: Type.Integer(),
  reportsByKind: Type.Object({ ad: Type.Integer(), trafficking: Type.Integer() }),
  lawEnforcementRequests: Type.Integer(),
  accountsSuspended: Type.Integer(),
});
export type TransparencyMonth = Static<typeof TransparencyMonthSchema>;
export const TransparencySchema = Type.Object({ generatedAt: Type.String(), months: Type.Array(TransparencyMonthSchema) });
export type Transparency = Static<typeof TransparencySchema>;

const Hold = Type.Object({ hold: LegalHoldSchema });

/** The moderation module's routes (staff, and the public transparency report): "METHOD /path" → schemas. */
export const moderationApi = {
  /**
   * Every ad in every status (deleted ones kept under a hold too), newest first. `query` matches an
   * ad id, every word in the title or description, the phone's digits in any format, or the
   * owner's e-mail or nickname; without it, every ad (of `status`).
   */
  'GET /api/admin/search-ads': {
    querystring: Type.Object({ ...Paging, query: Type.Optional(Type.String({ maxLength: 200 })), status: Type.Optional(SearchStatusSchema) }),
    response: { 200: Type.Object({ ads: Type.Array(ModAdSchema), ...PageInfo }), ...Errors },
  },
  /** One user, whole (an erased account too). */
  'GET /api/admin/get-user/:id': { params: Type.Object({ id: Id }), response: { 200: UserDetailSchema, ...Errors } },
  /** Places a legal hold on an account or an ad, with the reason (audited). */
  'POST /api/admin/place-legal-hold': {
    body: Type.Object({ targetType: HoldTargetSchema, targetId: Id, reason: Type.String({ maxLength: HOLD_REASON_MAX + 100 }) }),
    response: { 201: Hold, ...Errors },
  },
  /**
   * Releases the named holds on an account or an ad (those the staff member saw), with a note
   * (audited); once no hold remains on it, deletions held back meanwhile are completed. 409 when a
   * named hold is not in force on it any more (moderation.hold_changed), or none is (moderation.not_held).
   */
  'POST /api/admin/release-legal-hold': {
    body: Type.Object({
      targetType: HoldTargetSchema,
      targetId: Id,
      holdIds: Type.Array(Id, { minItems: 1, maxItems: 100 }),
      note: Type.String({ maxLength: NOTE_MAX + 100 }),
    }),
    response: { 200: Type.Object({ released: Type.Integer() }), ...Errors },
  },
  /** Legal holds, newest first; `active` narrows to the ones in force (true) or released (false). */
  'GET /api/admin/get-legal-holds': {
    querystring: Type.Object({ ...Paging, active: Type.Optional(Type.Boolean()) }),
    response: { 200: Type.Object({ holds: Type.Array(LegalHoldSchema), ...PageInfo }), ...Errors },
  },
  /** Duplicate flags of these ads (comma-separated ids, at most 100). */
  'GET /api/admin/get-duplicate-flags': {
    querystring: Type.Object({ adIds: Type.String({ minLength: 1, maxLength: 4200 }) }),
    response: { 200: Type.Object({ flags: Type.Array(DuplicateFlagSchema) }), ...Errors },
  },
  /**
   * The evidence record of an account or an ad (the id of either) as one ZIP file, for answering
   * legal process: the account, every ad (its row, its versions, its photos), ledger, invoices,
   * sign-ins, reports and audit entries. Audited; refused cross-site.
   */
  'GET /api/admin/export-evidence/:id': {
    params: Type.Object({ id: Id }),
    response: { 200: Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description: 'application/zip' }), ...Errors },
  },
  /** What we remove, per month: counts computed from the moderation records, no personal data. */
  'GET /api/transparency': { response: { 200: TransparencySchema, ...Errors } },
} as const satisfies Record<string, RouteContract>;
