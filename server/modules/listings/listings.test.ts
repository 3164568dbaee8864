import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { expireAds } from '../ads/ads.expiry.ts';
import { fundedUsd, liveAd, ownerAdminNy, pay, type Place, placeIn, postAd } from '../ads/ads.testkit.ts';
import type { AggregateLocation } from '../../../contract/api/listings.ts';

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ({ ctx, owner, admin, ny } = await ownerAdminNy());
});
afterEach(async () => {
  // the trigger-kept counters always equal a fresh count of visible ads
  const sqlite = ctx.app.deps.database.sqlite;
  const kept = sqlite.prepare('SELECT city_id, listing_type, n FROM ads_public_counts WHERE n <> 0 ORDER BY 1, 2').all();
  const fresh = sqlite.prepare('SELECT city_id, listing_type, count(*) AS n FROM ads WHERE visible = 1 GROUP BY 1, 2 ORDER BY 1, 2').all();
  expect(kept).toEqual(fresh);
  const fts = sqlite.prepare('SELECT count(*) AS n FROM ads_fts').get();
  expect(fts).toEqual(sqlite.prepare('SELECT count(*) AS n FROM ads WHERE visible = 1').get());
  await ctx.close();
});

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
/** Ids on a listing page; a page that does not exist (404 for a disabled place) shows nothing. */
const ids = (res: { statusCode: number; json(): { ads: { id: string }[] } }) => (res.statusCode === 200 ? res.json().ads.map((a) => a.id) : []);

/** Every public way of seeing an ad: detail, city listing, state listing, search, aggregate, home. */
async function publiclySeen(adId: string, place: Place, word = 'companion'): Promise<boolean[]> {
  const detail = (await get(`/api/ads/${adId}`)).statusCode === 200;
  const city = ids(await get(`/api/listings?state=${place.stateSlug}&city=${place.citySlug}&type=female-escorts`)).includes(adId);
  const state = ids(await get(`/api/listings?state=${place.stateSlug}`)).includes(adId);
  const search = ids(await get(`/api/search?query=${word}`)).includes(adId);
  const locations: AggregateLocation[] = (await get('/api/users-ads-aggregate/us/female_esc')).json().locations;
  const agg = locations.some((l) => l.cityId === place.cityId);
  // The country page's numbers by state are its cities' numbers summed, whatever just changed.
  expect((await get('/api/users-ads-aggregate/us/female_esc/states')).json().states).toEqual(byStateOf(locations));
  const home = (await get('/api/home')).json().types.find((t: { listingType: string }) => t.listingType === 'female_esc').count > 0;
  return [detail, city, state, search, agg, home];
}
/** The model of the states endpoint: the cities' numbers summed by state, most first (ties by name). */
function byStateOf(locations: readonly AggregateLocation[]): { stateId: string; stateSlug: string; count: number }[] {
  const m = new Map<string, { stateId: string; stateSlug: string; name: string; count: number }>();
  for (const l of locations) {
    const s = m.get(l.stateId) ?? { stateId: l.stateId, stateSlug: l.stateSlug, name: l.stateName, count: 0 };
    s.count += l.count;
    m.set(l.stateId, s);
  }
  return [...m.values()]
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
    .map(({ stateId, stateSlug, count }) => ({ stateId, stateSlug, count }));
}
const ALL = [true, true, true, true, true, true];
const NONE = [false, false, false, false, false, false];

