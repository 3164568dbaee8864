import { describe, expect, it } from 'vitest';
import { cast, WHO, type Who } from '../../core/policy.testkit.ts';
import { ACTIONS, can, type WalletsAction, type WalletsObject } from './wallets.policy.ts';

// PRODUCT §6: a wallet is used by its owner only (staff included: no one pays from another's
// wallet); any active user redeems a promo code, a personal code only its owner, neither the staff
// member who created or last edited it.

type Expect = Record<Who, boolean>;
const none: Expect = { guest: false, alice: false, bob: false, pam: false, sam: false, ada: false, sid: false, max: false, mia: false, sue: false };
const active: Expect = { ...none, alice: true, bob: true, pam: true, ada: true, max: true, mia: true };

const table: [WalletsAction, string, WalletsObject, Expect][] = [
  ['use', "alice's wallet", { ownerId: 'alice' }, { ...none, alice: true }],
  ['use', "pam's wallet (pending)", { ownerId: 'pam' }, { ...none, pam: true }],
  ['use', "sam's wallet (suspended)", { ownerId: 'sam' }, none],
  ['use', "max's wallet", { ownerId: 'max' }, { ...none, max: true }],
  ['redeem', 'a code for everyone', { ownerId: null }, active],
  ['redeem', "alice's welcome code", { ownerId: 'alice' }, { ...none, alice: true }],
  ['redeem', "sam's welcome code", { ownerId: 'sam' }, none],
  // Never by the staff member who created or last edited the code.
  ['redeem', 'a code ada created', { ownerId: null, authors: ['ada', null] }, { ...active, ada: false }],
  ['redeem', 'a code max created and mia edited', { ownerId: null, authors: ['max', 'mia'] }, { ...active, max: false, mia: false }],
  ['redeem', "ada's welcome code, edited by ada", { ownerId: 'ada', authors: [null, 'ada'] }, none],
];

describe('wallets policy', () => {
  for (const [action, what, object, expected] of table) {
    it.each(WHO)(`${action} ${what}: %s`, (who) => {
      expect(can(cast[who], action, object)).toBe(expected[who]);
    });
  }

  it('refuses without the wallet or the code', () => {
    for (const who of WHO) {
      expect(can(cast[who], 'use')).toBe(false);
      expect(can(cast[who], 'redeem')).toBe(false);
    }
  });

  it('the table covers every action', () => {
    expect([...new Set(table.map((r) => r[0]))].sort()).toEqual([...ACTIONS].sort());
  });
});
