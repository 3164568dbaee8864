import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, decide, expiredAd, fundedUsd, goodFields, liveAd, pay, placeIn, postAd, type Place } from '../ads/ads.testkit.ts';
import { getAs, postAs } from './moderation.testkit.ts';

let ctx: TestContext;
let admin: TestUser;
let master: TestUser;
let place: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
  master = await asMaster(ctx);
  place = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

const search = async (qs: string, who = admin) => {
  const r = await getAs(ctx, who, `/api/admin/search-ads${qs}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { ads: { id: string; status: string; held: boolean; owner: { id: string; email: string } }[]; total: number };
};
const ids = (r: { ads: { id: string }[] }) => r.ads.map((a) => a.id).sort();

/** One ad of `owner` in every status (the deleted one is kept under a hold on its owner). */
async function adInEveryStatus(owner: TestUser, phone: string) {
  const wallet = await fundedUsd(ctx, owner, 10_000);
  const unpaid = await postAd(ctx, owner, place, { phone, title: 'Unpaid garden party companion' });
  const inReview = await postAd(ctx, owner, place, { phone, title: 'Review waiting harbour companion' });
  expect((await pay(ctx, owner, inReview.id, wallet)).statusCode).toBe(200);
  const rejected = await postAd(ctx, owner, place, { phone, title: 'Rejected rooftop evening companion' });
  expect((await pay(ctx, owner, rejected.id, wallet)).statusCode).toBe(200);
  expect((await decide(ctx, admin, [rejected.id], 'reject', 'Photos do not match.')).json()).toEqual({ updated: 1 });
  const expired = await expiredAd(ctx, owner, admin, place, { phone, title: 'Expired autumn gallery companion' });
  const approved = await liveAd(ctx, owner, admin, place, { phone, title: 'Approved seaside dinner companion' });
  const disabled = await liveAd(ctx, owner, admin, place, { phone, title: 'Disabled winter opera companion' });
  expect((await postAs(ctx, admin, '/api/admin/set-status-approved-ads', { adIds: [disabled.id], status: 'disabled' })).body).toEqual({ updated: 1 });
  const deleted = await postAd(ctx, owner, place, { phone, title: 'Deleted spring market companion' });
  expect((await postAs(ctx, admin, '/api/admin/place-legal-hold', { targetType: 'user', targetId: owner.id, reason: 'Subpoena 24-117' })).status).toBe(201);
  const del = await ctx.app.inject({ method: 'DELETE', url: `/api/delete-cart-ad/${deleted.id}`, headers: { cookie: owner.cookie } });
  expect(del.statusCode).toBe(200);
  return {
    unpaid: unpaid.id,
    in_review: inReview.id,
    approved: approved.id,
    rejected: rejected.id,
    disabled: disabled.id,
    expired: expired.id,
    deleted: deleted.id,
  };
}

describe('GET /api/admin/search-ads', () => {
  it('finds ads in every status, deleted ones kept under a hold too, and filters by status', async () => {
    const owner = await makeUser(ctx, { status: 'approved', nickname: 'harbour_rose' });
    const byStatus = await adInEveryStatus(owner, '(212) 555-0199');
    const other = await makeUser(ctx, { status: 'approved' });
    const elsewhere = await postAd(ctx, other, place, { phone: '(646) 555-0100' });

    const all = await search(`?query=${encodeURIComponent(owner.email)}&pageSize=100`);
    expect(all.total).toBe(7);
    expect(Object.fromEntries(all.ads.map((a) => [a.status, a.id]))).toEqual(byStatus);
    expect(all.ads.every((a) => a.owner.id === owner.id && a.held)).toBe(true);
    for (const [status, id] of Object.entries(byStatus)) {
      expect(ids(await search(`?query=${encodeURIComponent(owner.email)}&status=${status}`)), status).toEqual([id]);
    }
    // Without a query: every ad of the site (of the status asked).
    expect((await search('?pageSize=100')).total).toBe(8);
    expect(ids(await search('?status=unpaid'))).toEqual([byStatus.unpaid, elsewhere.id].sort());
  });

  it('matches an ad id, words of title and description, phone digits in any format, the owner e-mail or nickname', async () => {
    const owner = await makeUser(ctx, { status: 'approved', nickname: 'velvet_tide' });
    const a = await postAd(ctx, owner, place, {
      title: 'Sunset harbour companion tonight',
      description: 'Elegant and discreet, fluent in Portuguese, available for gallery openings by appointment.',
      phone: '(212) 555-0177',
    });
    const other = await makeUser(ctx, { status: 'approved', nickname: 'quiet_meadow' });
    const b = await postAd(ctx, other, place, { title: 'Downtown evening companion', phone: '(917) 555-0123' });

    expect(ids(await search(`?query=${a.id}`))).toEqual([a.id]);
    expect(ids(await search(`?query=${b.id.toUpperCase()}`))).toEqual([b.id]); // ids are matched whatever the case
    expect(ids(await search('?query=HARBOUR%20sunset'))).toEqual([a.id]); // every word, any order, any case
    expect(ids(await search('?query=portuguese%20gallery'))).toEqual([a.id]); // words of the description
    expect(ids(await search('?query=harbour%20downtown'))).toEqual([]); // not every word in one ad
    expect(ids(await search('?query=companion'))).toEqual([a.id, b.id].sort());
    for (const phone of ['(212) 555-0177', '+1 212 555 0177', '2125550177', '12125550177', '212.555.0177', '555-0177']) {
      expect(ids(await search(`?query=${encodeURIComponent(phone)}`)), phone).toEqual([a.id]);
    }
    expect(ids(await search('?query=555-01'))).toEqual([a.id, b.id].sort()); // a phone written in part
    expect(ids(await search('?query=suite%205550'))).toEqual([]); // four digits in words are not a phone
    expect(ids(await search(`?query=${encodeURIComponent(other.email.toUpperCase())}`))).toEqual([b.id]);
    expect(ids(await search(`?query=${encodeURIComponent(other.email.split('@')[0])}`))).toEqual([b.id]); // part of the address
    expect(ids(await search('?query=velvet'))).toEqual([a.id]); // the nickname
    expect(ids(await search('?query=%25'))).toEqual([]); // no wildcard: % is a character like any other
  });

  it('matches the owner e-mail typed in another Unicode form (NFD accents, fullwidth letters), as accounts store it', async () => {
    const owner = await makeUser(ctx, { status: 'approved', email: 'jos\u00e9.kim@example.com' });
    const ad = await postAd(ctx, owner, place);
    expect(ids(await search(`?query=${encodeURIComponent('jose\u0301.kim@')}`))).toEqual([ad.id]);
    expect(ids(await search(`?query=${encodeURIComponent('\uff2a\uff2f\uff33\u00c9.\uff2b\uff29\uff2d')}`))).toEqual([ad.id]); // ＪＯＳÉ.ＫＩＭ
  });

  it('matches the owner’s verified phone, pages, and is for staff only', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    await ctx.app.deps.db
      .updateTable('users')
      .set({ phone: '+13105550188', phone_verified_at: ctx.clock.now().toISOString() })
      .where('id', '=', owner.id)
      .execute();
    const ads = [];
    for (let i = 0; i < 3; i++) {
      ads.push(await postAd(ctx, owner, place, { phone: `(212) 555-01${10 + i}` }));
      ctx.clock.advance(1000);
    }
    const first = await search('?query=3105550188&pageSize=2', master);
    expect([first.total, first.ads.map((a) => a.id)]).toEqual([3, [ads[2].id, ads[1].id]]); // newest first
    expect((await search('?query=3105550188&pageSize=2&page=2')).ads.map((a) => a.id)).toEqual([ads[0].id]);
    expect((await getAs(ctx, owner, '/api/admin/search-ads?query=x')).status).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/search-ads' })).statusCode).toBe(401);
    const bad = await getAs(ctx, admin, '/api/admin/search-ads?status=gone');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation.invalid', params: { field: 'status' } });
  });
});

describe('search boxes of the pending and approved lists', () => {
  it('narrow each list by the same keys, within its statuses', async () => {
    const owner = await makeUser(ctx, { status: 'approved', nickname: 'amber_coast' });
    const wallet = await fundedUsd(ctx, owner, 10_000);
    const inReview = await postAd(ctx, owner, place, { title: 'Amber coast companion review', phone: '(212) 555-0161' });
    expect((await pay(ctx, owner, inReview.id, wallet)).statusCode).toBe(200);
    const unpaid = await postAd(ctx, owner, place, { title: 'Amber coast companion cart', phone: '(212) 555-0161' });
    const live = await liveAd(ctx, owner, admin, place, { title: 'Amber coast companion live', phone: '(212) 555-0161' });
    const stranger = await makeUser(ctx, { status: 'approved' });
    await liveAd(ctx, stranger, admin, place, { title: 'Another companion entirely', phone: '(917) 555-0101' });

    const pending = await getAs(ctx, admin, '/api/admin/get-pending-ads?query=212-555-0161');
    expect([pending.body.total, pending.body.pendingAds.map((a: { id: string }) => a.id)]).toEqual([1, [inReview.id]]);
    const withUnpaid = await getAs(ctx, admin, '/api/admin/get-pending-ads?query=amber_coast&includeUnpaid=true');
    expect(withUnpaid.body.pendingAds.map((a: { id: string; status: string }) => [a.id, a.status])).toEqual([
      [inReview.id, 'in_review'],
      [unpaid.id, 'unpaid'],
    ]);
    const approved = await getAs(ctx, admin, `/api/admin/get-approved-ads?query=${encodeURIComponent(owner.email)}`);
    expect([approved.body.total, approved.body.approvedAds.map((a: { id: string }) => a.id)]).toEqual([1, [live.id]]);
    expect((await getAs(ctx, admin, '/api/admin/get-approved-ads?query=nothing-like-this')).body.total).toBe(0);
  });
});

describe('staff search beyond the ASCII letters and the live ad', () => {
  const find = async (q: string) => ids(await search(`?query=${encodeURIComponent(q)}&pageSize=100`));
  const login = (u: TestUser, ip: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: u.email, password: u.password },
      remoteAddress: ip,
      headers: { 'user-agent': 'Firefox/140' },
    });

  // Titles in Spanish and Portuguese carry accented capitals: every letter matches in either case.
  it('finds an ad by a word with accented capitals, typed exactly as the title writes it', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await postAd(ctx, owner, place, { title: 'BELLA SEÑORITA ÉLÉGANTE COMPANION' });
    expect({ exact: await find('SEÑORITA'), lower: await find('élégante') }).toEqual({ exact: [ad.id], lower: [ad.id] });
  });

  // Nothing typed is a pattern: a NUL (which would end SQLite's pattern, '%<NUL>%' being '%') finds
  // only text holding one, i.e. nothing, in the ads and in the masters' list of accounts.
  it('does not treat a NUL character as a match-everything wildcard', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    await postAd(ctx, owner, place);
    await postAd(ctx, owner, place, { title: 'Another advert for the search' });
    const ads = await getAs(ctx, admin, `/api/admin/search-ads?query=${encodeURIComponent('\u0000')}`);
    const users = await getAs(ctx, master, `/api/master/get-approved-users?query=${encodeURIComponent('\u0000')}`);
    expect({ adsStatus: ads.status, adsTotal: ads.body.total, usersStatus: users.status, usersTotal: users.body.total }).toEqual({
      adsStatus: 200,
      adsTotal: 0,
      usersStatus: 200,
      usersTotal: 0,
    });
  });

  // An edit of a live ad waiting for review (a new phone, new words) is found with its ad.
  it('finds an approved ad by the phone and words of its pending revision', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = (await liveAd(ctx, owner, admin, place, { phone: '(212) 555-0140' })) as unknown as { id: string; photos: { url: string }[] };
    const edit = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: adForm(
        { ...goodFields(place, { title: 'Zanzibar nightingale companion', phone: '(917) 555-0199' }), keepPhotos: JSON.stringify(ad.photos.map((p) => p.url)) },
        [],
      ),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const revision = await ctx.app.deps.db.selectFrom('ad_revisions').select(['status', 'phone']).where('ad_id', '=', ad.id).execute();
    expect(revision).toEqual([{ status: 'pending', phone: '+19175550199' }]);
    expect({ phone: await find('917-555-0199'), words: await find('zanzibar nightingale') }).toEqual({ phone: [ad.id], words: [ad.id] });
  });

  // An IP address (or an IPv6 /64) finds the ads of the accounts that signed in from it successfully.
  it('finds the ads of an account by the IP address it signed in from', async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    expect((await login(owner, '198.51.100.23')).statusCode).toBe(200);
    const ad = await postAd(ctx, owner, place);
    expect(await find('198.51.100.23')).toEqual([ad.id]);
    expect(await find('198.51.100.24')).toEqual([]);

    const home = await makeUser(ctx, { status: 'approved' });
    expect((await login(home, '2001:db8:7:8::aaaa')).statusCode).toBe(200);
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: owner.email, password: 'not the password' },
      remoteAddress: '2001:db8:7:8::bbbb',
    });
    expect(wrong.statusCode).toBe(401); // a refused sign-in relates no account to the address
    const homeAd = await postAd(ctx, home, place);
    expect({
      exact: await find('2001:DB8:7:8:0:0:0:AAAA'), // written any way
      sameNetwork: await find('2001:db8:7:8::bbbb'),
      network: await find('2001:db8:7:8::/64'),
    }).toEqual({ exact: [homeAd.id], sameNetwork: [], network: [homeAd.id] });
  });
});

describe('related accounts (GET /api/admin/get-user/:id)', () => {
  // A /64 is one subscriber's network, as for every per-IP limit (core/ratelimit.ts ipKey): the
  // privacy addresses of one household relate its accounts.
  it('relates accounts that signed in from the same IPv6 /64', async () => {
    const login = (u: TestUser, ip: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: u.email, password: u.password },
        remoteAddress: ip,
        headers: { 'user-agent': 'Firefox/140' },
      });
    const u1 = await makeUser(ctx, { status: 'approved' });
    const u2 = await makeUser(ctx, { status: 'approved', nickname: 'same_home' });
    const u3 = await makeUser(ctx, { status: 'approved', nickname: 'next_door' });
    // Every account of a test registers from one address (a sign-in too): those are set aside.
    await ctx.app.deps.db.deleteFrom('sign_ins').execute();
    expect((await login(u1, '2001:db8:1:2::aaaa')).statusCode).toBe(200);
    expect((await login(u2, '2001:db8:1:2::bbbb')).statusCode).toBe(200);
    expect((await login(u3, '2001:db8:1:3::aaaa')).statusCode).toBe(200); // the next /64: another subscriber
    const d = (await getAs(ctx, admin, `/api/admin/get-user/${u1.id}`)).body;
    expect(d.related.map((r: { nickname: string; reasons: string[] }) => [r.nickname, r.reasons])).toEqual([['same_home', ['ip']]]);
  });
});