describe('public visibility', () => {
  it('shows an approved, online, running ad of an approved owner everywhere, without owner fields', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    expect(await publiclySeen(ad.id, ny)).toEqual(ALL);
    const detail = (await get(`/api/ads/${ad.id}`)).json().ad;
    expect(detail).toMatchObject({ id: ad.id, status: 'approved', online: true, state: { id: 'ny', slug: 'new-york' }, city: { slug: ny.citySlug } });
    expect(Object.keys(detail)).not.toContain('ownerId');
    expect(JSON.stringify(detail)).not.toContain(owner.email);
    expect((await get('/api/home')).json().topStates[0]).toEqual({ stateId: 'ny', slug: 'new-york', name: 'New York', count: 1 });
    expect((await get('/api/users-ads-aggregate/us/female-escorts')).json().locations).toEqual([
      { stateId: 'ny', stateSlug: 'new-york', stateName: 'New York', cityId: ny.cityId, citySlug: ny.citySlug, cityName: expect.any(String), count: 1 },
    ]);
  });

  it('guests never see unpaid, in-review, rejected or disabled ads', async () => {
    const unpaid = await postAd(ctx, owner, ny);
    const review = await postAd(ctx, owner, ny);
    await pay(ctx, owner, review.id, await fundedUsd(ctx, owner, 3000));
    const rejected = await postAd(ctx, owner, ny);
    await pay(ctx, owner, rejected.id, await fundedUsd(ctx, owner, 0));
    await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/approve-pending-ads',
      headers: { cookie: admin.cookie },
      payload: { adIds: [rejected.id], decision: 'reject', reason: 'no' + 'pe' },
    });
    const disabled = await liveAd(ctx, owner, admin, ny);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/set-status-approved-ads',
      headers: { cookie: admin.cookie },
      payload: { adIds: [disabled.id], status: 'disabled' },
    });
    for (const ad of [unpaid, review, rejected, disabled]) expect(await publiclySeen(ad.id, ny), ad.id).toEqual(NONE);
    // the owner and staff may still open them
    expect((await get(`/api/ads/${unpaid.id}`, owner.cookie)).statusCode).toBe(200);
    expect((await get(`/api/ads/${review.id}`, admin.cookie)).statusCode).toBe(200);
    const stranger = await makeUser(ctx);
    expect((await get(`/api/ads/${review.id}`, stranger.cookie)).statusCode).toBe(404);
  });

  it('guests never see offline or expired ads', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${ad.id}`, headers: { cookie: owner.cookie }, payload: { online: false } });
    expect(await publiclySeen(ad.id, ny)).toEqual(NONE);
    await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${ad.id}`, headers: { cookie: owner.cookie }, payload: { online: true } });
    expect(await publiclySeen(ad.id, ny)).toEqual(ALL);
    ctx.clock.advance(30 * DAY_MS + 1);
    // expired by time: gone from the ad, the lists and search at once, before any cron run ...
    expect((await publiclySeen(ad.id, ny)).slice(0, 4)).toEqual(NONE.slice(0, 4));
    // ... and from the location counts when the hourly expire-ads job has run
    await expireAds(ctx.app.deps);
    expect(await publiclySeen(ad.id, ny)).toEqual(NONE);
  });

  it('guests never see ads of suspended, pending or deleted owners, or in disabled places', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const setUser = async (v: object) => ctx.app.deps.db.updateTable('users').set(v).where('id', '=', owner.id).execute();
    await setUser({ status: 'suspended' });
    expect(await publiclySeen(ad.id, ny)).toEqual(NONE);
    await setUser({ status: 'pending' });
    expect(await publiclySeen(ad.id, ny)).toEqual(NONE);
    await setUser({ status: 'approved' });
    expect(await publiclySeen(ad.id, ny)).toEqual(ALL);
    await ctx.app.deps.db.updateTable('cities').set({ enabled: 0 }).where('id', '=', ny.cityId).execute();
    expect(await publiclySeen(ad.id, ny)).toEqual(NONE);
    expect((await get(`/api/listings?state=new-york&city=${ny.citySlug}`)).statusCode).toBe(404);
    await ctx.app.deps.db.updateTable('cities').set({ enabled: 1 }).where('id', '=', ny.cityId).execute();
    await ctx.app.deps.db.updateTable('states').set({ enabled: 0 }).where('id', '=', 'ny').execute();
    expect(await publiclySeen(ad.id, ny)).toEqual(NONE);
    await ctx.app.deps.db.updateTable('states').set({ enabled: 1 }).where('id', '=', 'ny').execute();
    expect(await publiclySeen(ad.id, ny)).toEqual(ALL);
    await setUser({ deleted_at: ctx.clock.now().toISOString() });
    expect(await publiclySeen(ad.id, ny)).toEqual(NONE);
  });

  it('an ad of a pending owner can be approved but is published only when the owner is approved', async () => {
    const pendingOwner = await makeUser(ctx); // status pending
    const ad = await liveAd(ctx, pendingOwner, admin, ny);
    expect((await get(`/api/ads/${ad.id}`, pendingOwner.cookie)).json().ad.status).toBe('approved');
    expect(await publiclySeen(ad.id, ny)).toEqual(NONE);
    await ctx.app.deps.db.updateTable('users').set({ status: 'approved' }).where('id', '=', pendingOwner.id).execute();
    expect(await publiclySeen(ad.id, ny)).toEqual(ALL);
  });
});

