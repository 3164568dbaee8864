import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asMaster, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { expireAds } from './ads.expiry.ts';
import { adForm, decide, fundedUsd, goodFields, liveAd, ownerAdminNy, pay, placeIn, postAd, type Place } from './ads.testkit.ts';

// What "my ads", the dashboard and the approval e-mail tell an owner about ads whose place staff
// closed or whose paid term is held (PRODUCT §2, §5): the truth, as the public sees it.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let master: TestUser;
let ny: Place;
beforeEach(async () => {
  ({ ctx, owner, admin, ny } = await ownerAdminNy({ env: { SESSION_DAYS: '365' } }));
  master = await asMaster(ctx);
});
afterEach(async () => ctx.close());

const get = (url: string, cookie?: string) => ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const post = (url: string, cookie: string, payload: object) => ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload });
const put = (url: string, cookie: string, payload: object) => ctx.app.inject({ method: 'PUT', url, headers: { cookie }, payload });

type OwnerAd = { id: string; status: string; expiresAt: string | null; shown: boolean; placeClosed: boolean; termHeld: boolean };
async function myAd(u: TestUser, id: string): Promise<OwnerAd> {
  const res = await get('/api/all-ads-by-user', u.cookie);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { approvedAds: OwnerAd[]; pendingAds: OwnerAd[] };
  return [...body.approvedAds, ...body.pendingAds].find((a) => a.id === id)!;
}
const overview = async (u: TestUser) => (await get('/api/my-ads-overview', u.cookie)).json() as { counts: Record<string, number>; online: number };
const setCity = (p: Place, enabled: boolean) => post('/api/admin/set-status-state-cities', master.cookie, { stateId: p.stateId, cityIds: [p.cityId], enabled });
const setState = (p: Place, enabled: boolean) => post('/api/admin/set-status-state-cities', master.cookie, { stateId: p.stateId, enabled });
const approveAccount = (u: TestUser) => post('/api/master/update-user-status', master.cookie, { userId: u.id, status: 'approved' });
const inDays = (days: number) => new Date(ctx.clock.now().getTime() + days * DAY_MS).toISOString();

describe('an ad whose city staff closed', () => {
  it('is told to its owner as not shown, its place closed, and is not counted online', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    expect(await myAd(owner, ad.id)).toMatchObject({ status: 'approved', shown: true, placeClosed: false, termHeld: false });
    expect((await overview(owner)).online).toBe(1);

    expect((await setCity(ny, false)).statusCode).toBe(200);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(404);
    expect(await myAd(owner, ad.id)).toMatchObject({ status: 'approved', shown: false, placeClosed: true, termHeld: false });
    expect(await overview(owner)).toMatchObject({ online: 0, counts: { approved: 1 } });

    expect((await setCity(ny, true)).statusCode).toBe(200);
    expect(await myAd(owner, ad.id)).toMatchObject({ shown: true, placeClosed: false });
  });

  it('does not count the online ads of an account not approved yet as online', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const ad = await liveAd(ctx, pending, admin, ny);
    expect(await myAd(pending, ad.id)).toMatchObject({ status: 'approved', shown: false, placeClosed: false, termHeld: true });
    expect(await overview(pending)).toMatchObject({ online: 0, counts: { approved: 1 } });
  });
});

