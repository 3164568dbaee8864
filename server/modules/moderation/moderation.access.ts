import type { SessionUser } from '../../core/auth.ts';
import { Conflict, Forbidden } from '../../core/errors.ts';
import { isOwner } from '../../core/policy.ts';
import { can, type ModerationAction } from './moderation.policy.ts';

// The moderation policy's answer as the service and the user page act on it: nothing, or the
// error the client gets.

/** Asks the policy; a staff member acting about themselves gets 409 (a 403 would send the browser to sign-in). */
export function may(actor: SessionUser, action: ModerationAction, userId?: string): void {
  if (can(actor, action, userId === undefined ? undefined : { userId })) return;
  if (userId !== undefined && isOwner(actor, userId)) throw new Conflict(action === 'export' ? 'moderation.own_record' : 'moderation.own_hold');
  throw new Forbidden();
}
