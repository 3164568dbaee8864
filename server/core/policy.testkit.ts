import type { SessionUser } from './auth.ts';
import type { StaffRole, UserStatus } from './schema.ts';
import type { Actor } from './policy.ts';

// The cast of the policy tables (<module>.policy.test.ts): who they are is written out here, what
// each may do is written out in each table, from PRODUCT.md, not worked out by calling the code.

const user = (id: string, roles: StaffRole[], status: UserStatus): SessionUser => ({
  id,
  email: `${id}@example.com`,
  userStatus: status,
  userRoles: roles,
  tokenVersion: 0,
});
const PROVIDER: StaffRole[] = ['PROVIDER_USER'];
const ADMIN: StaffRole[] = ['PROVIDER_USER', 'ADMIN_USER'];
const MASTER: StaffRole[] = ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'];

export const cast = {
  /** Not signed in. */
  guest: null,
  /** Approved providers. */
  alice: user('alice', PROVIDER, 'approved'),
  bob: user('bob', PROVIDER, 'approved'),
  /** A provider not yet approved (may sign in, fund wallets, post and pay: PRODUCT §2). */
  pam: user('pam', PROVIDER, 'pending'),
  /** A suspended provider (cannot sign in: may do nothing). */
  sam: user('sam', PROVIDER, 'suspended'),
  /** An admin, and an admin who was suspended. */
  ada: user('ada', ADMIN, 'approved'),
  sid: user('sid', ADMIN, 'suspended'),
  /** Masters (every master also holds ADMIN_USER), and a suspended one. */
  max: user('max', MASTER, 'approved'),
  mia: user('mia', MASTER, 'approved'),
  sue: user('sue', MASTER, 'suspended'),
} satisfies Record<string, Actor>;

export type Who = keyof typeof cast;
export const WHO = Object.keys(cast) as Who[];

/** Who counts as active staff (PRODUCT §1): approved admins and masters; suspended ones are nobody. */
export const ACTIVE_STAFF: Record<Who, boolean> = {
  guest: false,
  alice: false,
  bob: false,
  pam: false,
  sam: false,
  ada: true,
  sid: false,
  max: true,
  mia: true,
  sue: false,
};
