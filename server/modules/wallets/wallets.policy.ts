import { isActive, isOwner, unknownAction, type Actor } from '../../core/policy.ts';

/**
 * Who may do what with money (PRODUCT §6).
 *
 * - use: a wallet is used (paid from, shown) by its owner only; staff too act on their own wallets
 *   only (they move money through the ledger's admin tools, never through another user's wallet).
 * - redeem: a promo code is redeemed by any active user, except a personal code (a welcome code),
 *   which only its owner may redeem; never by the staff member who created it or last edited it
 *   (`authors`): minting spending money for oneself takes a second person, as every other
 *   self-interested staff act does (their own ad, their own account).
 */
export const ACTIONS = ['use', 'redeem'] as const;
export type WalletsAction = (typeof ACTIONS)[number];

/** A wallet or a promo code: whose it is (a code that belongs to nobody: null). */
export interface WalletsObject {
  ownerId: string | null;
  /** A promo code's: who among staff created it and last edited it (null: the system, nobody since). */
  authors?: readonly (string | null)[];
}

export function can(actor: Actor, action: WalletsAction, object?: WalletsObject): boolean {
  if (!object) return false;
  switch (action) {
    case 'use':
      return isOwner(actor, object.ownerId);
    case 'redeem':
      if (actor && object.authors?.includes(actor.id)) return false;
      return object.ownerId === null ? isActive(actor) : isOwner(actor, object.ownerId);
    default:
      return unknownAction(action);
  }
}
