import { describe, expect, it } from 'vitest';
import { cast, WHO, type Who } from '../../core/policy.testkit.ts';
import { can } from './reports.policy.ts';

// PRODUCT §1, §7: anyone files a report; staff (admins and masters) open and close them.
const setStatus: Record<Who, boolean> = {
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

describe('reports policy', () => {
  it.each(WHO)('setStatus of a report: %s', (who) => {
    expect(can(cast[who], 'setStatus', { id: 'r1' })).toBe(setStatus[who]);
  });

  it.each(WHO)('setStatus without the report: %s refused', (who) => {
    expect(can(cast[who], 'setStatus')).toBe(false);
  });
});
