import { describe, expect, it } from 'vitest';
import { cast, WHO, type Who } from '../../core/policy.testkit.ts';
import { ACTIONS, can } from './locations.policy.ts';

// PRODUCT §1, §8: disabled places and the switches that enable them are for active staff only.
const staff: Record<Who, boolean> = {
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

describe('locations policy', () => {
  for (const action of ACTIONS) {
    it.each(WHO)(`${action}: %s`, (who) => {
      expect(can(cast[who], action)).toBe(staff[who]);
    });
  }
});
