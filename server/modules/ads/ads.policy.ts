import { isOwner, isStaff, unknownAction, type Actor } from '../../core/policy.ts';

/**
 * Who may do what to an ad (PRODUCT §2, §5, §7).
 *
 * - pay, bump, setOnline, move, deleteFromCart, edit, renew, delete: the ad's owner only (pending owners too: they may
 *   post and pay, their ads wait for their approval). Staff act on other people's ads through the
 *   review actions, never through the owner's.
 * - preview: see an ad that is not public (in the cart, in review, hidden): its owner and staff.
 * - review (approve, reject) and moderate (disable, re-enable): staff, never on their own ad nor on
 *   an ad of an account the product links to them (a shared phone or photo: a second account of
 *   theirs, ownerLinkedToActor): another admin or a master must.
 * Whether the ad's state allows the action (already paid, not running) is the service's business.
 */
export const ACTIONS = ['pay', 'bump', 'setOnline', 'move', 'deleteFromCart', 'edit', 'renew', 'delete', 'preview', 'review', 'moderate'] as const;
export type AdsAction = (typeof ACTIONS)[number];

/** What the rules need to know about an ad. */
export interface AdObject {
  ownerId: string;
  /** The owner is an account the product links to the actor (moderation.linked.repository.ts accountsLinkedTo); asked for review and moderate only. */
  ownerLinkedToActor?: boolean;
}

export function can(actor: Actor, action: AdsAction, ad?: AdObject): boolean {
  if (!ad) return false;
  switch (action) {
    case 'pay':
    case 'bump':
    case 'setOnline':
    case 'move':
    case 'deleteFromCart':
    case 'edit':
    case 'renew':
    case 'delete':
      return isOwner(actor, ad.ownerId);
    case 'preview':
      return isOwner(actor, ad.ownerId) || isStaff(actor);
    case 'review':
    case 'moderate':
      return isStaff(actor) && !isOwner(actor, ad.ownerId) && !ad.ownerLinkedToActor;
    default:
      return unknownAction(action);
  }
}

/** An ads row as the policy sees it. */
export const adObject = (row: { owner_id: string }): AdObject => ({ ownerId: row.owner_id });
