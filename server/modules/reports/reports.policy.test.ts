import { describe, expect, it } from 'vitest';
import { ACTIVE_STAFF, cast, WHO } from '../../core/policy.testkit.ts';
import { can } from './reports.policy.ts';

// PRODUCT §1, §7: anyone files a report; staff (admins and masters) open and close them.
const setStatus = ACTIVE_STAFF;

describe('reports policy', () => {
  it.each(WHO)('setStatus of a report: %s', (who) => {
    expect(can(cast[who], 'setStatus', { id: 'r1' })).toBe(setStatus[who]);
  });

  it.each(WHO)('setStatus without the report: %s refused', (who) => {
    expect(can(cast[who], 'setStatus')).toBe(false);
  });
});
