import { isOwner, isStaff, unknownAction, type Actor } from '../../core/policy.ts';

/**
 * Who may do what with Bitcoin invoices (PRODUCT §6).
 *
 * - view: an invoice (its sandbox checkout page) is seen by its owner and by staff.
 * - simulate: the sandbox's "simulate payment" buttons mint money, so on an install anyone can
 *   reach they are for staff alone, or for a request from the server's own machine (a developer's
 *   `npm start`); and only on an invoice the actor may see.
 */
export const ACTIONS = ['view', 'simulate'] as const;
export type PaymentsAction = (typeof ACTIONS)[number];

export interface PaymentsObject {
  ownerId: string;
  /** The request came from a loopback address, not through a proxy. */
  fromLoopback: boolean;
}

export function can(actor: Actor, action: PaymentsAction, object?: PaymentsObject): boolean {
  if (!object) return false;
  switch (action) {
    case 'view':
      return isOwner(actor, object.ownerId) || isStaff(actor);
    case 'simulate':
      return isStaff(actor) || (isOwner(actor, object.ownerId) && object.fromLoopback);
    default:
      return unknownAction(action);
  }
}
