import { Type, type Static } from 'typebox';
import { Errors } from './common.ts';
import { SessionSchema, UserStatusSchema } from './auth.ts';
import type { RouteContract } from './types.ts';

/** The roles an account holds (GUEST_USER is only ever a session's, never stored). */
export const StaffRoleSchema = Type.Union([Type.Literal('PROVIDER_USER'), Type.Literal('ADMIN_USER'), Type.Literal('MASTER_USER')]);
export type StaffRole = Static<typeof StaffRoleSchema>;

/** The signed-in user's own account, as GET /api/user-profile and every profile change answer it. */
export const ProfileSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  nickname: Type.String(),
  /** Public URL of the avatar (/uploads/avatars/…), or null. */
  avatar: Type.Union([Type.String(), Type.Null()]),
  status: UserStatusSchema,
  roles: Type.Array(StaffRoleSchema),
  /** The account's phone: set only by a confirmed text-message code (POST /api/phone-verification/confirm). */
  phone: Type.Union([Type.String(), Type.Null()]),
  phoneVerified: Type.Boolean(),
  createdAt: Type.String(),
});
export type Profile = Static<typeof ProfileSchema>;

/** The profile module's routes: "METHOD /path" → the schemas of its request and answers. */
export const profileApi = {
  'GET /api/user-profile': { response: { 200: ProfileSchema, ...Errors } },
  'POST /api/nickname-update': {
    body: Type.Object({ nickname: Type.String({ maxLength: 30 }) }),
    response: { 200: ProfileSchema, ...Errors },
  },
  /** Answers the fresh session of this browser (a new cookie); every other session ends. */
  'POST /api/password-update': {
    body: Type.Object({ currentPassword: Type.String({ maxLength: 200 }), newPassword: Type.String({ maxLength: 200 }) }),
    response: { 200: SessionSchema, ...Errors },
  },
  /** Mails a link to the new address; the same answer whether or not another account holds it. */
  'POST /api/email-reset': {
    body: Type.Object({ newEmail: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 200 }) }),
    response: { 200: Type.Object({ pendingEmail: Type.String() }), ...Errors },
  },
  /** Public: the token of the mailed link is the proof. */
  'POST /api/confirm-email-reset': {
    body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
    response: { 200: Type.Object({ email: Type.String() }), ...Errors },
  },
  // Multipart: one file in the field "avatar" (JPEG, PNG or WebP, at most 10 MB), read by the
  // handler itself, so there is no body schema.
  'POST /api/avatar-update': {
    consumes: ['multipart/form-data'],
    response: { 200: ProfileSchema, ...Errors },
  },
  /** The password goes in the body (URLs end up in logs); answers the guest session. */
  'DELETE /api/delete-my-profile': {
    querystring: Type.Object({ confirm: Type.Boolean() }),
    body: Type.Object({ password: Type.String({ maxLength: 200 }) }),
    response: { 200: SessionSchema, ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
