import { describe, expect, it } from 'vitest';
import { ACTIVE_STAFF, cast, WHO, type Who } from '../../core/policy.testkit.ts';
import { ACTIONS, can, type ModerationAction } from './moderation.policy.ts';

// Issue #14: active staff search ads and read any user (themselves too); they place and release
// legal holds and export evidence, never about their own account (another staff member must).

type Expect = Record<Who, boolean>;
const none: Expect = { guest: false, alice: false, bob: false, pam: false, sam: false, ada: false, sid: false, max: false, mia: false, sue: false };

const notOwn: Record<string, Expect> = {
  alice: { ...none, ada: true, max: true, mia: true },
  ada: { ...none, max: true, mia: true },
  max: { ...none, ada: true, mia: true },
  sue: { ...none, ada: true, max: true, mia: true },
};
const anyStaff: Record<string, Expect> = {
  alice: ACTIVE_STAFF,
  ada: ACTIVE_STAFF, // one's own page too
  max: ACTIVE_STAFF,
};

const table: [ModerationAction, Record<string, Expect>][] = [
  ['viewUser', anyStaff],
  ['hold', notOwn],
  ['release', notOwn],
  ['export', notOwn],
];

describe('moderation policy', () => {
  it.each(WHO)('search every ad: %s', (who) => {
    expect(can(cast[who], 'search')).toBe(ACTIVE_STAFF[who]);
  });

  for (const [action, byUser] of table) {
    for (const [userId, expected] of Object.entries(byUser)) {
      it.each(WHO)(`${action} about ${userId}: %s`, (who) => {
        expect(can(cast[who], action, { userId })).toBe(expected[who]);
      });
    }
  }

  it('refuses every action on an account without the account', () => {
    for (const [action] of table) for (const who of WHO) expect(can(cast[who], action)).toBe(false);
  });

  it('covers every action', () => {
    expect(['search', ...table.map(([a]) => a)].sort()).toEqual([...ACTIONS].sort());
  });
});
