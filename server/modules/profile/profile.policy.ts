import { isOwner, unknownAction, type Actor } from '../../core/policy.ts';
import type { StaffRole, UserStatus } from '../../core/schema.ts';
import { isLastActiveMaster } from '../master/master.policy.ts';

/**
 * Who may act on an account through the profile routes (PRODUCT §2, §7): only its own user.
 *
 * - manage: see the profile, change the nickname, password, e-mail or avatar.
 * - delete: erase the account; the last active master may not (master.policy.ts).
 */
export const ACTIONS = ['manage', 'delete'] as const;
export type ProfileAction = (typeof ACTIONS)[number];

/** The account; delete also needs its roles, its status and how many active masters there are now. */
export interface ProfileObject {
  id: string;
  roles?: readonly StaffRole[];
  status?: UserStatus;
  activeMasters?: number;
}

export function can(actor: Actor, action: ProfileAction, account?: ProfileObject): boolean {
  if (!account || !isOwner(actor, account.id)) return false;
  switch (action) {
    case 'manage':
      return true;
    case 'delete': {
      const { roles, status, activeMasters } = account;
      if (!roles || !status || activeMasters === undefined) return false; // cannot tell: refuse
      return !isLastActiveMaster({ roles, status }, activeMasters);
    }
    default:
      return unknownAction(action);
  }
}
