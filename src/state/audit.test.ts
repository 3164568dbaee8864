import { describe, expect, it } from 'vitest';
import { auditQuery } from './audit';
import { resetAllStores } from './resource';

describe('the audit log filters', () => {
  // A reset (sign-out, another user in the tab) clears every filter, the ones added later too: a
  // staff member's "actions by" and days stayed for the next one.
  it('are all cleared by a reset', () => {
    Object.assign(auditQuery, { action: 'ad.approve', targetType: 'ad', actorId: 'u1', fromDay: '2026-01-01', throughDay: '2026-01-31', page: 3 });
    resetAllStores();
    expect({ ...auditQuery }).toEqual({ page: 1, pageSize: 25, action: '', targetType: '', actorId: '', fromDay: '', throughDay: '' });
  });
});
