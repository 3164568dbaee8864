import { describe, expect, it } from 'vitest';
import { cast, WHO, type Who } from '../../core/policy.testkit.ts';
import { ACTIONS, can, type AdsAction } from './ads.policy.ts';

// Who may do what to an ad, from PRODUCT §2, §5 and §7: the owner pays, bumps, sets online, moves
// and deletes from the cart (a pending owner too, a suspended one not); staff act through review,
// never on their own ad nor on one of an account linked to them; a non-public ad is seen by its owner and staff.

type Expect = Record<Who, boolean>;
const none: Expect = { guest: false, alice: false, bob: false, pam: false, sam: false, ada: false, sid: false, max: false, mia: false, sue: false };

/** For each owner of the ad: who may act as its owner. */
const ownerActs: Record<string, Expect> = {
  alice: { ...none, alice: true },
  pam: { ...none, pam: true }, // pending: may pay for and run their ads (they stay hidden until approved)
  sam: { ...none }, // suspended: nobody, not even sam
  ada: { ...none, ada: true }, // staff own ads like anyone else
};

/** For each owner: who may see the ad while it is not public. */
const preview: Record<string, Expect> = {
  alice: { ...none, alice: true, ada: true, max: true, mia: true },
  pam: { ...none, pam: true, ada: true, max: true, mia: true },
  sam: { ...none, ada: true, max: true, mia: true },
  ada: { ...none, ada: true, max: true, mia: true },
  max: { ...none, ada: true, max: true, mia: true },
};

/** For each owner: which staff may approve, reject, disable or re-enable the ad (never their own). */
const review: Record<string, Expect> = {
  alice: { ...none, ada: true, max: true, mia: true },
  sam: { ...none, ada: true, max: true, mia: true },
  ada: { ...none, max: true, mia: true },
  max: { ...none, ada: true, mia: true },
};

const table: [AdsAction, Record<string, Expect>][] = [
  ['pay', ownerActs],
  ['bump', ownerActs],
  ['setOnline', ownerActs],
  ['move', ownerActs],
  ['deleteFromCart', ownerActs],
  ['edit', ownerActs],
  ['renew', ownerActs],
  ['delete', ownerActs],
  ['preview', preview],
  ['review', review],
  ['moderate', review],
];

describe('ads policy', () => {
  for (const [action, byOwner] of table) {
    for (const [owner, expected] of Object.entries(byOwner)) {
      it.each(WHO)(`${action} ${owner}'s ad: %s`, (who) => {
        expect(can(cast[who], action, { ownerId: owner })).toBe(expected[who]);
      });
    }
  }

  // An account the product links to the actor (a shared phone or photo) is theirs for review and
  // moderation: nobody of staff acts on it; it changes nothing else (the owner still acts, staff still preview).
  it.each(WHO)("review and moderate alice's ad when she is linked to the actor: %s", (who) => {
    for (const action of ['review', 'moderate'] as const) expect(can(cast[who], action, { ownerId: 'alice', ownerLinkedToActor: true })).toBe(false);
    expect(can(cast[who], 'preview', { ownerId: 'alice', ownerLinkedToActor: true })).toBe(preview.alice[who]);
    expect(can(cast[who], 'edit', { ownerId: 'alice', ownerLinkedToActor: true })).toBe(ownerActs.alice[who]);
  });

  it('refuses every action without the ad', () => {
    for (const [action] of table) for (const who of WHO) expect(can(cast[who], action)).toBe(false);
  });

  it('the table covers every action', () => {
    expect([...new Set(table.map((r) => r[0]))].sort()).toEqual([...ACTIONS].sort());
  });
});
