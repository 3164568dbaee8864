import { describe, expect, it } from 'vitest';
import { ACTIVE_STAFF, cast, WHO, type Who } from '../../core/policy.testkit.ts';
import { can } from './reports.policy.ts';

// PRODUCT §1, §7: anyone files a report; staff (admins and masters) open and close them, except one
// about their own ad (another admin must, as with reviewing, disabling or exporting it).
const setStatus = ACTIVE_STAFF;
/** A report about ada's ad: every active staff member but ada. */
const setStatusOfAdasAd: Record<Who, boolean> = { ...ACTIVE_STAFF, ada: false };

describe('reports policy', () => {
  it.each(WHO)('setStatus of a report with no ad: %s', (who) => {
    expect(can(cast[who], 'setStatus', { id: 'r1', adOwnerId: null })).toBe(setStatus[who]);
  });

  it.each(WHO)("setStatus of a report about alice's ad: %s", (who) => {
    expect(can(cast[who], 'setStatus', { id: 'r1', adOwnerId: 'alice' })).toBe(setStatus[who]);
  });

  it.each(WHO)("setStatus of a report about ada's own ad: %s", (who) => {
    expect(can(cast[who], 'setStatus', { id: 'r1', adOwnerId: 'ada' })).toBe(setStatusOfAdasAd[who]);
  });

  it.each(WHO)('setStatus without the report: %s refused', (who) => {
    expect(can(cast[who], 'setStatus')).toBe(false);
  });
});