describe('a held paid term', () => {
  it('does not start while its city is closed, and starts whole when staff open the city again', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const ad = await liveAd(ctx, pending, admin, ny);
    expect((await setCity(ny, false)).statusCode).toBe(200);
    const approved = await approveAccount(pending);
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(404);
    expect(await myAd(pending, ad.id)).toMatchObject({ status: 'approved', termHeld: true, placeClosed: true, shown: false });

    ctx.clock.advance(40 * DAY_MS); // past its nominal end: a held term cannot run out
    await expireAds(ctx.app.deps);
    expect(await myAd(pending, ad.id)).toMatchObject({ status: 'approved', termHeld: true });

    expect((await setCity(ny, true)).statusCode).toBe(200);
    expect(await myAd(pending, ad.id)).toMatchObject({ status: 'approved', termHeld: false, shown: true, expiresAt: inDays(30) });
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(200);
    ctx.clock.advance(29 * DAY_MS);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(200);
  });

  it('starts when staff open the closed state again, not while the city stays closed', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const ad = await liveAd(ctx, pending, admin, ny);
    expect((await setState(ny, false)).statusCode).toBe(200);
    expect((await setCity(ny, false)).statusCode).toBe(200);
    expect((await approveAccount(pending)).statusCode).toBe(200);
    ctx.clock.advance(5 * DAY_MS);
    expect((await setState(ny, true)).statusCode).toBe(200);
    expect(await myAd(pending, ad.id)).toMatchObject({ termHeld: true, placeClosed: true });
    ctx.clock.advance(5 * DAY_MS);
    expect((await setCity(ny, true)).statusCode).toBe(200);
    expect(await myAd(pending, ad.id)).toMatchObject({ termHeld: false, shown: true, expiresAt: inDays(30) });
  });

  it('starts when its approved owner moves the ad to an open city, and not while the owner is pending', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const ad = await liveAd(ctx, pending, admin, ny);
    const buffalo = await placeIn(ctx, 'ny', 1);
    const tx = await placeIn(ctx, 'tx');
    const move = (p: Place) => put(`/api/update-ad-location/${ad.id}`, pending.cookie, { stateId: p.stateId, cityId: p.cityId });
    expect((await setCity(ny, false)).statusCode).toBe(200);
    // Moved while its owner is pending: still held.
    const moved = await move(buffalo);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().ad).toMatchObject({ termHeld: true, placeClosed: false, shown: false });
    // Its new city closed too, the account approved: held where it shows nowhere.
    expect((await setCity(buffalo, false)).statusCode).toBe(200);
    expect((await approveAccount(pending)).statusCode).toBe(200);
    expect(await myAd(pending, ad.id)).toMatchObject({ termHeld: true, placeClosed: true });

    ctx.clock.advance(3 * DAY_MS);
    const again = await move(tx);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().ad).toMatchObject({ status: 'approved', termHeld: false, shown: true, expiresAt: inDays(30) });
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(200);
  });

  it('is never expired for a pending owner: my ads and the dashboard keep it approved, and approval starts it whole', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const ad = await liveAd(ctx, pending, admin, ny, { title: 'Held term ad, waiting owner' });
    ctx.clock.advance(31 * DAY_MS);
    expect(await overview(pending)).toMatchObject({ counts: { approved: 1, expired: 0 } }); // before the job, as after it
    await expireAds(ctx.app.deps);
    const row = await ctx.app.deps.db.selectFrom('ads').select(['status', 'term_held']).where('id', '=', ad.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'approved', term_held: 1 });
    expect(await myAd(pending, ad.id)).toMatchObject({ status: 'approved', termHeld: true });
    expect(await overview(pending)).toMatchObject({ counts: { approved: 1, expired: 0 } });
    // Staff's list tells it the same way (it says "expired" as of now only of terms that ran)
    const staff = (await get('/api/admin/get-approved-ads', admin.cookie)).json().approvedAds as OwnerAd[];
    expect(staff.find((a) => a.id === ad.id)).toMatchObject({ status: 'approved', termHeld: true });

    expect((await approveAccount(pending)).statusCode).toBe(200);
    expect(await myAd(pending, ad.id)).toMatchObject({ status: 'approved', termHeld: false, shown: true, expiresAt: inDays(30) });
  });

  it('answers the public 404, not 410, past its nominal end: the ad is not gone, it comes back whole', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const ad = await liveAd(ctx, pending, admin, ny);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(404);
    ctx.clock.advance(31 * DAY_MS);
    await expireAds(ctx.app.deps);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(404); // the ad page's status is this read's (site.source.ts)

    expect((await approveAccount(pending)).statusCode).toBe(200);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(200); // the kept 404 went with the term's start
    ctx.clock.advance(31 * DAY_MS);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(410); // a started term runs out as any other
  });

  // An approved edit that takes a held ad out of its closed city shows it: its paid term starts then,
  // as a move's does. It used to show with its term still held, and a free move after its 30 days
  // started the whole term again: a second term for one payment.
  it('starts when staff approve an edit that takes the ad to an open city, and a later move starts nothing more', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const ad = await liveAd(ctx, pending, admin, ny);
    const [ny2, ny3] = [await placeIn(ctx, 'ny', 1), await placeIn(ctx, 'ny', 2)];
    expect((await setCity(ny, false)).statusCode).toBe(200);
    expect((await approveAccount(pending)).statusCode).toBe(200);
    const photos = ((await get(`/api/ads/${ad.id}`, pending.cookie)).json().ad.photos as { url: string }[]).map((p) => p.url);
    const edited = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${ad.id}`,
      headers: { cookie: pending.cookie },
      payload: adForm({ ...goodFields(ny2, { title: 'Elegant companion uptown' }), keepPhotos: JSON.stringify(photos) }, []),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    ctx.clock.advance(DAY_MS);
    expect((await decide(ctx, admin, [edited.json().ad.revision.id], 'approve')).json()).toEqual({ updated: 1 });
    expect(await myAd(pending, ad.id)).toMatchObject({ status: 'approved', termHeld: false, shown: true, expiresAt: inDays(30) });
    const audit = await ctx.app.deps.db.selectFrom('audit_log').select('after_json').where('action', '=', 'ad.revision_approve').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after_json!)).toMatchObject({ termStarted: true, expiresAt: inDays(30) });

    ctx.clock.advance(31 * DAY_MS);
    await expireAds(ctx.app.deps);
    expect((await put(`/api/update-ad-location/${ad.id}`, pending.cookie, { stateId: ny3.stateId, cityId: ny3.cityId })).statusCode).toBe(200);
    expect(await myAd(pending, ad.id)).toMatchObject({ status: 'expired', shown: false });
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(410);
  });

  it('is enabled again by staff past its nominal end as approved, still held, and starts whole with its owner', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    const ad = await liveAd(ctx, pending, admin, ny);
    const staffStatus = (status: string) => post('/api/admin/set-status-approved-ads', admin.cookie, { adIds: [ad.id], status });
    expect((await staffStatus('disabled')).json()).toEqual({ updated: 1 });
    ctx.clock.advance(31 * DAY_MS);
    expect((await staffStatus('approved')).json()).toEqual({ updated: 1 });
    expect(await myAd(pending, ad.id)).toMatchObject({ status: 'approved', termHeld: true });

    expect((await approveAccount(pending)).statusCode).toBe(200);
    expect(await myAd(pending, ad.id)).toMatchObject({ status: 'approved', termHeld: false, shown: true, expiresAt: inDays(30) });
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(200);
  });
});

describe('the account-approved e-mail', () => {
  it('lists under "Showing from today" only the ads that show, and tells the offline ones apart', async () => {
    const pending = await makeUser(ctx, { status: 'pending' });
    await liveAd(ctx, pending, admin, ny, { title: 'Online ad of a pending owner' });
    const ad = await postAd(ctx, pending, ny, { title: 'Offline ad of a pending owner' });
    expect((await pay(ctx, pending, ad.id, await fundedUsd(ctx, pending, 1500))).statusCode).toBe(200);
    expect((await put(`/api/update-ad-online-status/${ad.id}`, pending.cookie, { online: false })).statusCode).toBe(200);
    expect((await decide(ctx, admin, [ad.id], 'approve')).json()).toEqual({ updated: 1 });

    expect((await approveAccount(pending)).statusCode).toBe(200);
    expect((await get(`/api/ads/${ad.id}`)).statusCode).toBe(404);
    const mail = ctx.mailer.sent.find((m) => m.to === pending.email && /account is approved/.test(m.subject))!;
    expect(mail.text).toMatch(/Showing from today, for their whole paid term: “Online ad of a pending owner”\.\n/);
    expect(mail.text).toMatch(/you set them offline \(set them online in My ads to show them\): “Offline ad of a pending owner”\.\n/);
    expect(await myAd(pending, ad.id)).toMatchObject({ termHeld: false, shown: false, expiresAt: inDays(30) });
  });
});
