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
    expect(
      ad.json().pricing.map((p: { listingType: string; priceCents: number; durationDays: number }) => [p.listingType, p.priceCents, p.durationDays]),
    ).toEqual([
      ['female_esc', 1500, 30],
      ['female_rub', 1500, 30],
      ['shemale_esc', 1500, 30],
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
    const publicAd = async () =>
      (await ctx.app.inject({ method: 'GET', url: '/api/get-ad-pricing' })).json().pricing.find((p: { id: string }) => p.id === ad.id);
    expect(await publicAd()).toMatchObject({ priceCents: 1500, durationDays: 30 }); // the public list is in memory now
    const ok = await set({ id: ad.id, priceCents: 2500, durationDays: 14 });
    expect(await publicAd()).toMatchObject({ priceCents: 2500, durationDays: 14 }); // ... and dropped by the change
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().pricing).toMatchObject({ id: ad.id, priceCents: 2500, durationDays: 14 });
    const rows = await audit();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'pricing.update', target_type: 'pricing', target_id: ad.id, actor_id: admin.id });
    expect(JSON.parse(rows[0].before_json!)).toMatchObject({ priceCents: 1500, durationDays: 30 });

    for (const [payload, error] of [
      [
        { id: ad.id, priceCents: -1 },
        { code: 'validation.invalid', params: { field: 'priceCents' } },
      ],
      [
        { id: ad.id, priceCents: 1.5 },
        { code: 'validation.invalid', params: { field: 'priceCents' } },
      ],
      [
        { id: ad.id, priceCents: 1_000_001 },
        { code: 'pricing.price_out_of_range', params: { field: 'priceCents', max: 1_000_000 } },
      ],
      [
        { id: ad.id, priceCents: 100, durationDays: 400 },
        { code: 'pricing.duration_out_of_range', params: { field: 'durationDays', max: 365 } },
      ],
      [
        { id: bump.id, priceCents: 100, durationDays: 3 },
        { code: 'pricing.bump_has_no_duration', params: { field: 'durationDays' } },
      ],
      [{ priceCents: 100 }, { code: 'validation.required', params: { field: 'id' } }],
    ] as const) {
      const res = await set(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject(error);
    }
    expect((await set({ id: ad.id, priceCents: 100, durationDays: 400 })).json().message).toBe('Duration must be 1 to 365 days.');
    const unknown = await set({ id: 'nope', priceCents: 100 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Price not found.', code: 'pricing.not_found' });
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

  // PRODUCT §4: "amountCents (default 2000, the '20' of the seed)": a new code saved without an
  // amount is worth $20.00; an update without one keeps the amount the code has.
  it('gives a new code without an amount the default $20.00, and an update without one keeps its amount', async () => {
    const created = await save({ code: 'DEFAULT-AMT', maxUses: 5, expiresAt: null, active: true });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().promoCode.amountCents).toBe(2000);
    const id = created.json().promoCode.id as string;
    expect((await save({ id, code: 'DEFAULT-AMT', amountCents: 500, maxUses: 5, active: true })).json().promoCode.amountCents).toBe(500);
    const kept = await save({ id, code: 'DEFAULT-AMT', maxUses: 7, active: true });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().promoCode).toMatchObject({ amountCents: 500, maxUses: 7 });
  });

  it("reads a time without a zone as UTC, whatever the server's zone", async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      const res = await save({ code: 'NOON-UTC', amountCents: 100, maxUses: 1, active: true, expiresAt: '2099-06-30T10:00' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().promoCode.expiresAt).toBe('2099-06-30T10:00:00.000Z');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('refuses bad input naming the field, duplicates with 409, and max uses below uses made', async () => {
    await save({ code: 'TAKEN', amountCents: 100, maxUses: 1, active: true });
    for (const [payload, status, error] of [
      [{ code: 'ab', amountCents: 100, maxUses: 1, active: true }, 400, { code: 'validation.promo_code_invalid', params: { field: 'code' } }],
      [
        { code: 'GOOD-CODE', amountCents: 0, maxUses: 1, active: true },
        400,
        { code: 'pricing.promo_amount_out_of_range', params: { field: 'amountCents', max: 1_000_000 } },
      ],
      [{ code: 'GOOD-CODE', amountCents: 100, maxUses: 0, active: true }, 400, { code: 'pricing.promo_max_uses_out_of_range', params: { field: 'maxUses' } }],
      [
        { code: 'GOOD-CODE', amountCents: 100, maxUses: 1, active: true, expiresAt: 'tomorrow' },
        400,
        { code: 'pricing.promo_expiry_invalid', params: { field: 'expiresAt' } },
      ],
      // Days that do not exist are not rolled over into the next month (Date.parse would: 02-30 → 03-02).
      ...['2099-02-30', '2099-02-29', '2099-04-31T12:00:00Z', '2099-13-01', '2099-12-31T24:00', '2099-12-31T23:60Z'].map(
        (expiresAt) =>
          [
            { code: 'GOOD-CODE', amountCents: 100, maxUses: 1, active: true, expiresAt },
            400,
            { code: 'pricing.promo_expiry_invalid', params: { field: 'expiresAt' } },
          ] as const,
      ),
      [
        { code: 'GOOD-CODE', amountCents: 100, maxUses: 1, active: true, expiresAt: '2020-01-01' },
        400,
        { code: 'pricing.promo_expiry_past', params: { field: 'expiresAt' } },
      ],
      [{ code: 'GOOD-CODE', amountCents: 100, maxUses: 1 }, 400, { code: 'validation.required', params: { field: 'active' } }],
      [{ code: 'taken', amountCents: 100, maxUses: 1, active: true }, 409, { code: 'pricing.promo_code_taken' }],
      [{ id: 'nope', code: 'GOOD-CODE', amountCents: 100, maxUses: 1, active: true }, 404, { code: 'pricing.promo_code_not_found' }],
    ] as const) {
      const res = await save(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json(), JSON.stringify(payload)).toMatchObject(error);
    }
    expect((await save({ code: 'GOOD-CODE', amountCents: 0, maxUses: 1, active: true })).json().message).toBe(
      'Amount must be a whole number of cents from 1 to 1000000.',
    );
    const code = await ctx.app.deps.db.selectFrom('promo_codes').selectAll().execute();
    expect(code).toHaveLength(1);
    const u1 = await makeUser(ctx);
    const u2 = await makeUser(ctx);
    const big = (await save({ code: 'TWICE', amountCents: 100, maxUses: 5, active: true })).json().promoCode;
    for (const u of [u1, u2])
      await ctx.app.inject({ method: 'POST', url: '/api/add-promo-code-to-promo-wallet', headers: { cookie: u.cookie }, payload: { code: 'TWICE' } });
    const low = await save({ id: big.id, code: 'TWICE', amountCents: 100, maxUses: 1, active: true });
    expect(low.statusCode).toBe(400);
    expect(low.json()).toEqual({
      message: 'Max uses cannot be below the 2 uses already made.',
      code: 'pricing.promo_max_uses_below_uses',
      params: { field: 'maxUses', uses: 2 },
    });
  });
});
