import { describe, expect, it } from 'vitest';
import { ACTIVE_STAFF, cast, WHO } from '../../core/policy.testkit.ts';
import { ACTIONS, can } from './locations.policy.ts';

// PRODUCT §1, §8: disabled places and the switches that enable them are for active staff only.
const staff = ACTIVE_STAFF;

describe('locations policy', () => {
  for (const action of ACTIONS) {
    it.each(WHO)(`${action}: %s`, (who) => {
      expect(can(cast[who], action)).toBe(staff[who]);
    });
  }
});
