import { describe, expect, it } from 'vitest';
import type { StaffRole } from '../../core/schema.ts';
import { cast, WHO, type Who } from '../../core/policy.testkit.ts';
import { ACTIONS, can, isLastActiveMaster, type Account, type AccountChange, type MasterAction } from './master.policy.ts';

// PRODUCT §2: masters change roles and status; a master cannot remove their own MASTER_USER role
// or suspend themselves; the last master cannot be demoted (nor suspended: either way the install
// would be left without a master). Nobody else changes roles or status. Nor does a master approve
// an account linked to them (the conflict-of-interest rule of ad review).

type Expect = Record<Who, boolean>;
const none: Expect = { guest: false, alice: false, bob: false, pam: false, sam: false, ada: false, sid: false, max: false, mia: false, sue: false };
const masters = { max: true, mia: true };

const PROVIDER: StaffRole[] = ['PROVIDER_USER'];
const ADMIN: StaffRole[] = ['PROVIDER_USER', 'ADMIN_USER'];
const MASTER: StaffRole[] = ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'];
const pam: Account = { id: 'pam', roles: PROVIDER, status: 'pending' };
const alice: Account = { id: 'alice', roles: PROVIDER, status: 'approved' };
const max: Account = { id: 'max', roles: MASTER, status: 'approved' };
const mia: Account = { id: 'mia', roles: MASTER, status: 'approved' };
const sue: Account = { id: 'sue', roles: MASTER, status: 'suspended' };

const table: [MasterAction, string, AccountChange, Expect][] = [
  ['setRoles', 'make pam an admin', { user: pam, roles: ADMIN, activeMasters: 2 }, { ...none, ...masters }],
  ['setRoles', 'make alice a master', { user: alice, roles: MASTER, activeMasters: 2 }, { ...none, ...masters }],
  ['setRoles', 'demote mia, two masters', { user: mia, roles: ADMIN, activeMasters: 2 }, { ...none, max: true }], // not mia herself
  ['setRoles', 'demote max, two masters', { user: max, roles: PROVIDER, activeMasters: 2 }, { ...none, mia: true }],
  ['setRoles', 'demote mia, the last active master', { user: mia, roles: ADMIN, activeMasters: 1 }, none],
  ['setRoles', 'demote sue (suspended), one active master', { user: sue, roles: PROVIDER, activeMasters: 1 }, { ...none, ...masters }],
  ['setRoles', 'keep max a master (same roles)', { user: max, roles: MASTER, activeMasters: 1 }, { ...none, ...masters }],
  ['setStatus', 'approve pam', { user: pam, status: 'approved', activeMasters: 2 }, { ...none, ...masters }],
  ['setStatus', 'suspend alice', { user: alice, status: 'suspended', activeMasters: 2 }, { ...none, ...masters }],
  ['setStatus', 'suspend mia, two masters', { user: mia, status: 'suspended', activeMasters: 2 }, { ...none, max: true }],
  ['setStatus', 'suspend max, two masters', { user: max, status: 'suspended', activeMasters: 2 }, { ...none, mia: true }],
  ['setStatus', 'suspend mia, the last active master', { user: mia, status: 'suspended', activeMasters: 1 }, none],
  ['setStatus', 'approve max (already approved)', { user: max, status: 'approved', activeMasters: 1 }, { ...none, ...masters }],
  ['setStatus', 'approve sue again (suspended master)', { user: sue, status: 'approved', activeMasters: 1 }, { ...none, ...masters }],
  ['setStatus', 'suspend sue again (already suspended)', { user: sue, status: 'suspended', activeMasters: 1 }, { ...none, ...masters }],
  // An account linked to the one who asks (the same phone or photo) is approved by another master.
  ['setStatus', 'approve pam, linked to whoever asks', { user: pam, status: 'approved', activeMasters: 2, linkedToActor: true }, none],
  ['setStatus', 'approve sue again, linked to whoever asks', { user: sue, status: 'approved', activeMasters: 1, linkedToActor: true }, none],
  ['setStatus', 'approve alice, linked, already approved', { user: alice, status: 'approved', activeMasters: 2, linkedToActor: true }, { ...none, ...masters }],
  ['setStatus', 'suspend alice, linked to whoever asks', { user: alice, status: 'suspended', activeMasters: 2, linkedToActor: true }, { ...none, ...masters }],
  ['setStatus', 'put alice back to pending, linked', { user: alice, status: 'pending', activeMasters: 2, linkedToActor: true }, { ...none, ...masters }],
];

describe('master policy', () => {
  for (const [action, what, change, expected] of table) {
    it.each(WHO)(`${action}: ${what}: %s`, (who) => {
      expect(can(cast[who], action, change)).toBe(expected[who]);
    });
  }

  it('refuses without the change, or without what is asked', () => {
    for (const who of WHO) {
      expect(can(cast[who], 'setRoles')).toBe(false);
      expect(can(cast[who], 'setStatus')).toBe(false);
      expect(can(cast[who], 'setRoles', { user: pam, activeMasters: 2 })).toBe(false);
      expect(can(cast[who], 'setStatus', { user: pam, activeMasters: 2 })).toBe(false);
    }
  });

  it('the last active master: an active master with no other', () => {
    expect(isLastActiveMaster(mia, 1)).toBe(true);
    expect(isLastActiveMaster(mia, 0)).toBe(true); // cannot happen, but never lets the last one go
    expect(isLastActiveMaster(mia, 2)).toBe(false);
    expect(isLastActiveMaster(sue, 1)).toBe(false); // suspended: not counted, may lose the role
    expect(isLastActiveMaster(alice, 1)).toBe(false);
    expect(isLastActiveMaster({ roles: ADMIN, status: 'approved' }, 1)).toBe(false);
  });

  it('the table covers every action', () => {
    expect([...new Set(table.map((r) => r[0]))].sort()).toEqual([...ACTIONS].sort());
  });
});
