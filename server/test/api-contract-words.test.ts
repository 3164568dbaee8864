import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asMaster, createTestApp, makeUser, rawInject, type TestContext, type TestUser } from './harness.ts';
import { decide, fundedUsd, liveAd, pay, placeIn, postAd, type Place } from '../modules/ads/ads.testkit.ts';

// PRODUCT §7 (API) as it writes its routes: the owner's and staff's view of an ad, routes listed
// without a body, and `?isAll=` on the location lists.

let ctx: TestContext;
let owner: TestUser;
let master: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  master = await asMaster(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

const getAd = (id: string, user?: TestUser) => ctx.app.inject({ method: 'GET', url: `/api/ads/${id}`, headers: user ? { cookie: user.cookie } : {} });

describe('GET /api/ads/:id: "Owner and staff views add ownerId, rejectionReason"', () => {
  async function rejectedAd(reason: string) {
    const ad = await postAd(ctx, owner, ny);
    expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
    expect((await decide(ctx, master, [ad.id], 'reject', reason)).json()).toEqual({ updated: 1 });
    return ad;
  }

  it('gives the owner and staff a rejected ad with ownerId and the rejection reason; anyone else 404', async () => {
    const ad = await rejectedAd('Photos show another person');
    const other = await makeUser(ctx, { status: 'approved' });
    for (const viewer of [owner, master]) {
      const res = await getAd(ad.id, viewer);
      expect(res.statusCode).toBe(200);
      expect({ ownerId: res.json().ad.ownerId, rejectionReason: res.json().ad.rejectionReason }).toEqual({
        ownerId: owner.id,
        rejectionReason: 'Photos show another person',
      });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await getAd(ad.id, other)).statusCode).toBe(404);
    expect((await getAd(ad.id)).statusCode).toBe(404);
  });

  it('gives the owner their view of a live ad even once the public answer is kept; the public answer carries neither field', async () => {
    const ad = await liveAd(ctx, owner, master, ny);
    const other = await makeUser(ctx, { status: 'approved' });
    // Asked for twice by guests: the public answer is kept (from its second asking on).
    const first = await getAd(ad.id);
    const second = await getAd(ad.id);
    expect(second.body).toBe(first.body);
    expect('ownerId' in first.json().ad || 'rejectionReason' in first.json().ad).toBe(false);
    const api = ctx.app.deps.services.listings.caches.get('api')!;
    const hits = api.stats.hits;
    expect((await getAd(ad.id)).body).toBe(first.body);
    expect(api.stats.hits).toBe(hits + 1); // kept

    const own = await getAd(ad.id, owner);
    expect({ ownerId: own.json().ad.ownerId, rejectionReason: own.json().ad.rejectionReason }).toEqual({ ownerId: owner.id, rejectionReason: null });
    const staff = await getAd(ad.id, master);
    expect(staff.json().ad.ownerId).toBe(owner.id);
    // Another provider signed in sees the public view, byte for byte.
    const others = await getAd(ad.id, other);
    expect(others.body).toBe(first.body);
    // The owner's view was not kept: a guest still gets the public answer.
    expect((await getAd(ad.id)).body).toBe(first.body);
  });
});