describe('listings and search', () => {
  it('lists newest bump first, paginated, with type and place filters', async () => {
    const la = await placeIn(ctx, 'ca');
    const a = await liveAd(ctx, owner, admin, ny);
    ctx.clock.advance(60_000);
    const b = await liveAd(ctx, owner, admin, ny, { listingType: 'female_rub' });
    ctx.clock.advance(60_000);
    const c = await liveAd(ctx, owner, admin, la);
    expect(ids(await get('/api/listings'))).toEqual([c.id, b.id, a.id]);
    expect(ids(await get('/api/listings?state=new-york'))).toEqual([b.id, a.id]);
    expect(ids(await get('/api/listings?type=female_esc'))).toEqual([c.id, a.id]);
    expect(ids(await get(`/api/listings?state=new-york&city=${ny.citySlug}&type=female-bodyrubs`))).toEqual([b.id]);
    const p2 = (await get('/api/listings?page=2&pageSize=2')).json();
    expect(p2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(p2.ads.map((x: { id: string }) => x.id)).toEqual([a.id]);
    // a bump moves an ad to the top of every list and of search
    ctx.clock.advance(120_000);
    const wallet = await fundedUsd(ctx, owner, 300);
    expect(
      (await ctx.app.inject({ method: 'PUT', url: `/api/bump-ad/${a.id}`, headers: { cookie: owner.cookie }, payload: { walletId: wallet } })).statusCode,
    ).toBe(200);
    expect(ids(await get('/api/listings'))).toEqual([a.id, c.id, b.id]);
    expect(ids(await get('/api/search?query=companion'))).toEqual([a.id, c.id, b.id]);
  });

  it('counts a type by state for the country page: its cities summed, most first, in step with changes', async () => {
    const la = await placeIn(ctx, 'ca');
    await liveAd(ctx, owner, admin, la);
    const a = await liveAd(ctx, owner, admin, ny);
    await liveAd(ctx, owner, admin, ny);
    await liveAd(ctx, owner, admin, la, { listingType: 'female_rub' });
    const states = async (type: string) => (await get(`/api/users-ads-aggregate/us/${type}/states`)).json().states;
    expect(await states('female-escorts')).toEqual([
      { stateId: 'ny', stateSlug: 'new-york', count: 2 },
      { stateId: 'ca', stateSlug: la.stateSlug, count: 1 },
    ]);
    expect(await states('female_rub')).toEqual([{ stateId: 'ca', stateSlug: la.stateSlug, count: 1 }]);
    expect(await states('shemale_esc')).toEqual([]);
    // An ad going offline is counted out at once (the kept answer is dropped); ties go by the state's name.
    await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${a.id}`, headers: { cookie: owner.cookie }, payload: { online: false } });
    expect(await states('female_esc')).toEqual([
      { stateId: 'ca', stateSlug: la.stateSlug, count: 1 },
      { stateId: 'ny', stateSlug: 'new-york', count: 1 },
    ]);
  });

  it('refuses bad parameters: 404 for unknown places, 400 naming the field otherwise', async () => {
    const answer = async (url: string) => {
      const res = await get(url);
      return { status: res.statusCode, ...res.json() };
    };
    expect(await answer('/api/listings?state=atlantis')).toEqual({ status: 404, code: 'listings.unknown_state', message: 'Unknown state.' });
    expect(await answer('/api/listings?state=new-york&city=atlantis')).toEqual({ status: 404, code: 'listings.unknown_city', message: 'Unknown city.' });
    expect(await answer('/api/listings?type=dogs')).toEqual({
      status: 400,
      code: 'listings.unknown_listing_type',
      message: 'Unknown listing type.',
      params: { field: 'type' },
    });
    expect(await answer('/api/listings?city=brooklyn')).toEqual({
      status: 400,
      code: 'listings.city_needs_state',
      message: 'A city needs its state.',
      params: { field: 'state' },
    });
    expect(await answer('/api/listings?pageSize=500')).toMatchObject({ status: 400, code: 'validation.invalid', params: { field: 'pageSize' } });
    expect(await answer('/api/listings?page=1000&pageSize=100')).toEqual({
      status: 400,
      code: 'listings.page_too_far',
      message: 'This page is too far back. Narrow the search instead.',
      params: { field: 'page' },
    });
    expect(await answer('/api/users-ads-aggregate/us/dogs')).toEqual({ status: 404, code: 'listings.unknown_listing_type', message: 'Unknown listing type.' });
    expect(await answer('/api/users-ads-aggregate/us/dogs/states')).toEqual({
      status: 404,
      code: 'listings.unknown_listing_type',
      message: 'Unknown listing type.',
    });
    for (const q of ['', 'query=', 'query=%20%20', 'query=%21%21%21']) {
      expect(await answer(`/api/search?${q}`), q).toEqual({
        status: 400,
        code: 'validation.search_required',
        message: 'You must enter search criteria',
        params: { field: 'query' },
      });
    }
    expect(await answer(`/api/search?query=${'a'.repeat(201)}`)).toMatchObject({ status: 400, code: 'validation.search_too_long', params: { field: 'query' } });
    // search counts up to 200 matches (SEARCH_COUNT_CAP): 10 pages of 20
    expect(await answer('/api/search?query=x&page=11')).toMatchObject({ status: 400, code: 'listings.page_too_far' });
  });

  it('searches title, description, city and state, with type and state filters, in step with changes', async () => {
    const la = await placeIn(ctx, 'ca');
    const a = await liveAd(ctx, owner, admin, ny, {
      title: 'Elegant redhead companion',
      description: 'Fluent in French and Italian. Dinner dates and travel, by appointment only, discreet.',
    });
    ctx.clock.advance(60_000);
    const b = await liveAd(ctx, owner, admin, la, {
      listingType: 'female_rub',
      title: 'Relaxing massage studio',
      description: 'Swedish and deep tissue massage in a calm studio, by appointment only. Clean and quiet.',
    });
    expect(ids(await get('/api/search?query=redhead'))).toEqual([a.id]);
    expect(ids(await get('/api/search?query=FRENCH%20italian'))).toEqual([a.id]);
    expect(ids(await get('/api/search?query=french%20massage'))).toEqual([]);
    expect(ids(await get('/api/search?query=appointment'))).toEqual([b.id, a.id]);
    expect(ids(await get('/api/search?query=appointment&type=female_rub'))).toEqual([b.id]);
    expect(ids(await get('/api/search?query=appointment&state=new-york'))).toEqual([a.id]);
    expect(ids(await get('/api/search?query=california'))).toEqual([b.id]);
    const cityName = (await get(`/api/ads/${a.id}`)).json().ad.city.name as string;
    expect(ids(await get(`/api/search?query=${encodeURIComponent(cityName)}`))).toContain(a.id);
    // operators typed by a user are just words
    expect((await get('/api/search?query=redhead%20OR%20NEAR(x)%20*%20%22')).statusCode).toBe(200);
    // moving the ad moves it in search
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/update-ad-location/${a.id}`,
      headers: { cookie: owner.cookie },
      payload: { stateId: la.stateId, cityId: la.cityId },
    });
    expect(ids(await get('/api/search?query=redhead&state=california'))).toEqual([a.id]);
    expect(ids(await get('/api/search?query=redhead&state=new-york'))).toEqual([]);
    const page = (await get('/api/search?query=appointment&pageSize=1&page=2')).json();
    expect(page).toMatchObject({ total: 2, page: 2, pageSize: 1 });
  });

  it('finds a word typed with combining marks, invisible characters or a dotted capital I', async () => {
    const a = await liveAd(ctx, owner, admin, ny, {
      title: 'Se\u00f1orita from Istanbul',
      description: 'Elegant and discreet companion, by appointment only. \uc11c\uc6b8 \u304c\u3063\u3053\u3046 spoken too.',
    });
    const found = async (query: string) => ids(await get(`/api/search?query=${encodeURIComponent(query)}`));
    for (const query of [
      'se\u00f1orita',
      'sen\u0303orita', // n and a combining tilde
      'se\u00adnorita', // soft hyphen
      'se\u200bnorita', // zero-width space
      'se\u2060norita', // word joiner
      '\u0130stanbul', // İ, whose lower case is i and a combining dot above
      'ISTANBUL',
      '\uc11c\uc6b8', // Korean and Japanese words are matched as they are written
      '\u304c\u3063\u3053\u3046',
    ]) {
      expect(await found(query), JSON.stringify(query)).toEqual([a.id]);
      expect(await found(query), `${JSON.stringify(query)} again (kept answer)`).toEqual([a.id]);
    }
    // A kept answer goes when a matching ad arrives: the cache tests the words folded as it folds the ad's text.
    ctx.clock.advance(60_000);
    const b = await liveAd(ctx, owner, admin, ny, {
      title: 'SEN\u0303ORITA NEW IN ISTANBUL',
      description: 'Discreet companion for dinner dates, by appointment only. \uc11c\uc6b8 \u304c\u3063\u3053\u3046 too.',
    });
    for (const query of ['sen\u0303orita', 'se\u00adnorita', 'se\u200bnorita', '\u0130stanbul', '\uc11c\uc6b8', '\u304c\u3063\u3053\u3046']) {
      expect(await found(query), JSON.stringify(query)).toEqual([b.id, a.id]);
    }
  });
});

