import type { SessionUser } from './auth.ts';
import type { Role } from './schema.ts';

/**
 * The policies' shared vocabulary. Each module that decides who may do what to its objects has a
 * `<module>.policy.ts` exporting its actions and one function of this shape:
 *
 *   export const ACTIONS = ['pay', 'bump', …] as const;
 *   export type <Module>Action = (typeof ACTIONS)[number];
 *   export function can(actor: Actor, action: <Module>Action, object?: <the object's minimal shape>): boolean
 *
 * A policy is pure: no database, no clock, no I/O; it decides from its arguments alone (a service
 * loads what the rule needs, e.g. "is the ad public now", "how many active masters are there",
 * and passes it in the object). It answers false when it cannot tell (an object action without
 * its object). Services ask it at the point of decision and throw the error the route has always
 * answered with; core/access.ts stays the coarse gate in front (which routes need a session, staff
 * or a master), the policies decide about objects. The authorization matrix
 * (server/test/authorization-matrix.test.ts) checks that the HTTP answers follow the policies.
 */

/** Who asks: the signed-in user (roles and status as read from the database), or null for a guest. */
export type Actor = SessionUser | null;

/** The coarse role check, for code that holds roles rather than an actor (core/access.ts). */
export const hasStaffRole = (roles: readonly Role[]): boolean => roles.includes('ADMIN_USER') || roles.includes('MASTER_USER');

/** A user who may act at all: signed in and not suspended (a suspended user cannot sign in, PRODUCT §2). */
export const isActive = (actor: Actor): actor is SessionUser => actor !== null && actor.userStatus !== 'suspended';

/** ADMIN_USER or MASTER_USER, active. */
export const isStaff = (actor: Actor): actor is SessionUser => isActive(actor) && hasStaffRole(actor.userRoles);

/** MASTER_USER, active. */
export const isMaster = (actor: Actor): actor is SessionUser => isActive(actor) && actor.userRoles.includes('MASTER_USER');

/** The actor is the (active) user with this id: the owner of an object, or the account itself. */
export const isOwner = (actor: Actor, ownerId: string | null | undefined): actor is SessionUser =>
  isActive(actor) && typeof ownerId === 'string' && actor.id === ownerId;

/** For a policy's switch over its actions: an action the policy does not know is a type error. */
export function unknownAction(action: never): false {
  void action;
  return false;
}
