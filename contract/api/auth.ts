import { Type, type Static } from 'typebox';
import { Errors } from './common.ts';
import type { RouteContract } from './types.ts';

export const RoleSchema = Type.Union([Type.Literal('GUEST_USER'), Type.Literal('PROVIDER_USER'), Type.Literal('ADMIN_USER'), Type.Literal('MASTER_USER')]);
export const UserStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('suspended')]);

/** Who the browser is signed in as (a guest: isAuthenticated false, roles [GUEST_USER]). */
export const SessionSchema = Type.Object({
  isAuthenticated: Type.Boolean(),
  id: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  userStatus: Type.Optional(UserStatusSchema),
  userRoles: Type.Array(RoleSchema),
});
export type Session = Static<typeof SessionSchema>;
export type Role = Static<typeof RoleSchema>;
export type UserStatus = Static<typeof UserStatusSchema>;

/** The auth module's routes: "METHOD /path" → the schemas of its request and answers. */
export const authApi = {
  'GET /api/session': { response: { 200: SessionSchema, ...Errors } },
  'POST /api/register': {
    body: Type.Object({
      email: Type.String({ maxLength: 254 }),
      password: Type.String({ maxLength: 200 }),
      nickname: Type.String({ maxLength: 30 }),
    }),
    response: { 201: SessionSchema, ...Errors },
  },
  'POST /api/login': {
    body: Type.Object({ email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 200 }) }),
    response: { 200: SessionSchema, ...Errors },
  },
  'POST /api/logout': { response: { 200: SessionSchema, ...Errors } },
  /** Forgot password: 202 whether or not the address has an account; the link (one hour, once) goes by e-mail. */
  'POST /api/password-reset-request': {
    body: Type.Object({ email: Type.String({ maxLength: 254 }) }),
    response: { 202: Type.Object({ accepted: Type.Literal(true) }), ...Errors },
  },
  /**
   * Turns off reminder e-mails with the signed link of their footer (`u` the user, `t` the token),
   * without signing in. Mail providers' one-click POST (RFC 8058, form body) lands here too.
   */
  'POST /api/unsubscribe': {
    querystring: Type.Object({ u: Type.String({ maxLength: 40 }), t: Type.String({ maxLength: 64 }) }),
    consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'],
    response: { 200: Type.Object({ unsubscribed: Type.Literal(true) }), ...Errors },
  },
  /**
   * The same link opened in a browser (mail clients without one-click): 303 to the page that asks
   * to confirm (/unsubscribe?u=…&t=…, in the browser's language). Never unsubscribes.
   */
  'GET /api/unsubscribe': {
    querystring: Type.Object({ u: Type.String({ maxLength: 40 }), t: Type.String({ maxLength: 64 }) }),
    response: { 303: Type.Null(), ...Errors },
  },
  /** Sets a new password with the e-mailed token; every session of the account ends (sign in again). */
  'POST /api/password-reset': {
    body: Type.Object({ token: Type.String({ maxLength: 200 }), newPassword: Type.String({ maxLength: 200 }) }),
    response: { 200: Type.Object({ reset: Type.Literal(true) }), ...Errors },
  },
  'GET /api/logout': { response: { 200: SessionSchema, ...Errors } },
} as const satisfies Record<string, RouteContract>;
