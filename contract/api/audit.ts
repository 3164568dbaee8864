import { Type, type Static } from 'typebox';
import { Errors, Paging } from './common.ts';
import type { RouteContract } from './types.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** One staff action. `before` and `after` are the stored JSON snapshots (parsed), or null. */
export const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  actorId: NullableString,
  actorEmail: NullableString,
  /** e.g. user.roles, user.status, ad.approve, ad.reject */
  action: Type.String(),
  targetType: Type.String(),
  targetId: NullableString,
  before: Type.Unknown(),
  after: Type.Unknown(),
  at: Type.String(),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;

/** The audit module's routes (staff only): "METHOD /path" → the schemas of its request and answers. */
export const auditApi = {
  /**
   * Newest first; filters match exactly. `actorId`: the actions of one staff member (by user id).
   * `since` (inclusive) and `until` (exclusive): ISO 8601 in UTC, a moment (2026-01-11T00:00:00Z)
   * or a day (2026-01-11, its midnight); a bad date is 400 audit.date_invalid, since not before
   * until is 400 audit.range_invalid.
   */
  'GET /api/admin/get-audit-log': {
    querystring: Type.Object({
      ...Paging,
      action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      targetType: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      actorId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      since: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
      until: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    }),
    response: { 200: Type.Object({ auditLog: Type.Array(AuditEntrySchema), total: Type.Integer() }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
