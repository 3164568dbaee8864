import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, decide, fundedUsd, goodFields, liveAd, pay, placeIn, postAd, type Place } from './ads.testkit.ts';
import { getAs } from '../moderation/moderation.testkit.ts';

// The review queue's and the approved list's search boxes find what staff search finds
// (moderation.match.ts staffMatchAd): beyond the ad and its owner, the words and phone of its
// edits and the addresses its owner signed in from; the queue lists the edits it finds too.

let ctx: TestContext;
let admin: TestUser;
let place: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  admin = await asAdmin(ctx);
  place = await placeIn(ctx, 'ny');
});
afterEach(() => ctx.close());

interface Listed {
  id: string;
  revisionOf?: string;
  title: string;
}

/** A live ad of `owner`, then an edit of it waiting for review; the ad's id. */
async function liveWithEdit(owner: TestUser, live: Record<string, string>, edit: Record<string, string>): Promise<string> {
  const ad = (await liveAd(ctx, owner, admin, place, live)) as unknown as { id: string; photos: { url: string }[] };
  const res = await ctx.app.inject({
    method: 'PUT',
    url: `/api/ads/${ad.id}`,
    headers: { cookie: owner.cookie },
    payload: adForm({ ...goodFields(place, edit), keepPhotos: JSON.stringify(ad.photos.map((p) => p.url)) }, []),
  });
  expect(res.statusCode, res.body).toBe(200);
  return ad.id;
}

async function inReview(owner: TestUser, over: Record<string, string>): Promise<string> {
  const ad = await postAd(ctx, owner, place, over);
  expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
  return ad.id;
}

const login = async (u: TestUser, ip: string) => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: u.email, password: u.password },
    remoteAddress: ip,
    headers: { 'user-agent': 'Firefox/140' },
  });
  expect(res.statusCode, res.body).toBe(200);
};

async function pending(query: string | null, more = '&pageSize=50'): Promise<{ total: number; pendingAds: Listed[] }> {
  const r = await getAs(ctx, admin, `/api/admin/get-pending-ads?${query === null ? '' : `query=${encodeURIComponent(query)}`}${more}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** What the queue shows for a search: its total and, for each entry, the ad's id or the edited ad's id with "edit:". */
async function found(query: string, more?: string) {
  const r = await pending(query, more);
  return { total: r.total, shown: r.pendingAds.map((a) => (a.revisionOf ? `edit:${a.revisionOf}` : a.id)) };
}

async function approved(query: string): Promise<{ total: number; ids: string[] }> {
  const r = await getAs(ctx, admin, `/api/admin/get-approved-ads?pageSize=50&query=${encodeURIComponent(query)}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { total: r.body.total, ids: r.body.approvedAds.map((a: { id: string }) => a.id).sort() };
}

describe('the review queue’s search box (GET /api/admin/get-pending-ads?query=…)', () => {
  it('finds an edit of a live ad by its words and phone, shown as the unsearched queue shows it, and not another account’s', async () => {
    const ann = await makeUser(ctx, { status: 'approved' });
    const bea = await makeUser(ctx, { status: 'approved' });
    const annAd = await liveWithEdit(ann, { phone: '(212) 555-0140' }, { title: 'Zanzibar nightingale companion', phone: '(917) 555-0199' });
    ctx.clock.advance(1000);
    const beaAd = await liveWithEdit(bea, { phone: '(212) 555-0150' }, { title: 'Quiet meadow evening companion', phone: '(646) 555-0111' });
    const beaReview = await inReview(bea, { title: 'Harbour review waiting companion', phone: '(212) 555-0150' });

    const all = await pending(null);
    expect(all.pendingAds.map((a) => a.revisionOf ?? a.id)).toEqual([annAd, beaAd, beaReview]);
    const annEdit = all.pendingAds[0];

    const words = await pending('NIGHTINGALE zanzibar');
    expect({ total: words.total, pendingAds: words.pendingAds }).toEqual({ total: 1, pendingAds: [annEdit] });
    for (const q of ['917-555-0199', '+1 917 555 0199', ann.email, annEdit.id, annAd]) {
      expect(await found(q), q).toEqual({ total: 1, shown: [`edit:${annAd}`] });
    }
    // Edits first, oldest first, then ads in review, paged as one list.
    expect(await found('companion')).toEqual({ total: 3, shown: [`edit:${annAd}`, `edit:${beaAd}`, beaReview] });
    expect(await found('companion', '&pageSize=2&page=2')).toEqual({ total: 3, shown: [beaReview] });
    expect(await found('meadow', '&pageSize=1&page=2')).toEqual({ total: 1, shown: [] });
    expect(await found('nothing-like-this')).toEqual({ total: 0, shown: [] });
  });

  it('finds the ads in review and the edits of the accounts that signed in from an IP address or an IPv6 /64', async () => {
    const ann = await makeUser(ctx, { status: 'approved' });
    const bea = await makeUser(ctx, { status: 'approved' });
    const cat = await makeUser(ctx, { status: 'approved' });
    await login(ann, '198.51.100.23');
    await login(bea, '198.51.100.24');
    await login(cat, '2001:db8:7:8::aaaa');
    const annAd = await liveWithEdit(ann, {}, { title: 'Sunset gallery companion' });
    const annReview = await inReview(ann, { title: 'Morning market companion' });
    await liveWithEdit(bea, {}, { title: 'Winter opera companion' });
    await inReview(bea, { title: 'Autumn garden companion' });
    const catReview = await inReview(cat, { title: 'Spring rooftop companion' });

    expect(await found('198.51.100.23')).toEqual({ total: 2, shown: [`edit:${annAd}`, annReview] });
    expect(await found('198.51.100.99')).toEqual({ total: 0, shown: [] });
    expect(await found('2001:db8:7:8::/64')).toEqual({ total: 1, shown: [catReview] });
    expect(await found('2001:DB8:7:8:0:0:0:AAAA')).toEqual({ total: 1, shown: [catReview] });
  });
});

describe('the approved list’s search box (GET /api/admin/get-approved-ads?query=…)', () => {
  it('finds a live ad by the words of its edit waiting or refused, and by an address its owner signed in from', async () => {
    const ann = await makeUser(ctx, { status: 'approved' });
    const bea = await makeUser(ctx, { status: 'approved' });
    await login(ann, '198.51.100.23');
    await login(bea, '198.51.100.24');
    const annAd = await liveWithEdit(ann, { title: 'Plain first companion' }, { title: 'Zanzibar nightingale companion', phone: '(917) 555-0199' });
    const beaAd = await liveWithEdit(bea, { title: 'Plain second companion' }, { title: 'Quiet meadow evening companion' });
    // Bea's edit refused: its words still find her ad, as staff search does.
    const beaEdit = (await pending(null)).pendingAds.find((a) => a.revisionOf === beaAd)!.id;
    expect((await decide(ctx, admin, [beaEdit], 'reject', 'Words not allowed.')).json()).toEqual({ updated: 1 });

    expect(await approved('zanzibar')).toEqual({ total: 1, ids: [annAd] });
    expect(await approved('917 555 0199')).toEqual({ total: 1, ids: [annAd] });
    expect(await approved('meadow')).toEqual({ total: 1, ids: [beaAd] });
    expect(await approved('198.51.100.23')).toEqual({ total: 1, ids: [annAd] });
    expect(await approved('198.51.100.24')).toEqual({ total: 1, ids: [beaAd] });
    expect(await approved('companion')).toEqual({ total: 2, ids: [annAd, beaAd].sort() });
  });
});
