import { unknownAction, type Actor } from '../../core/policy.ts';
import type { UserStatus } from '../../core/schema.ts';

/**
 * Who may start a session (PRODUCT §2): anyone who proved the account's password, unless the
 * account is suspended (pending users sign in: they may fund wallets and post ads). Whoever asks
 * (a guest, or a browser still signed in as someone else) does not matter: the account decides.
 */
export const ACTIONS = ['signIn'] as const;
export type AuthAction = (typeof ACTIONS)[number];

/** The account signed in to. */
export interface AuthObject {
  status: UserStatus;
}

export function can(actor: Actor, action: AuthAction, account?: AuthObject): boolean {
  void actor;
  if (!account) return false;
  switch (action) {
    case 'signIn':
      return account.status !== 'suspended';
    default:
      return unknownAction(action);
  }
}
