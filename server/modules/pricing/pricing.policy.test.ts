import { describe, expect, it } from 'vitest';
import { ACTIVE_STAFF, cast, WHO } from '../../core/policy.testkit.ts';
import { can } from './pricing.policy.ts';

// PRODUCT §1, §2: admins (and masters, who may everything admins may) set prices and promo codes.
const staff = ACTIVE_STAFF;

describe('pricing policy', () => {
  it.each(WHO)('setPrice of a price: %s', (who) => {
    expect(can(cast[who], 'setPrice', { id: 'p1' })).toBe(staff[who]);
  });

  it.each(WHO)('setPromoCode of a code: %s', (who) => {
    expect(can(cast[who], 'setPromoCode', { id: 'c1' })).toBe(staff[who]);
  });

  it.each(WHO)('setPromoCode creating a code (no object): %s', (who) => {
    expect(can(cast[who], 'setPromoCode')).toBe(staff[who]);
  });

  it.each(WHO)('setPrice without the price: %s refused', (who) => {
    expect(can(cast[who], 'setPrice')).toBe(false);
  });
});