describe('routes §7 lists without a body take a POST without one', () => {
  const post = (url: string, user: TestUser, extra: { payload?: string; headers?: Record<string, string> } = {}) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { cookie: user.cookie, ...extra.headers },
      ...(extra.payload !== undefined ? { payload: extra.payload } : {}),
    });

  it('creates the promo wallet on a POST without a body', async () => {
    const res = await post('/api/create-promo-wallet', owner);
    expect({ status: res.statusCode, walletType: res.json().wallet?.walletType }).toEqual({ status: 200, walletType: 'XG-PROMO-WALLET' });
    // Idempotent, with `{}` as before.
    const again = await post('/api/create-promo-wallet', owner, { payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(again.json().wallet.id).toBe(res.json().wallet.id);
  });

  it('runs the staff actions listed without a body (run-health-check, refresh-textbelt-statuses)', async () => {
    const health = await post('/api/admin/run-health-check', master);
    expect(health.statusCode, health.body).toBe(200);
    expect(Array.isArray(health.json().healthChecks)).toBe(true);
    const sms = await post('/api/admin/refresh-textbelt-statuses', master);
    expect({ status: sms.statusCode, body: sms.json() }).toEqual({ status: 200, body: { checked: 0, updated: 0, failed: 0 } });
  });

  it('still refuses unknown fields, bodies that are not JSON, and cross-site requests', async () => {
    const json = { 'content-type': 'application/json' };
    const unknown = await post('/api/create-promo-wallet', owner, { payload: '{"amountCents":500}', headers: json });
    expect({ status: unknown.statusCode, code: unknown.json().code }).toEqual({ status: 400, code: 'validation.unknown_field' });
    const broken = await post('/api/create-promo-wallet', owner, { payload: 'nope', headers: json });
    expect({ status: broken.statusCode, code: broken.json().code }).toEqual({ status: 400, code: 'request.invalid_json' });
    const empty = await post('/api/create-promo-wallet', owner, { payload: '', headers: json });
    expect({ status: empty.statusCode, code: empty.json().code }).toEqual({ status: 400, code: 'request.invalid_json' });
    const array = await post('/api/create-promo-wallet', owner, { payload: '[]', headers: json });
    expect(array.statusCode).toBe(400);
    const text = await post('/api/create-promo-wallet', owner, { payload: 'hi', headers: { 'content-type': 'text/plain' } });
    expect({ status: text.statusCode, code: text.json().code, field: text.json().params?.field }).toEqual({
      status: 400,
      code: 'validation.invalid',
      field: 'body',
    });
    const crossSite = await rawInject(ctx.app, {
      method: 'POST',
      url: '/api/create-promo-wallet',
      headers: { cookie: owner.cookie, origin: 'https://elsewhere.example' },
    });
    expect({ status: crossSite.statusCode, code: crossSite.json().code }).toEqual({ status: 403, code: 'request.cross_site' });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/all-wallets-by-user', headers: { cookie: owner.cookie } })).json().wallets).toHaveLength(1);
  });
});

describe('GET /api/states-from-country?isAll= and /api/cities-from-state/:id?isAll=', () => {
  const get = (url: string, user?: TestUser) => ctx.app.inject({ method: 'GET', url, headers: user ? { cookie: user.cookie } : {} });

  it('answers the URL written in the contract (an empty isAll) with the enabled places, to guests and staff alike', async () => {
    for (const url of ['/api/states-from-country?isAll=', '/api/states-from-country?isAll']) {
      const res = await get(url);
      expect({ url, status: res.statusCode, states: res.json().states?.length }).toEqual({ url, status: 200, states: 51 });
    }
    const cities = (await get('/api/cities-from-state/ny')).json().cities;
    for (const url of ['/api/cities-from-state/ny?isAll=', '/api/cities-from-state/ny?isAll']) {
      const res = await get(url);
      expect({ url, status: res.statusCode, cities: res.json().cities }).toEqual({ url, status: 200, cities });
    }
    // An empty isAll is false: staff get the enabled states only; true adds the disabled one.
    const off = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-status-state-cities',
      headers: { cookie: master.cookie },
      payload: { stateId: 'wy', enabled: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await get('/api/states-from-country?isAll=', master)).json().states).toHaveLength(50);
    expect((await get('/api/states-from-country?isAll=true', master)).json().states).toHaveLength(51);
  });

  it('still refuses other values, and isAll=true to guests', async () => {
    for (const url of ['/api/states-from-country?isAll=yes', '/api/states-from-country?isAll=1', '/api/cities-from-state/ny?isAll=no']) {
      const res = await get(url);
      expect({ url, status: res.statusCode, code: res.json().code, field: res.json().params?.field }).toEqual({
        url,
        status: 400,
        code: 'validation.invalid',
        field: 'isAll',
      });
    }
    expect((await get('/api/states-from-country?isAll=true')).statusCode).toBe(401);
    expect((await get('/api/cities-from-state/ny?isAll=true', owner)).statusCode).toBe(403);
  });
});
