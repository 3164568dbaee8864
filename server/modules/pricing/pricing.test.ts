import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

const audit = () => ctx.app.deps.db.selectFrom('audit_log').selectAll().orderBy('id').execute();

describe('pricing', () => {
  it('serves seeded defaults publicly: $15 for 30 days per ad, $3 per bump', async () => {
    const ad = await ctx.app.inject({ method: 'GET', url: '/api/get-ad-pricing' });
    expect(ad.statusCode).toBe(200);
    expect(ad.json().pricing.map((p: { listingType: string; priceCents: number; durationDays: number }) => [p.listingType, p.priceCents, p.durationDays])).toEqual([
      ['female_esc', 1500, 30], ['female_rub', 1500, 30], ['shemale_esc', 1500, 30],
    ]);
    const bump = await ctx.app.inject({ method: 'GET', url: '/api/get-bump-pricing' });
    expect(bump.json().pricing).toHaveLength(3);
    expect(bump.json().pricing[0]).toEqual({ id: expect.any(String), kind: 'bump', listingType: 'female_esc', priceCents: 300, durationDays: null });
  });

  it('lets staff change a price, audited; refuses bad values naming the field and changes nothing', async () => {
    const all = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-all-pricing', headers: { cookie: admin.cookie } })).json().pricing;
    expect(all).toHaveLength(6);
    const ad = all.find((p: { kind: string }) => p.kind === 'ad');
    const bump = all.find((p: { kind: string }) => p.kind === 'bump');
    const set = (payload: object) => ctx.app.inject({ method: 'POST', url: '/api/admin/set-price-by-id', headers: { cookie: admin.cookie }, payload });
    const publicAd = async () => (await ctx.app.inject({ method: 'GET', url: '/api/get-ad-pricing' })).json().pricing.find((p: { id: string }) => p.id === ad.id);
    expect(await publicAd()).toMatchObject({ priceCents: 1500, durationDays: 30 }); // the public list is in memory now
    const ok = await set({ id: ad.id, priceCents: 2500, durationDays: 14 });
    expect(await publicAd()).toMatchObject({ priceCents: 2500, durationDays: 14 }); // ... and dropped by the change
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().pricing).toMatchObject({ id: ad.id, priceCents: 2500, durationDays: 14 });
    const rows = await audit();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'pricing.update', target_type: 'pricing', target_id: ad.id, actor_id: admin.id });
    expect(JSON.parse(rows[0].before_json!)).toMatchObject({ priceCents: 1500, durationDays: 30 });

    for (const [payload, field] of [
      [{ id: ad.id, priceCents: -1 }, /priceCents/],
      [{ id: ad.id, priceCents: 1.5 }, /priceCents/],
      [{ id: ad.id, priceCents: 100, durationDays: 400 }, /Duration/],
      [{ id: bump.id, priceCents: 100, durationDays: 3 }, /bump has no duration/],
      [{ priceCents: 100 }, /id/],
    ] as const) {
      const res = await set(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(field);
    }
    expect((await set({ id: 'nope', priceCents: 100 })).statusCode).toBe(404);
    expect(await audit()).toHaveLength(1);
    const again = (await ctx.app.inject({ method: 'GET', url: '/api/get-ad-pricing' })).json().pricing.find((p: { id: string }) => p.id === ad.id);
    expect(again).toMatchObject({ priceCents: 2500, durationDays: 14 });
  });

  it('is staff only', async () => {
    const u = await makeUser(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/get-all-pricing', headers: { cookie: u.cookie } })).statusCode).toBe(403);
  });
});

describe('promo codes (admin)', () => {
  const save = (payload: object) => ctx.app.inject({ method: 'POST', url: '/api/admin/set-promo-code-by-id', headers: { cookie: admin.cookie }, payload });

  it('creates (201) and updates codes, audited, and lists them newest first', async () => {
    const created = await save({ code: 'summer-10', amountCents: 1000, maxUses: 5, expiresAt: '2026-12-31', active: true });
    expect(created.statusCode, created.body).toBe(201);
    const pc = created.json().promoCode;
    expect(pc).toMatchObject({ code: 'SUMMER-10', amountCents: 1000, maxUses: 5, uses: 0, expiresAt: '2026-12-31T23:59:59.999Z', active: true });
    ctx.clock.advance(1000);
    await save({ code: 'OTHER-CODE', amountCents: 2000, maxUses: 1, expiresAt: null, active: true });
    const upd = await save({ id: pc.id, code: 'SUMMER-10', amountCents: 1500, maxUses: 9, expiresAt: null, active: false });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().promoCode).toMatchObject({ id: pc.id, amountCents: 1500, maxUses: 9, expiresAt: null, active: false });
    const list = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-all-promo-codes?page=1&pageSize=10', headers: { cookie: admin.cookie } });
    expect(list.json()).toMatchObject({ total: 2, page: 1, pageSize: 10 });
    expect(list.json().promoCodes.map((p: { code: string }) => p.code)).toEqual(['OTHER-CODE', 'SUMMER-10']);
    expect((await audit()).map((a) => a.action)).toEqual(['promo_code.create', 'promo_code.create', 'promo_code.update']);
  });

  it('refuses bad input naming the field, duplicates with 409, and max uses below uses made', async () => {
    await save({ code: 'TAKEN', amountCents: 100, maxUses: 1, active: true });
    for (const [payload, status, msg] of [
      [{ code: 'ab', amountCents: 100, maxUses: 1, active: true }, 400, /Promo code/],
      [{ code: 'GOOD-CODE', amountCents: 0, maxUses: 1, active: true }, 400, /Amount/],
      [{ code: 'GOOD-CODE', amountCents: 100, maxUses: 0, active: true }, 400, /Max uses/],
      [{ code: 'GOOD-CODE', amountCents: 100, maxUses: 1, active: true, expiresAt: 'tomorrow' }, 400, /Expiry/],
      [{ code: 'GOOD-CODE', amountCents: 100, maxUses: 1, active: true, expiresAt: '2020-01-01' }, 400, /future/],
      [{ code: 'GOOD-CODE', amountCents: 100, maxUses: 1 }, 400, /active/],
      [{ code: 'taken', amountCents: 100, maxUses: 1, active: true }, 409, /already exists/],
    ] as const) {
      const res = await save(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message).toMatch(msg);
    }
    const code = (await ctx.app.deps.db.selectFrom('promo_codes').selectAll().execute());
    expect(code).toHaveLength(1);
    const u1 = await makeUser(ctx);
    const u2 = await makeUser(ctx);
    const big = (await save({ code: 'TWICE', amountCents: 100, maxUses: 5, active: true })).json().promoCode;
    for (const u of [u1, u2]) await ctx.app.inject({ method: 'POST', url: '/api/add-promo-code-to-promo-wallet', headers: { cookie: u.cookie }, payload: { code: 'TWICE' } });
    const low = await save({ id: big.id, code: 'TWICE', amountCents: 100, maxUses: 1, active: true });
    expect(low.statusCode).toBe(400);
    expect(low.json().message).toMatch(/2 uses/);
  });
});
