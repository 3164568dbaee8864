import { isOwner, isStaff, unknownAction, type Actor } from '../../core/policy.ts';

/**
 * Who may use the moderators' tools (issue #14). Staff (admins and masters) search every ad, read
 * one user whole, and place or release legal holds and export evidence records; never on their
 * own account or ads (another staff member must: a hold or an evidence file about oneself is a
 * conflict of interest, and an export names who reported them). Suspending and reinstating is the
 * master module's (master.policy.ts), from the same screen.
 *
 * - search: no object (every ad).
 * - viewUser, hold, release, export: the account concerned (a held or exported ad's owner).
 */
export const ACTIONS = ['search', 'viewUser', 'hold', 'release', 'export'] as const;
export type ModerationAction = (typeof ACTIONS)[number];

/** What the rules need to know: the account the action concerns. */
export interface ModerationObject {
  userId: string;
}

export function can(actor: Actor, action: ModerationAction, subject?: ModerationObject): boolean {
  switch (action) {
    case 'search':
      return isStaff(actor);
    case 'viewUser':
      return subject !== undefined && isStaff(actor);
    case 'hold':
    case 'release':
    case 'export':
      return subject !== undefined && isStaff(actor) && !isOwner(actor, subject.userId);
    default:
      return unknownAction(action);
  }
}
