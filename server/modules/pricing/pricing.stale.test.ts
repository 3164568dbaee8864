import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, type TestContext, type TestUser } from '../../test/harness.ts';

// Two admins on the same screens: A reads, B changes, A saves the form as A saw it. A's `from`
// no longer matches the row, so the save is refused and B's change stays (nothing audited).

let ctx: TestContext;
let a: TestUser;
let b: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  a = await asAdmin(ctx);
  b = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

const audit = () => ctx.app.deps.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
const post = (url: string, who: TestUser, payload: object) => ctx.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });

interface Price {
  id: string;
  kind: string;
  priceCents: number;
  durationDays: number | null;
}
const prices = async (who: TestUser): Promise<Price[]> =>
  (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-all-pricing', headers: { cookie: who.cookie } })).json().pricing;

describe('set-price-by-id with `from`', () => {
  it("refuses a stale form's price (409): the price keeps the other admin's change, nothing audited", async () => {
    const seen = (await prices(a)).find((p) => p.kind === 'ad')!; // $15 for 30 days
    const byB = await post('/api/admin/set-price-by-id', b, { id: seen.id, priceCents: 9900, durationDays: 7 });
    expect(byB.statusCode, byB.body).toBe(200);
    const audited = (await audit()).length;

    const stale = await post('/api/admin/set-price-by-id', a, {
      id: seen.id,
      priceCents: 1600,
      durationDays: 30,
      from: { priceCents: seen.priceCents, durationDays: seen.durationDays },
    });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toEqual({
      code: 'pricing.changed_meanwhile',
      message: 'This price changed meanwhile: nothing was saved. The list shows it as it is now.',
    });
    expect((await prices(a)).find((p) => p.id === seen.id)).toMatchObject({ priceCents: 9900, durationDays: 7 });
    const publicAd = (await ctx.app.inject({ method: 'GET', url: '/api/get-ad-pricing' })).json().pricing.find((p: Price) => p.id === seen.id);
    expect(publicAd).toMatchObject({ priceCents: 9900, durationDays: 7 });
    expect(await audit()).toHaveLength(audited);
  });

  it('refuses when only the duration moved, and for a bump compares its null duration', async () => {
    const list = await prices(a);
    const ad = list.find((p) => p.kind === 'ad')!;
    const bump = list.find((p) => p.kind === 'bump')!;
    await post('/api/admin/set-price-by-id', b, { id: ad.id, priceCents: ad.priceCents, durationDays: 10 });
    const res = await post('/api/admin/set-price-by-id', a, {
      id: ad.id,
      priceCents: 2000,
      durationDays: 30,
      from: { priceCents: ad.priceCents, durationDays: 30 },
    });
    expect(res.statusCode).toBe(409);
    const okBump = await post('/api/admin/set-price-by-id', a, { id: bump.id, priceCents: 450, from: { priceCents: bump.priceCents, durationDays: null } });
    expect(okBump.statusCode, okBump.body).toBe(200);
    expect(okBump.json().pricing).toMatchObject({ priceCents: 450, durationDays: null });
  });

  it('saves with a `from` that matches the row (audited), and without `from` as before', async () => {
    const seen = (await prices(a)).find((p) => p.kind === 'ad')!;
    const ok = await post('/api/admin/set-price-by-id', a, { id: seen.id, priceCents: 2500, durationDays: 14, from: { priceCents: 1500, durationDays: 30 } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().pricing).toMatchObject({ priceCents: 2500, durationDays: 14 });
    const old = await post('/api/admin/set-price-by-id', b, { id: seen.id, priceCents: 1700 }); // an old client: last write wins
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json().pricing).toMatchObject({ priceCents: 1700, durationDays: 14 });
    expect((await audit()).map((r) => r.action)).toEqual(['pricing.update', 'pricing.update']);
  });

  it('refuses a malformed `from` (400)', async () => {
    const seen = (await prices(a)).find((p) => p.kind === 'ad')!;
    const res = await post('/api/admin/set-price-by-id', a, { id: seen.id, priceCents: 100, from: { priceCents: 1500 } });
    expect(res.statusCode).toBe(400);
  });
});

describe('set-promo-code-by-id with `from`', () => {
  const fields = { code: 'LEAKED-20', amountCents: 2000, maxUses: 100, expiresAt: null, active: true };
  const codeRow = async (who: TestUser, id: string) =>
    (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-all-promo-codes?page=1&pageSize=50', headers: { cookie: who.cookie } }))
      .json()
      .promoCodes.find((p: { id: string }) => p.id === id);
  const seenOf = (p: typeof fields) => ({ code: p.code, amountCents: p.amountCents, maxUses: p.maxUses, expiresAt: p.expiresAt, active: p.active });

  it('does not re-enable a code another admin switched off: 409, the code stays off, nothing audited', async () => {
    const created = await post('/api/admin/set-promo-code-by-id', a, fields);
    expect(created.statusCode, created.body).toBe(201);
    const seen = await codeRow(a, created.json().promoCode.id); // A's form opens on it
    const off = await post('/api/admin/set-promo-code-by-id', b, { id: seen.id, ...seenOf(seen), active: false }); // it leaked
    expect(off.statusCode, off.body).toBe(200);
    const audited = (await audit()).length;

    const stale = await post('/api/admin/set-promo-code-by-id', a, { id: seen.id, ...seenOf(seen), maxUses: 500, from: seenOf(seen) });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toEqual({
      code: 'pricing.promo_code_changed_meanwhile',
      message: 'This promo code changed meanwhile: nothing was saved. The list shows it as it is now; edit it again.',
    });
    expect(await codeRow(a, seen.id)).toMatchObject({ active: false, maxUses: 100 });
    expect(await audit()).toHaveLength(audited);
  });

  it('refuses when any edited field moved (amount, max uses, expiry, code)', async () => {
    const id = (await post('/api/admin/set-promo-code-by-id', a, fields)).json().promoCode.id as string;
    const changes = [{ amountCents: 500 }, { maxUses: 3 }, { expiresAt: '2099-01-01' }, { code: 'RENAMED-20' }];
    for (const change of changes) {
      const seen = await codeRow(a, id);
      await post('/api/admin/set-promo-code-by-id', b, { id, ...seenOf(seen), ...change });
      const res = await post('/api/admin/set-promo-code-by-id', a, { id, ...seenOf(seen), active: false, from: seenOf(seen) });
      expect(res.statusCode, JSON.stringify(change)).toBe(409);
      expect((await codeRow(a, id)).active, JSON.stringify(change)).toBe(true);
    }
  });

  it('saves with a `from` that matches the code (its expiry as listed, the code in any case), and without `from` as before', async () => {
    const id = (await post('/api/admin/set-promo-code-by-id', a, { ...fields, expiresAt: '2099-06-30' })).json().promoCode.id as string;
    const seen = await codeRow(a, id);
    expect(seen.expiresAt).toBe('2099-06-30T23:59:59.999Z');
    const ok = await post('/api/admin/set-promo-code-by-id', a, { id, ...seenOf(seen), active: false, from: { ...seenOf(seen), code: 'leaked-20' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().promoCode).toMatchObject({ active: false, expiresAt: '2099-06-30T23:59:59.999Z' });
    const old = await post('/api/admin/set-promo-code-by-id', b, { id, ...fields, active: true }); // an old client: last write wins
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json().promoCode).toMatchObject({ active: true, expiresAt: null });
    expect((await audit()).map((r) => r.action)).toEqual(['promo_code.create', 'promo_code.update', 'promo_code.update']);
  });
});