describe('report an ad', () => {
  it('stores a report for staff; refuses unknown ads and short messages', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/report-ad/${ad.id}`,
      payload: { message: 'This person looks under age to me.', contact: null },
    });
    expect(res.statusCode, res.body).toBe(201);
    const rows = await ctx.app.deps.db.selectFrom('reports').selectAll().execute();
    // Its text names a minor: filed as an urgent trafficking tip about the ad (screening-evasion.test.ts).
    expect(rows).toEqual([expect.objectContaining({ kind: 'trafficking', ad_id: ad.id, status: 'open', message: 'This person looks under age to me.' })]);
    const unknown = await ctx.app.inject({ method: 'POST', url: '/api/report-ad/nope', payload: { message: 'Something is wrong here.' } });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { code: 'listings.ad_not_found', message: 'Ad not found.' }]);
    const short = await ctx.app.inject({ method: 'POST', url: `/api/report-ad/${ad.id}`, payload: { message: 'bad' } });
    expect([short.statusCode, short.json()]).toEqual([
      400,
      { code: 'reports.message_too_short', message: 'Message must be at least 10 characters.', params: { field: 'message', min: 10 } },
    ]);
    expect(await ctx.app.deps.db.selectFrom('reports').selectAll().execute()).toHaveLength(1);
  });

  it("shares the hourly allowance with the other reports, an IPv6 sender's by its /64 (10 an hour, as in service)", async () => {
    await ctx.close();
    ctx = await createTestApp({ limits: { reportsPerHour: 10 } });
    owner = await makeUser(ctx, { status: 'approved' });
    admin = await asAdmin(ctx);
    ny = await placeIn(ctx, 'ny');
    const ad = await liveAd(ctx, owner, admin, ny);
    // Each from another address of one /64: one subscriber holds all of them. Each in other words:
    // a repeat of an open report is answered with it, not filed again (reports.submit.test.ts).
    const report = (i: number, url = `/api/report-ad/${ad.id}`) =>
      ctx.app.inject({
        method: 'POST',
        url,
        payload: { message: `Something is wrong with this ad (${i}).` },
        remoteAddress: `2001:db8:1:2::${i.toString(16)}`,
      });
    const general = (i: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/reports',
        payload: { kind: 'trafficking', message: 'A tip about a suspicious ad.' },
        remoteAddress: `2001:db8:1:2:${i.toString(16)}::1`,
      });
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push((await report(i)).statusCode, (await general(i)).statusCode);
    statuses.push((await report(99)).statusCode, (await general(99)).statusCode);
    expect(statuses).toEqual([...Array<number>(10).fill(201), 429, 429]);
    const other = await ctx.app.inject({
      method: 'POST',
      url: `/api/report-ad/${ad.id}`,
      payload: { message: 'Something is wrong with this ad.' },
      remoteAddress: '2001:db8:1:3::1',
    });
    expect(other.statusCode).toBe(201); // the next /64 is someone else
    expect(await ctx.app.deps.db.selectFrom('reports').selectAll().execute()).toHaveLength(11);
  });
});
