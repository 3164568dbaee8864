import { describe, expect, it } from 'vitest';
import { cast, WHO, type Who } from '../../core/policy.testkit.ts';
import { ACTIONS, can, type ListedAd, type ListingsAction } from './listings.policy.ts';

// PRODUCT §7: GET /api/ads/{id} is 404 "when not publicly visible (to anyone but its owner and
// staff)"; anyone may report an ad (guests too, PRODUCT §2), a hidden one as well.

type Expect = Record<Who, boolean>;
const none: Expect = { guest: false, alice: false, bob: false, pam: false, sam: false, ada: false, sid: false, max: false, mia: false, sue: false };
const everyone: Expect = { guest: true, alice: true, bob: true, pam: true, sam: true, ada: true, sid: true, max: true, mia: true, sue: true };
const staff = { ada: true, max: true, mia: true };

const table: [ListingsAction, string, ListedAd, Expect][] = [
  ['view', "alice's public ad", { ownerId: 'alice', isPublic: true }, everyone],
  ['view', "alice's ad, not public", { ownerId: 'alice', isPublic: false }, { ...none, ...staff, alice: true }],
  ['view', "pam's approved ad, hidden while pam is pending", { ownerId: 'pam', isPublic: false }, { ...none, ...staff, pam: true }],
  ['view', "sam's ad, hidden by the suspension", { ownerId: 'sam', isPublic: false }, { ...none, ...staff }],
  ['view', "ada's ad, not public", { ownerId: 'ada', isPublic: false }, { ...none, ...staff }],
  ['report', "alice's public ad", { ownerId: 'alice', isPublic: true }, everyone],
  ['report', "sam's hidden ad", { ownerId: 'sam', isPublic: false }, everyone],
];

describe('listings policy', () => {
  for (const [action, what, ad, expected] of table) {
    it.each(WHO)(`${action} ${what}: %s`, (who) => {
      expect(can(cast[who], action, ad)).toBe(expected[who]);
    });
  }

  it('refuses without the ad (an unknown id)', () => {
    for (const who of WHO) {
      expect(can(cast[who], 'view')).toBe(false);
      expect(can(cast[who], 'report')).toBe(false);
    }
  });

  it('the table covers every action', () => {
    expect([...new Set(table.map((r) => r[0]))].sort()).toEqual([...ACTIONS].sort());
  });
});
