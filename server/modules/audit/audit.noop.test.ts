import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { decide, fundedUsd, pay, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';

// PRODUCT §1 "every staff action is audited", §4 "Audit entry: who, action, target, before/after,
// at": a save that changes nothing (a double click, a retried request, a form sent unchanged) is
// answered as before but writes nothing, so the log lists real changes only; and opening a place
// names the ads whose held paid terms it started, as an owner's approval does.

let ctx: TestContext;
let admin: TestUser;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
});
afterEach(async () => ctx.close());

const post = (who: TestUser, url: string, payload: object) => ctx.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });
type Entry = { actorId: string | null; action: string; targetType: string; targetId: string | null; before: unknown; after: unknown };
const log = async (q = ''): Promise<Entry[]> => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/admin/get-audit-log?pageSize=100${q}`, headers: { cookie: admin.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().auditLog as Entry[];
};
const setPlaces = async (body: { stateId: string; cityIds?: string[]; enabled: boolean }) => {
  const res = await post(admin, '/api/admin/set-status-state-cities', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { updated: number };
};
const heldOf = async (id: string) => (await ctx.app.deps.db.selectFrom('ads').select('term_held').where('id', '=', id).executeTakeFirstOrThrow()).term_held;

describe('audit rows: none for a save that changed nothing', () => {
  it('set-status-state-cities: disabling a disabled state, or enabling enabled cities, writes no row and counts nothing', async () => {
    const ny = await placeIn(ctx, 'ny');
    expect(await setPlaces({ stateId: 'ny', enabled: false })).toEqual({ updated: 1 });
    expect(await setPlaces({ stateId: 'ny', enabled: false })).toEqual({ updated: 0 });
    expect(await setPlaces({ stateId: 'ny', cityIds: [ny.cityId], enabled: true })).toEqual({ updated: 0 });
    const rows = await log();
    expect(rows.map((r) => [r.action, r.targetId, r.before, r.after])).toEqual([['state.status', 'ny', { enabled: true }, { enabled: false }]]);
  });

  it('set-status-state-cities: of the cities named, only those whose status changes are written, audited and counted', async () => {
    const [first, second] = [await placeIn(ctx, 'tx', 0), await placeIn(ctx, 'tx', 1)];
    expect(await setPlaces({ stateId: 'tx', cityIds: [first.cityId], enabled: false })).toEqual({ updated: 1 });
    expect(await setPlaces({ stateId: 'tx', cityIds: [first.cityId, second.cityId], enabled: false })).toEqual({ updated: 1 });
    const rows = await log('&targetType=city');
    expect(rows.map((r) => r.targetId).sort()).toEqual([first.cityId, second.cityId].sort());
    const cities = await ctx.app.deps.db.selectFrom('cities').select(['id', 'enabled']).where('id', 'in', [first.cityId, second.cityId]).execute();
    expect(cities.every((c) => c.enabled === 0)).toBe(true);
  });

  it('set-price-by-id: saving the same price again writes no row and answers the same', async () => {
    const pricing = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-all-pricing', headers: { cookie: admin.cookie } })).json().pricing as {
      id: string;
      kind: string;
      priceCents: number;
      durationDays: number | null;
    }[];
    const p = pricing.find((x) => x.kind === 'ad')!;
    const body = { id: p.id, priceCents: p.priceCents + 100, durationDays: p.durationDays };
    const first = await post(admin, '/api/admin/set-price-by-id', body);
    expect(first.statusCode).toBe(200);
    const again = await post(admin, '/api/admin/set-price-by-id', body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await log('&targetType=pricing')).length).toBe(1);
  });

  it('set-promo-code-by-id: saving a code unchanged writes no row and leaves its last editor as it was', async () => {
    const created = await post(admin, '/api/admin/set-promo-code-by-id', {
      code: 'SPRING-26',
      amountCents: 1000,
      maxUses: 5,
      expiresAt: '2099-12-31',
      active: true,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().promoCode.id as string;
    const other = await asAdmin(ctx);
    // The same fields as the form shows them (the code in lower case, the expiry as the day it is).
    const same = { id, code: 'spring-26', amountCents: 1000, maxUses: 5, expiresAt: '2099-12-31', active: true };
    const saved = await post(other, '/api/admin/set-promo-code-by-id', same);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(created.json());
    expect((await log('&targetType=promo_code')).map((r) => r.action)).toEqual(['promo_code.create']);
    const authors = await ctx.app.deps.db.selectFrom('promo_codes').select(['created_by', 'updated_by']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(authors).toEqual({ created_by: admin.id, updated_by: null });
    // Not made an editor by a save that changed nothing, the other admin may redeem it.
    expect((await post(other, '/api/add-promo-code-to-promo-wallet', { code: 'SPRING-26' })).statusCode).toBe(200);
    // A real change is still written and audited.
    expect((await post(other, '/api/admin/set-promo-code-by-id', { ...same, maxUses: 6 })).statusCode).toBe(200);
    expect((await log('&targetType=promo_code')).map((r) => r.action)).toEqual(['promo_code.update', 'promo_code.create']);
  });

  it('update-textbelt-token-by-id: saving the same key again writes no row and answers the same', async () => {
    const current = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-textbelt-token', headers: { cookie: admin.cookie } });
    const id = current.json().id as number;
    const put = (token: string) =>
      ctx.app.inject({ method: 'PUT', url: `/api/admin/update-textbelt-token-by-id/${id}`, headers: { cookie: admin.cookie }, payload: { token } });
    const first = await put('textbelt-key-abcdef123456');
    expect(first.statusCode).toBe(200);
    const again = await put(' textbelt-key-abcdef123456 ');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await log('&targetType=textbelt_token')).length).toBe(1);
    // Removed, then removed again: one more row.
    expect((await put('')).statusCode).toBe(200);
    expect((await put('')).statusCode).toBe(200);
    expect((await log('&targetType=textbelt_token')).length).toBe(2);
  });
});

describe('opening a place names the ads whose held terms it started', () => {
  /** A pending owner's ad, paid for and approved in `place` (its term held), then the owner approved while the place is closed. */
  async function heldIn(places: Place[], close: () => Promise<unknown>) {
    const master = await asMaster(ctx);
    const owner = await makeUser(ctx); // pending: an approved ad of theirs holds its term
    const ads = [];
    for (const place of places) {
      const ad = await postAd(ctx, owner, place);
      expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 5000))).statusCode).toBe(200);
      expect((await decide(ctx, admin, [ad.id], 'approve')).json()).toEqual({ updated: 1 });
      ads.push(ad);
    }
    await close();
    const approved = await post(master, '/api/master/update-user-status', { userId: owner.id, status: 'approved' });
    expect(approved.statusCode, approved.body).toBe(200);
    for (const ad of ads) expect(await heldOf(ad.id)).toBe(1); // still held: its place is closed
    ctx.clock.advance(60_000);
    return { owner, ads };
  }

  it('set-status-state-cities: enabling a state names them, those the owner set offline too', async () => {
    const [first, second] = [await placeIn(ctx, 'ny', 0), await placeIn(ctx, 'ny', 1)];
    const { owner, ads } = await heldIn([first, second], () => setPlaces({ stateId: 'ny', enabled: false }));
    const offline = await ctx.app.inject({
      method: 'PUT',
      url: `/api/update-ad-online-status/${ads[1].id}`,
      headers: { cookie: owner.cookie },
      payload: { online: false },
    });
    expect(offline.statusCode, offline.body).toBe(200);
    expect(await setPlaces({ stateId: 'ny', enabled: true })).toEqual({ updated: 1 });
    for (const ad of ads) expect(await heldOf(ad.id)).toBe(0); // the enable started them
    const [row] = await log('&action=state.status&targetId=ny');
    expect(row.after).toEqual({ enabled: true, adTermsStarted: expect.arrayContaining(ads.map((a) => a.id)) });
    expect((row.after as { adTermsStarted: string[] }).adTermsStarted).toHaveLength(2);
  });

  it('set-status-state-cities: enabling cities names, on each city’s row, the ads it started there', async () => {
    const [first, second, third] = [await placeIn(ctx, 'ny', 0), await placeIn(ctx, 'ny', 1), await placeIn(ctx, 'ny', 2)];
    const cityIds = [first.cityId, second.cityId, third.cityId];
    const { ads } = await heldIn([first, second], () => setPlaces({ stateId: 'ny', cityIds, enabled: false }));
    expect(await setPlaces({ stateId: 'ny', cityIds, enabled: true })).toEqual({ updated: 3 });
    const after = Object.fromEntries(
      (await log('&action=city.status')).filter((r) => (r.after as { enabled: boolean }).enabled).map((r) => [r.targetId, r.after]),
    );
    expect(after).toEqual({
      [first.cityId]: { enabled: true, stateId: 'ny', adTermsStarted: [ads[0].id] },
      [second.cityId]: { enabled: true, stateId: 'ny', adTermsStarted: [ads[1].id] },
      [third.cityId]: { enabled: true, stateId: 'ny' }, // none held there: nothing to name
    });
  });

  it('set-status-state-cities: enabling a state that starts no term names none', async () => {
    await setPlaces({ stateId: 'ny', enabled: false });
    await setPlaces({ stateId: 'ny', enabled: true });
    const [row] = await log('&action=state.status&targetId=ny');
    expect(row.after).toEqual({ enabled: true });
  });
});
