import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';

// A promo code's expiry as staff set it: an update that leaves it out keeps it, and a moment past
// the year 9999 (which would read as long past: expiries compare as ISO text) is refused as invalid.

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

const setCode = (payload: object) => ctx.app.inject({ method: 'POST', url: '/api/admin/set-promo-code-by-id', headers: { cookie: admin.cookie }, payload });
const redeem = async (code: string) => {
  const u = await makeUser(ctx);
  return ctx.app.inject({ method: 'POST', url: '/api/add-promo-code-to-promo-wallet', headers: { cookie: u.cookie }, payload: { code } });
};

describe('an update that leaves the expiry out', () => {
  it('keeps the expiry the code has: switching it on does not make it valid forever', async () => {
    const expiresAt = new Date(ctx.clock.now().getTime() + DAY_MS).toISOString();
    const created = await setCode({ code: 'ONE-DAY', amountCents: 500, maxUses: 10, active: false, expiresAt });
    expect(created.statusCode).toBe(201);
    const upd = await setCode({ id: created.json().promoCode.id, code: 'ONE-DAY', amountCents: 500, maxUses: 10, active: true });
    expect([upd.statusCode, upd.json().promoCode.expiresAt]).toEqual([200, expiresAt]);
    expect((await redeem('ONE-DAY')).statusCode).toBe(200);
    ctx.clock.advance(2 * DAY_MS);
    expect((await redeem('ONE-DAY')).json().code).toBe('wallet.promo_code_expired');
  });

  it('while null or "" still take the expiry away, and a creation without one has none', async () => {
    const expiresAt = new Date(ctx.clock.now().getTime() + DAY_MS).toISOString();
    const id = (await setCode({ code: 'CLEARED', amountCents: 500, maxUses: 10, active: true, expiresAt })).json().promoCode.id as string;
    expect((await setCode({ id, code: 'CLEARED', amountCents: 500, maxUses: 10, active: true, expiresAt: '' })).json().promoCode.expiresAt).toBeNull();
    expect((await setCode({ id, code: 'CLEARED', amountCents: 500, maxUses: 10, active: true, expiresAt })).json().promoCode.expiresAt).toBe(expiresAt);
    expect((await setCode({ id, code: 'CLEARED', amountCents: 500, maxUses: 10, active: true, expiresAt: null })).json().promoCode.expiresAt).toBeNull();
    expect((await setCode({ code: 'NEVER', amountCents: 500, maxUses: 10, active: true })).json().promoCode.expiresAt).toBeNull();
  });
});

describe('an expiry a zone carries past the year 9999', () => {
  it('is refused as invalid on creation, not as "in the past"', async () => {
    const res = await setCode({ code: 'FAR-FUTURE', amountCents: 500, maxUses: 10, active: true, expiresAt: '9999-12-31T23:00:00-05:00' });
    expect([res.statusCode, res.json().code]).toEqual([400, 'pricing.promo_expiry_invalid']);
    const last = await setCode({ code: 'LAST-DAY', amountCents: 500, maxUses: 10, active: true, expiresAt: '9999-12-31T23:00:00Z' });
    expect(last.statusCode).toBe(201);
    expect((await redeem('LAST-DAY')).statusCode).toBe(200);
  });

  it('is refused on an update, and the code stays redeemable', async () => {
    const id = (await setCode({ code: 'FAR-FUTURE-2', amountCents: 500, maxUses: 10, active: true, expiresAt: null })).json().promoCode.id as string;
    const upd = await setCode({ id, code: 'FAR-FUTURE-2', amountCents: 500, maxUses: 10, active: true, expiresAt: '9999-12-31T23:00:00-05:00' });
    expect([upd.statusCode, upd.json().code]).toEqual([400, 'pricing.promo_expiry_invalid']);
    const res = await redeem('FAR-FUTURE-2');
    expect([res.statusCode, res.json().wallet?.amountCents]).toEqual([200, 500]);
  });
});
