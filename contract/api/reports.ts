import { Type, type Static } from 'typebox';
import { Errors, PageInfo, Paging } from './common.ts';
import { SearchStatusSchema } from './ads.ts';
import type { RouteContract } from './types.ts';

// The report limits the server enforces (with a clear message naming the field); the client shows
// the same before submit. The body schemas below only cap the size, a little above these.
export const REPORT_MESSAGE_MIN = 10;
export const REPORT_MESSAGE_MAX = 5000;
export const REPORT_CONTACT_MAX = 254;

export const ReportKindSchema = Type.Union([Type.Literal('ad'), Type.Literal('trafficking'), Type.Literal('contact'), Type.Literal('law_enforcement')]);
/** What the public forms may file (an ad report has its own route, POST /api/report-ad/:id). */
export const PublicReportKindSchema = Type.Union([Type.Literal('trafficking'), Type.Literal('contact'), Type.Literal('law_enforcement')]);
export const ReportStatusSchema = Type.Union([Type.Literal('open'), Type.Literal('closed')]);

/** Trafficking tips and law-enforcement requests: marked urgent, listed first while open, e-mailed to staff at once. */
export const URGENT_REPORT_KINDS = ['trafficking', 'law_enforcement'] as const;

/** The ad a report names, as the reports screen shows it beside the report (null: no ad, or it no longer exists). */
export const ReportAdSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  status: SearchStatusSchema,
  thumbUrl: Type.Union([Type.String(), Type.Null()]),
  ownerId: Type.String(),
  ownerEmail: Type.String(),
  ownerNickname: Type.String(),
  /** A legal hold covers it (on the ad or its owner). */
  held: Type.Boolean(),
});

/** A report as staff see it; the sender's IP only as a keyed hash (repeat senders stand out). */
export const ReportSchema = Type.Object({
  id: Type.String(),
  kind: ReportKindSchema,
  adId: Type.Union([Type.String(), Type.Null()]),
  message: Type.String(),
  contact: Type.Union([Type.String(), Type.Null()]),
  status: ReportStatusSchema,
  ipHash: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  urgent: Type.Boolean(),
  ad: Type.Union([ReportAdSchema, Type.Null()]),
});

/** What a sender gets back: the report's id and when it was filed, nothing of what staff see. */
export const ReportReceiptSchema = Type.Object({ id: Type.String(), createdAt: Type.String() });

/** A report's message and optional contact (ad reports and the public forms alike). */
export const reportTextFields = {
  message: Type.String({ maxLength: REPORT_MESSAGE_MAX + 1000 }),
  contact: Type.Optional(Type.Union([Type.String({ maxLength: REPORT_CONTACT_MAX + 100 }), Type.Null()])),
};

export type ReportKind = Static<typeof ReportKindSchema>;
export type PublicReportKind = Static<typeof PublicReportKindSchema>;
export type ReportStatus = Static<typeof ReportStatusSchema>;
export type Report = Static<typeof ReportSchema>;
export type ReportAd = Static<typeof ReportAdSchema>;
export type ReportReceipt = Static<typeof ReportReceiptSchema>;

/** The reports module's routes: "METHOD /path" → the schemas of its request and answers. */
export const reportsApi = {
  // Public forms: report trafficking, contact us, law enforcement.
  'POST /api/reports': {
    body: Type.Object(
      {
        kind: PublicReportKindSchema,
        ...reportTextFields,
        adId: Type.Optional(Type.Union([Type.String({ pattern: '^[a-z0-9]{1,40}$' }), Type.Null()])),
      },
      { additionalProperties: false },
    ),
    response: { 201: ReportReceiptSchema, ...Errors },
  },
  /** Open urgent reports first (trafficking, law enforcement), then newest first. */
  'GET /api/admin/get-reports': {
    querystring: Type.Object({ ...Paging, status: Type.Optional(ReportStatusSchema), kind: Type.Optional(ReportKindSchema) }),
    response: { 200: Type.Object({ reports: Type.Array(ReportSchema), ...PageInfo }), ...Errors },
  },
  'POST /api/admin/set-report-status': {
    /** Closing may carry a note (3–1,000 characters), kept in the audit log. */
    body: Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }), status: ReportStatusSchema, note: Type.Optional(Type.String({ maxLength: 1100 })) }),
    response: { 200: Type.Object({ report: ReportSchema }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
