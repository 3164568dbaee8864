import { describe, expect, it } from 'vitest';
import { cast, WHO } from '../../core/policy.testkit.ts';
import type { UserStatus } from '../../core/schema.ts';
import { can } from './auth.policy.ts';

// PRODUCT §2: pending users may sign in; suspended users cannot. Who asks does not matter.
const signIn: Record<UserStatus, boolean> = { pending: true, approved: true, suspended: false };

describe('auth policy', () => {
  for (const [status, expected] of Object.entries(signIn) as [UserStatus, boolean][]) {
    it.each(WHO)(`signIn to a ${status} account, asked by %s`, (who) => {
      expect(can(cast[who], 'signIn', { status })).toBe(expected);
    });
  }

  it('refuses without the account', () => {
    expect(can(null, 'signIn')).toBe(false);
  });
});
