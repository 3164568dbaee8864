import { isMaster, isOwner, unknownAction, type Actor } from '../../core/policy.ts';
import type { StaffRole, UserStatus } from '../../core/schema.ts';

/**
 * Who may change a user's roles and status (PRODUCT §2): masters only. A master cannot remove
 * their own MASTER_USER role nor suspend themselves, and the last active master cannot lose the
 * role (demoted or suspended): the install would be left without anyone to approve users. Nor
 * does a master approve (or reinstate) an account the product links to them by a phone or a photo:
 * a pending owner's ads go public with its approval, the last review they get, and staff review no
 * ad of such an account (ads.policy.ts ownerLinkedToActor); another master must.
 */
export const ACTIONS = ['setRoles', 'setStatus'] as const;
export type MasterAction = (typeof ACTIONS)[number];

/** A user as these rules see them. */
export interface Account {
  id: string;
  roles: readonly StaffRole[];
  status: UserStatus;
}

/** A change asked for: the user as they are, what they would become, and how many active masters there are now. */
export interface AccountChange {
  user: Account;
  /** setRoles: the roles asked for. */
  roles?: readonly StaffRole[];
  /** setStatus: the status asked for. */
  status?: UserStatus;
  /** Masters that can act now (not suspended, not erased), this user included when they are one. */
  activeMasters: number;
  /** The user is among the accounts linked to the actor (accountsLinkedTo); read for an approval only. */
  linkedToActor?: boolean;
}

/** An approval (from pending or suspended) of an account linked to the one who asks: refused (409 master.user_linked). */
export const approvesLinkedAccount = (change: AccountChange): boolean =>
  change.status === 'approved' && change.user.status !== 'approved' && change.linkedToActor === true;

/** The user is an active master and no other is: they must stay one (also when erasing their account). */
export const isLastActiveMaster = (user: Pick<Account, 'roles' | 'status'>, activeMasters: number): boolean =>
  user.roles.includes('MASTER_USER') && user.status !== 'suspended' && activeMasters <= 1;

export function can(actor: Actor, action: MasterAction, change?: AccountChange): boolean {
  if (!change || !isMaster(actor)) return false;
  const { user } = change;
  switch (action) {
    case 'setRoles': {
      if (!change.roles) return false;
      const losesMaster = user.roles.includes('MASTER_USER') && !change.roles.includes('MASTER_USER');
      return !losesMaster || (!isOwner(actor, user.id) && !isLastActiveMaster(user, change.activeMasters));
    }
    case 'setStatus':
      if (!change.status || approvesLinkedAccount(change)) return false;
      return change.status !== 'suspended' || (!isOwner(actor, user.id) && !isLastActiveMaster(user, change.activeMasters));
    default:
      return unknownAction(action);
  }
}
