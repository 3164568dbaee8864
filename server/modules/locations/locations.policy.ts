import { isStaff, unknownAction, type Actor } from '../../core/policy.ts';

/**
 * Who may do what with states and cities (PRODUCT §1, §8). Everyone reads the enabled places;
 * staff also see the disabled ones (to turn them back on) and enable or disable them.
 */
export const ACTIONS = ['seeDisabled', 'setStatus'] as const;
export type LocationsAction = (typeof ACTIONS)[number];

export function can(actor: Actor, action: LocationsAction): boolean {
  switch (action) {
    case 'seeDisabled':
    case 'setStatus':
      return isStaff(actor);
    default:
      return unknownAction(action);
  }
}
