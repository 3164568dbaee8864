import { unknownAction, type Actor } from '../../core/policy.ts';
import { can as adsCan } from '../ads/ads.policy.ts';

/**
 * Who may see and report an ad through the public reads (PRODUCT §7).
 *
 * - view: a publicly visible ad, everyone (guests too); one that is not public (in the cart, in
 *   review, expired, its owner pending or suspended, its place disabled) only whoever may preview
 *   it (ads.policy.ts: its owner and staff); anyone else is told it does not exist.
 * - report: anyone may report any ad that exists, a hidden one too (it may still need staff attention).
 */
export const ACTIONS = ['view', 'report'] as const;
export type ListingsAction = (typeof ACTIONS)[number];

/** An ad as the public reads see it: whose it is, and whether it is public now. */
export interface ListedAd {
  ownerId: string;
  isPublic: boolean;
}

export function can(actor: Actor, action: ListingsAction, ad?: ListedAd): boolean {
  if (!ad) return false;
  switch (action) {
    case 'view':
      return ad.isPublic || adsCan(actor, 'preview', ad);
    case 'report':
      return true;
    default:
      return unknownAction(action);
  }
}
