import { isStaff, unknownAction, type Actor } from '../../core/policy.ts';

/**
 * Who may change prices and promo codes (PRODUCT §2: admins moderate pricing and promo codes):
 * staff. Everyone reads the public price lists.
 * - setPrice: change a price (the object: the price).
 * - setPromoCode: change a promo code, or create one (no object).
 */
export const ACTIONS = ['setPrice', 'setPromoCode'] as const;
export type PricingAction = (typeof ACTIONS)[number];

/** A price or a promo code. */
export interface PricingObject {
  id: string;
}

export function can(actor: Actor, action: PricingAction, object?: PricingObject): boolean {
  switch (action) {
    case 'setPrice':
      return object !== undefined && isStaff(actor);
    case 'setPromoCode':
      return isStaff(actor);
    default:
      return unknownAction(action);
  }
}
