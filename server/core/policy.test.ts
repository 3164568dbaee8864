import { describe, expect, it } from 'vitest';
import { hasStaffRole, isActive, isMaster, isOwner, isStaff } from './policy.ts';
import { cast, WHO, type Who } from './policy.testkit.ts';

// The shared vocabulary: who acts at all, who is staff, who is a master (PRODUCT §2).
const table: Record<Who, { active: boolean; staff: boolean; master: boolean }> = {
  guest: { active: false, staff: false, master: false },
  alice: { active: true, staff: false, master: false },
  bob: { active: true, staff: false, master: false },
  pam: { active: true, staff: false, master: false },
  sam: { active: false, staff: false, master: false },
  ada: { active: true, staff: true, master: false },
  sid: { active: false, staff: false, master: false },
  max: { active: true, staff: true, master: true },
  mia: { active: true, staff: true, master: true },
  sue: { active: false, staff: false, master: false },
};

describe('core policy vocabulary', () => {
  it.each(WHO)('%s', (who) => {
    const actor = cast[who];
    expect({ active: isActive(actor), staff: isStaff(actor), master: isMaster(actor) }).toEqual(table[who]);
  });

  it('isOwner: an active actor with that id, nobody else', () => {
    expect(isOwner(cast.alice, 'alice')).toBe(true);
    expect(isOwner(cast.pam, 'pam')).toBe(true);
    expect(isOwner(cast.alice, 'bob')).toBe(false);
    expect(isOwner(cast.max, 'alice')).toBe(false);
    expect(isOwner(cast.sam, 'sam')).toBe(false); // suspended
    expect(isOwner(cast.guest, 'alice')).toBe(false);
    expect(isOwner(cast.alice, null)).toBe(false);
    expect(isOwner(cast.alice, '')).toBe(false);
  });

  it('hasStaffRole: ADMIN_USER or MASTER_USER in a role list', () => {
    expect(hasStaffRole(['GUEST_USER'])).toBe(false);
    expect(hasStaffRole(['PROVIDER_USER'])).toBe(false);
    expect(hasStaffRole(['PROVIDER_USER', 'ADMIN_USER'])).toBe(true);
    expect(hasStaffRole(['MASTER_USER'])).toBe(true);
  });
});
