import { Type, type Static } from 'typebox';
import { Errors, Paging } from './common.ts';
import { UserStatusSchema } from './auth.ts';
import { StaffRoleSchema } from './profile.ts';
import type { RouteContract } from './types.ts';

/** An account as a master sees it in the user lists. */
export const ManagedUserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  nickname: Type.String(),
  status: UserStatusSchema,
  roles: Type.Array(StaffRoleSchema),
  createdAt: Type.String(),
});
export type ManagedUser = Static<typeof ManagedUserSchema>;

/** Paging, plus a search in e-mail and nickname (wildcards are literal characters). */
const UserQuery = { ...Paging, query: Type.Optional(Type.String({ maxLength: 254 })) };
const UserId = Type.String({ minLength: 1, maxLength: 64 });
const RoleSet = Type.Array(StaffRoleSchema, { maxItems: 3, uniqueItems: true });

/** The master module's routes (MASTER_USER only): "METHOD /path" → the schemas of its request and answers. */
export const masterApi = {
  'GET /api/master/get-pending-users': {
    querystring: Type.Object(UserQuery),
    response: { 200: Type.Object({ pendingUsers: Type.Array(ManagedUserSchema), total: Type.Integer() }), ...Errors },
  },
  /** Approved and suspended users; `status` narrows to one of them. */
  'GET /api/master/get-approved-users': {
    querystring: Type.Object({ ...UserQuery, status: Type.Optional(Type.Union([Type.Literal('approved'), Type.Literal('suspended')])) }),
    response: { 200: Type.Object({ approvedUsers: Type.Array(ManagedUserSchema), total: Type.Integer() }), ...Errors },
  },
  /**
   * The full set of roles; PROVIDER_USER is always kept, whatever is sent. `from`: the roles the
   * master's screen showed; when the user's roles are no longer those, nothing changes (409
   * master.user_changed), so a set built from a stale row never undoes another master's change.
   * A suspended account is given no role it does not hold (409 master.user_suspended).
   */
  'POST /api/master/update-user-roles': {
    body: Type.Object({ userId: UserId, roles: RoleSet, from: Type.Optional(RoleSet) }),
    response: { 200: Type.Object({ user: ManagedUserSchema }), ...Errors },
  },
  /**
   * `from`: the status the master's screen showed; when the user's is no longer that, nothing changes
   * (409 master.user_changed). An account linked to the master (the same phone or photo) is approved
   * by another master (409 master.user_linked).
   */
  'POST /api/master/update-user-status': {
    body: Type.Object({ userId: UserId, status: UserStatusSchema, from: Type.Optional(UserStatusSchema) }),
    response: { 200: Type.Object({ user: ManagedUserSchema }), ...Errors },
  },
} as const satisfies Record<string, RouteContract>;
