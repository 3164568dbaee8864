import { describe, expect, it } from 'vitest';
import { cast, WHO, type Who } from '../../core/policy.testkit.ts';
import { ACTIONS, can, type ProfileAction, type ProfileObject } from './profile.policy.ts';

// PRODUCT §2, §7: the profile routes act on one's own account only (staff included: a master
// manages users through /api/master, not through their profile); the last master cannot go.

type Expect = Record<Who, boolean>;
const none: Expect = { guest: false, alice: false, bob: false, pam: false, sam: false, ada: false, sid: false, max: false, mia: false, sue: false };

const table: [ProfileAction, string, ProfileObject, Expect][] = [
  ['manage', "alice's account", { id: 'alice' }, { ...none, alice: true }],
  ['manage', "pam's account (pending)", { id: 'pam' }, { ...none, pam: true }],
  ['manage', "sam's account (suspended)", { id: 'sam' }, none],
  ['manage', "max's account", { id: 'max' }, { ...none, max: true }],
  ['delete', "alice's account", { id: 'alice', roles: ['PROVIDER_USER'], status: 'approved', activeMasters: 1 }, { ...none, alice: true }],
  ['delete', "ada's account", { id: 'ada', roles: ['PROVIDER_USER', 'ADMIN_USER'], status: 'approved', activeMasters: 1 }, { ...none, ada: true }],
  [
    'delete',
    "max's account, two masters",
    { id: 'max', roles: ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'], status: 'approved', activeMasters: 2 },
    { ...none, max: true },
  ],
  [
    'delete',
    "max's account, the last active master",
    { id: 'max', roles: ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'], status: 'approved', activeMasters: 1 },
    none,
  ],
  ['delete', "alice's account, roles unknown", { id: 'alice' }, none],
];

describe('profile policy', () => {
  for (const [action, what, account, expected] of table) {
    it.each(WHO)(`${action} ${what}: %s`, (who) => {
      expect(can(cast[who], action, account)).toBe(expected[who]);
    });
  }

  it('refuses without the account', () => {
    for (const who of WHO) {
      expect(can(cast[who], 'manage')).toBe(false);
      expect(can(cast[who], 'delete')).toBe(false);
    }
  });

  it('the table covers every action', () => {
    expect([...new Set(table.map((r) => r[0]))].sort()).toEqual([...ACTIONS].sort());
  });
});
