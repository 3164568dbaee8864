import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { asAdmin, cookieOf, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { ledgerDiscrepancies } from '../wallets/ledger.service.ts';
import { expireAds } from './ads.expiry.ts';
import { imageQueue } from '../../core/images.ts';
import { adForm, decide, fundedUsd, goodFields, liveAd, pay, placeIn, postAd, postAdRaw, walletsOf, type Place } from './ads.testkit.ts';

let ctx: TestContext;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  other = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => {
  expect(await ledgerDiscrepancies(ctx.app.deps.db)).toEqual([]);
  await ctx.close();
});

const photo = (color: string) =>
  sharp({ create: { width: 80, height: 60, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
const edit = async (u: TestUser, id: string, fields: Record<string, string>, photos: Buffer[] = []) =>
  ctx.app.inject({ method: 'PUT', url: `/api/ads/${id}`, headers: { cookie: u.cookie }, payload: adForm(fields, photos) });
const row = (id: string) => ctx.app.deps.db.selectFrom('ads').selectAll().where('id', '=', id).executeTakeFirst();
const publicAd = (id: string) => ctx.app.inject({ method: 'GET', url: `/api/ads/${id}` });
const usd = async (u: TestUser) => (await walletsOf(ctx, u)).find((w) => w.walletType === 'USD')!.amountCents;
const photoUrls = (ad: { photos: { url: string }[] }) => JSON.stringify(ad.photos.map((p) => p.url));
const fileOf = (url: string) => path.join(ctx.config.dataDir, 'uploads', url.replace(/^\/uploads\//, ''));
const renew = (u: TestUser, id: string, walletId: string) =>
  ctx.app.inject({ method: 'PUT', url: `/api/renew-ad/${id}`, headers: { cookie: u.cookie }, payload: { walletId } });
const del = (u: TestUser, id: string) => ctx.app.inject({ method: 'DELETE', url: `/api/ads/${id}`, headers: { cookie: u.cookie } });
/** Staff take an ad down. */
const disable = async (id: string) => {
  const off = await ctx.app.inject({
    method: 'POST',
    url: '/api/admin/set-status-approved-ads',
    headers: { cookie: admin.cookie },
    payload: { adIds: [id], status: 'disabled' },
  });
  expect(off.json()).toEqual({ updated: 1 });
};
const mine = async (u: TestUser) => (await ctx.app.inject({ method: 'GET', url: '/api/all-ads-by-user', headers: { cookie: u.cookie } })).json();

describe('editing an ad', () => {
  it("is the owner's alone: anyone else gets 404 and nothing changes", async () => {
    const ad = await postAd(ctx, owner, ny);
    const before = JSON.stringify(await row(ad.id));
    for (const u of [other, admin]) {
      const res = await edit(u, ad.id, { ...goodFields(ny, { title: 'Somebody else wrote this' }), keepPhotos: photoUrls(ad as never) });
      expect(res.statusCode).toBe(404);
    }
    expect(JSON.stringify(await row(ad.id))).toBe(before);
  });

  it('changes an unpaid ad in place, keeps and adds photos, removes dropped files, and screens the text', async () => {
    const ad = (await postAd(ctx, owner, ny)) as unknown as { id: string; photos: { url: string }[] };
    const oldFile = fileOf(ad.photos[0].url);
    expect(fs.existsSync(oldFile)).toBe(true);
    const res = await edit(owner, ad.id, { ...goodFields(ny, { title: 'A brand new title here' }), keepPhotos: '[]' }, [
      await photo('#123'),
      await photo('#456'),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ad).toMatchObject({ status: 'unpaid', title: 'A brand new title here' });
    expect(res.json().ad.photos).toHaveLength(2);
    expect(fs.existsSync(oldFile)).toBe(false);
    const screened = await edit(owner, ad.id, {
      ...goodFields(ny, { title: 'Young teen new in town' }),
      keepPhotos: JSON.stringify([res.json().ad.photos[0].url]),
    });
    expect(screened.statusCode).toBe(400);
    expect(screened.json().code).toBe('ad.screened_wording');
    expect((await row(ad.id))!.title).toBe('A brand new title here');
    const log = await ctx.app.deps.db.selectFrom('screening_log').selectAll().execute();
    expect(log.map((l) => [l.ad_id, l.user_id])).toEqual([[ad.id, owner.id]]);
    for (const keep of ['[]', JSON.stringify(['/uploads/ads/not-mine.webp']), 'not json']) {
      const bad = await edit(owner, ad.id, { ...goodFields(ny), keepPhotos: keep });
      expect(bad.statusCode, keep).toBe(400);
    }
    const versions = await ctx.app.deps.db.selectFrom('ad_versions').select('source').where('ad_id', '=', ad.id).orderBy('id').execute();
    expect(versions.map((v) => v.source)).toEqual(['posted', 'edited']);
  });

  it('sends a rejected ad back to the cart, unpaid; paying again charges again, and a second rejection refunds again', async () => {
    const ad = await postAd(ctx, owner, ny);
    const walletId = await fundedUsd(ctx, owner, 3000);
    expect((await pay(ctx, owner, ad.id, walletId)).statusCode).toBe(200);
    expect((await decide(ctx, admin, [ad.id], 'reject', 'Photos do not match')).json()).toEqual({ updated: 1 });
    expect(await usd(owner)).toBe(3000);
    const fixed = await edit(owner, ad.id, { ...goodFields(ny, { title: 'Corrected title, new photos' }), keepPhotos: photoUrls(ad as never) });
    expect(fixed.json().ad).toMatchObject({ status: 'unpaid', rejectionReason: null, priceCents: null });
    expect((await pay(ctx, owner, ad.id, walletId)).statusCode).toBe(200);
    expect(await usd(owner)).toBe(1500);
    expect((await decide(ctx, admin, [ad.id], 'reject', 'Still not right')).json()).toEqual({ updated: 1 });
    expect(await usd(owner)).toBe(3000);
    await edit(owner, ad.id, { ...goodFields(ny, { title: 'Third time lucky, really' }), keepPhotos: photoUrls(ad as never) });
    expect((await pay(ctx, owner, ad.id, walletId)).statusCode).toBe(200);
    expect((await decide(ctx, admin, [ad.id], 'approve')).json()).toEqual({ updated: 1 });
    expect(await usd(owner)).toBe(1500);
    const keys = (await ctx.app.deps.db.selectFrom('ledger_entries').select('idempotency_key').where('reference', '=', ad.id).orderBy('id').execute()).map(
      (e) => e.idempotency_key,
    );
    expect(keys).toEqual([`ad-payment:${ad.id}`, `ad-refund:${ad.id}`, `ad-payment:${ad.id}:1`, `ad-refund:${ad.id}:1`, `ad-payment:${ad.id}:2`]);
  });

  it('an ad in review edited by its owner after staff opened the queue is approved only as they saw it: the new version waits for its own approval', async () => {
    const ad = await postAd(ctx, owner, ny);
    expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
    const queue = async () =>
      (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } })).json().pendingAds as {
        id: string;
        title: string;
        updatedAt: string;
      }[];
    const shown = (await queue()).find((a) => a.id === ad.id)!;
    expect(shown.title).toBe('Elegant companion downtown');
    ctx.clock.advance(1000);
    const rewritten = await edit(owner, ad.id, {
      ...goodFields(ny, { title: 'Text the reviewer never saw', description: 'Completely different wording, written after the queue was opened.' }),
      keepPhotos: photoUrls(ad as never),
    });
    expect(rewritten.statusCode, rewritten.body).toBe(200);
    const approve = (seen: { id: string; updatedAt: string }[]) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/admin/approve-pending-ads',
        headers: { cookie: admin.cookie },
        payload: { adIds: [ad.id], decision: 'approve', seen },
      });
    const stale = await approve([{ id: shown.id, updatedAt: shown.updatedAt }]);
    expect([stale.statusCode, stale.json()]).toEqual([200, { updated: 0 }]);
    expect((await row(ad.id))!.status).toBe('in_review');
    expect((await publicAd(ad.id)).statusCode).toBe(404);
    expect(await ctx.app.deps.db.selectFrom('audit_log').select('action').where('action', '=', 'ad.approve').execute()).toEqual([]);
    // The queue shows the new version; approved as shown, it is what the public sees.
    const again = (await queue()).find((a) => a.id === ad.id)!;
    expect(again.title).toBe('Text the reviewer never saw');
    expect(again.updatedAt).not.toBe(shown.updatedAt);
    expect((await approve([{ id: again.id, updatedAt: again.updatedAt }])).json()).toEqual({ updated: 1 });
    expect((await publicAd(ad.id)).json().ad.title).toBe('Text the reviewer never saw');
  });

  it('keeps the listing type a paid ad was paid for: in review or live, another type is refused and nothing changes; unpaid or rejected, it may change', async () => {
    const pricing = (await ctx.app.inject({ method: 'GET', url: '/api/get-ad-pricing' })).json().pricing as { id: string; listingType: string }[];
    const setPrice = (listingType: string, priceCents: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/admin/set-price-by-id',
        headers: { cookie: admin.cookie },
        payload: { id: pricing.find((p) => p.listingType === listingType)!.id, priceCents, durationDays: 30 },
      });
    expect((await setPrice('female_rub', 500)).statusCode).toBe(200);
    expect((await setPrice('female_esc', 5000)).statusCode).toBe(200);
    const walletId = await fundedUsd(ctx, owner, 1000);
    const cheap = (over: Record<string, string> = {}) => postAd(ctx, owner, ny, { listingType: 'female_rub', ...over });
    const dearer = (ad: object) => ({ ...goodFields(ny, { listingType: 'female_esc' }), keepPhotos: photoUrls(ad as never) });
    const refused = { code: 'ad.listing_type_locked', message: 'The listing type is the one this ad was paid for: post a new ad for another type.' };

    const inReview = await cheap();
    expect((await pay(ctx, owner, inReview.id, walletId)).statusCode).toBe(200);
    const live = await cheap();
    expect((await pay(ctx, owner, live.id, walletId)).statusCode).toBe(200);
    expect((await decide(ctx, admin, [live.id], 'approve')).json()).toEqual({ updated: 1 });
    for (const ad of [inReview, live]) {
      const before = JSON.stringify(await row(ad.id));
      const res = await edit(owner, ad.id, dearer(ad));
      expect([res.statusCode, res.json()]).toEqual([400, expect.objectContaining({ ...refused, params: { field: 'listingType' } })]);
      expect(JSON.stringify(await row(ad.id))).toBe(before);
    }
    expect(await ctx.app.deps.db.selectFrom('ad_revisions').select('id').execute()).toEqual([]);
    // The same type with new text is an edit like any other.
    expect(
      (await edit(owner, live.id, { ...goodFields(ny, { listingType: 'female_rub', title: 'Same type, better words' }), keepPhotos: photoUrls(live as never) }))
        .statusCode,
    ).toBe(200);

    // Unpaid, the type is the owner's to choose: the price is the new type's when paid.
    const unpaid = await cheap();
    const changed = await edit(owner, unpaid.id, dearer(unpaid));
    expect(changed.json().ad).toMatchObject({ status: 'unpaid', listingType: 'female_esc' });
    expect((await pay(ctx, owner, unpaid.id, await fundedUsd(ctx, owner, 5000))).statusCode).toBe(200);
    expect((await row(unpaid.id))!.price_cents).toBe(5000);
    // Rejected (refunded), it goes back to the cart and may change type before it is paid again.
    expect((await decide(ctx, admin, [inReview.id], 'reject', 'Photos do not match')).json()).toEqual({ updated: 1 });
    expect((await edit(owner, inReview.id, dearer(inReview))).json().ad).toMatchObject({ status: 'unpaid', listingType: 'female_esc' });
  });

  it('makes a revision of a live ad: the public sees the approved text until staff approve it; rejecting it leaves the ad as it was', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, { title: 'The approved original title' });
    const res = await edit(owner, ad.id, { ...goodFields(ny, { title: 'The revised and better title' }), keepPhotos: photoUrls(ad as never) }, [
      await photo('#0a0'),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ad).toMatchObject({
      status: 'approved',
      title: 'The approved original title',
      revision: { status: 'pending', content: { title: 'The revised and better title' } },
    });
    expect((await publicAd(ad.id)).json().ad.title).toBe('The approved original title');

    const queue = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } })).json();
    const item = queue.pendingAds.find((a: { revisionOf?: string }) => a.revisionOf === ad.id);
    expect(item).toMatchObject({ title: 'The revised and better title', previous: { title: 'The approved original title' } });
    expect(item.photos).toHaveLength(2);
    expect(item.previous.photos).toHaveLength(1);
    expect((await decide(ctx, admin, [item.id], 'reject', 'Second photo shows a face')).json()).toEqual({ updated: 1 });
    expect((await publicAd(ad.id)).json().ad.title).toBe('The approved original title');
    const rejected = (await mine(owner)).approvedAds[0];
    expect(rejected.revision).toMatchObject({ status: 'rejected', rejectionReason: 'Second photo shows a face' });
    expect(fs.existsSync(fileOf(item.photos[1].url))).toBe(false); // the rejected edit's own photo
    expect(fs.existsSync(fileOf(item.photos[0].url))).toBe(true); // the live ad's

    const again = await edit(owner, ad.id, { ...goodFields(ny, { title: 'The revised title, second try' }), keepPhotos: photoUrls(ad as never) });
    const second = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } })).json().pendingAds[0];
    expect(again.json().ad.revision.status).toBe('pending');
    expect((await decide(ctx, admin, [second.id], 'approve')).json()).toEqual({ updated: 1 });
    const live = (await publicAd(ad.id)).json().ad;
    expect(live).toMatchObject({ title: 'The revised title, second try', status: 'approved' });
    expect((await mine(owner)).approvedAds[0].revision).toBeNull();
    const sources = (await ctx.app.deps.db.selectFrom('ad_versions').select('source').where('ad_id', '=', ad.id).orderBy('id').execute()).map((v) => v.source);
    expect(sources).toEqual(['posted', 'revision_approved']);
    const subjects = ctx.mailer.sent.filter((m) => m.to === owner.email).map((m) => m.subject);
    expect(subjects).toEqual([
      'Your ad is approved: The approved original title',
      'Your changes were not approved: The revised and better title',
      'Your changes are live: The revised title, second try',
    ]);
  });

  it('a move while an edit waits for review carries the edit along: approving it keeps the ad where its owner moved it', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, { title: 'The approved original title' });
    const res = await edit(owner, ad.id, { ...goodFields(ny, { title: 'The revised and better title' }), keepPhotos: photoUrls(ad as never) });
    expect(res.statusCode, res.body).toBe(200);
    const tx = await placeIn(ctx, 'tx');
    const moved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/update-ad-location/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: { stateId: tx.stateId, cityId: tx.cityId },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const item = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } }))
      .json()
      .pendingAds.find((a: { revisionOf?: string }) => a.revisionOf === ad.id);
    expect(item).toMatchObject({ title: 'The revised and better title', state: { slug: tx.stateSlug }, city: { slug: tx.citySlug } });
    expect((await decide(ctx, admin, [item.id], 'approve')).json()).toEqual({ updated: 1 });
    const live = (await publicAd(ad.id)).json().ad;
    expect(live).toMatchObject({ title: 'The revised and better title', state: { slug: tx.stateSlug }, city: { slug: tx.citySlug } });
  });

  it('keeps a version of every move: an ad moved from one city to another and on keeps where it was in between', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const [tx, ca] = [await placeIn(ctx, 'tx'), await placeIn(ctx, 'ca')];
    for (const to of [tx, ca]) {
      const moved = await ctx.app.inject({
        method: 'PUT',
        url: `/api/update-ad-location/${ad.id}`,
        headers: { cookie: owner.cookie },
        payload: { stateId: to.stateId, cityId: to.cityId },
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const versions = await ctx.app.deps.db.selectFrom('ad_versions').select(['source', 'fields_json']).where('ad_id', '=', ad.id).orderBy('id').execute();
    expect(versions.map((v) => [v.source, (JSON.parse(v.fields_json) as { city_id: string }).city_id])).toEqual([
      ['posted', ny.cityId],
      ['moved', tx.cityId],
      ['moved', ca.cityId],
    ]);
  });

  it('an edit whose ad is gone is not in the queue, and a batch naming it decides the rest, approving or rejecting', async () => {
    // As an older deletion left it: the ad row gone, its edit still pending.
    const ad = await liveAd(ctx, owner, admin, ny);
    const res = await edit(owner, ad.id, { ...goodFields(ny, { title: 'The revised and better title' }), keepPhotos: photoUrls(ad as never) });
    const revisionId = res.json().ad.revision.id as string;
    await ctx.app.deps.db.deleteFrom('ads').where('id', '=', ad.id).execute();
    for (const decision of ['approve', 'reject'] as const) {
      const waiting = await postAd(ctx, other, ny);
      await pay(ctx, other, waiting.id, await fundedUsd(ctx, other, 1500));
      const queue = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads?pageSize=1&page=2', headers: { cookie: admin.cookie } })).json();
      expect({ total: queue.total, page2: queue.pendingAds }).toEqual({ total: 1, page2: [] });
      const batch = await decide(ctx, admin, [revisionId, waiting.id], decision, decision === 'reject' ? 'Photos do not match' : undefined);
      expect({ status: batch.statusCode, body: batch.json() }).toEqual({ status: 200, body: { updated: 1 } });
      expect((await row(waiting.id))!.status).toBe(decision === 'approve' ? 'approved' : 'rejected');
    }
    const actions = (await ctx.app.deps.db.selectFrom('audit_log').select('action').orderBy('id').execute()).map((a) => a.action);
    expect(actions).toEqual(['ad.approve', 'ad.approve', 'ad.reject']);
  });

  it('stores rates, incall / outcall and hours, checked like every field, and shows them on the public ad', async () => {
    const rates = JSON.stringify([
      { minutes: 120, priceCents: 50000 },
      { minutes: 60, priceCents: 30000 },
    ]);
    const availability = JSON.stringify({ fri: { from: '20:00', to: '02:00' }, mon: { from: '10:00', to: '18:00' } });
    const ad = await liveAd(ctx, owner, admin, ny, { rates, availability, incall: 'true', outcall: 'false' });
    expect((await publicAd(ad.id)).json().ad.details).toEqual({
      rates: [
        { minutes: 60, priceCents: 30000 },
        { minutes: 120, priceCents: 50000 },
      ],
      incall: true,
      outcall: false,
      availability: { mon: { from: '10:00', to: '18:00' }, fri: { from: '20:00', to: '02:00' } },
    });
    const bad: [string, string][] = [
      ['rates', JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ minutes: 30 + i, priceCents: 1000 })))],
      ['rates', JSON.stringify([{ minutes: 5, priceCents: 1000 }])],
      ['rates', JSON.stringify([{ minutes: 60, priceCents: 1000, extra: 1 }])],
      ['rates', '{not json'],
      ['availability', JSON.stringify({ funday: { from: '10:00', to: '12:00' } })],
      ['availability', JSON.stringify({ mon: { from: '25:00', to: '12:00' } })],
      ['incall', 'maybe'],
    ];
    for (const [field, value] of bad) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/post-ad',
        headers: { cookie: owner.cookie },
        payload: adForm({ ...goodFields(ny), [field]: value }, [await photo('#333')]),
      });
      expect(res.statusCode, `${field}=${value}`).toBe(400);
      expect(res.json().params.field).toBe(field);
    }
  });
});

describe('an approved edit of the details alone', () => {
  it('shows at once on the cached public answer: rates, incall/outcall and hours', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, { rates: JSON.stringify([{ minutes: 60, priceCents: 30000 }]), incall: 'true', outcall: 'false' });
    expect((await publicAd(ad.id)).json().ad.details).toMatchObject({ rates: [{ minutes: 60, priceCents: 30000 }], incall: true, outcall: false });
    const hours = { mon: { from: '10:00', to: '18:00' } };
    const res = await edit(owner, ad.id, {
      ...goodFields(ny, { rates: JSON.stringify([{ minutes: 60, priceCents: 45000 }]), incall: 'false', outcall: 'true', availability: JSON.stringify(hours) }),
      keepPhotos: photoUrls(ad as never),
    });
    expect(res.statusCode, res.body).toBe(200);
    const queue = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } })).json();
    const item = queue.pendingAds.find((a: { revisionOf?: string }) => a.revisionOf === ad.id);
    expect((await decide(ctx, admin, [item.id], 'approve')).json()).toEqual({ updated: 1 });
    expect((await publicAd(ad.id)).json().ad.details).toMatchObject({
      rates: [{ minutes: 60, priceCents: 45000 }],
      incall: false,
      outcall: true,
      availability: hours,
    });
  });
});

describe('an edit of an ad staff took down meanwhile', () => {
  it('approving it mails "your changes were approved", not "live" (the ad stays disabled)', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, { title: 'The approved original title' });
    const res = await edit(owner, ad.id, { ...goodFields(ny, { title: 'The revised and better title' }), keepPhotos: photoUrls(ad as never) });
    expect(res.statusCode, res.body).toBe(200);
    await disable(ad.id);
    const queue = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } })).json();
    const item = queue.pendingAds.find((a: { revisionOf?: string }) => a.revisionOf === ad.id);
    expect((await decide(ctx, admin, [item.id], 'approve')).json()).toEqual({ updated: 1 });
    expect(ctx.mailer.sent.filter((m) => m.to === owner.email).map((m) => m.subject)).toEqual([
      'Your ad is approved: The approved original title',
      'Your ad was taken off XG Marketplace: The approved original title',
      'Your changes were approved: The revised and better title',
    ]);
    expect((await row(ad.id))!.status).toBe('disabled');
  });
});

describe('an edit racing another change of the ad', () => {
  const big = () =>
    sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#345' } })
      .jpeg()
      .toBuffer();
  /** Starts `first`, lets it read the ad and begin encoding its photo, then runs `then`. */
  async function whileEncoding<T>(first: () => Promise<T>, then: () => Promise<unknown>): Promise<T> {
    const q = imageQueue(ctx.app.deps);
    const before = q.started;
    const running = first();
    while (q.started === before) await new Promise((r) => setTimeout(r, 1));
    await then();
    return running;
  }

  it('another tab’s edit meanwhile: 409, the first edit stands, and every photo the ad names is on disk', async () => {
    const posted = await postAdRaw(ctx, owner, goodFields(ny), [await photo('#111'), await photo('#222')]);
    const ad = posted.json().ad as { id: string; photos: { url: string }[] };
    const bigPhoto = await big();
    const [p1, p2] = ad.photos.map((p) => p.url);
    let a!: Awaited<ReturnType<typeof edit>>;
    const b = await whileEncoding(
      () => edit(owner, ad.id, { ...goodFields(ny, { title: 'Edit B keeps photo one' }), keepPhotos: JSON.stringify([p1]) }, [bigPhoto]),
      async () => (a = await edit(owner, ad.id, { ...goodFields(ny, { title: 'Edit A keeps photo two' }), keepPhotos: JSON.stringify([p2]) })),
    );
    expect(a.statusCode, a.body).toBe(200);
    expect([b.statusCode, b.json().code]).toEqual([409, 'ad.changed_meanwhile']);
    const saved = await row(ad.id);
    expect(saved!.title).toBe('Edit A keeps photo two');
    const named = (JSON.parse(saved!.photos_json) as { path: string; thumbPath: string }[]).flatMap((p) => [p.path, p.thumbPath]);
    for (const p of named) expect(fs.existsSync(path.join(ctx.config.dataDir, 'uploads', p)), p).toBe(true);
    // B's encoded photo went with its refusal; A dropped photo one: only photo two is left.
    expect(fs.readdirSync(path.join(ctx.config.dataDir, 'uploads', 'ads')).sort()).toEqual(named.map((p) => path.basename(p)).sort());
  });

  it('the owner deletes the live ad meanwhile: 404, no pending edit left behind, its photos go', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const bigPhoto = await big();
    const res = await whileEncoding(
      () => edit(owner, ad.id, { ...goodFields(ny, { title: 'A new title for the edit' }), keepPhotos: '[]' }, [bigPhoto]),
      async () => expect((await del(owner, ad.id)).statusCode).toBe(200),
    );
    expect([res.statusCode, res.json().code]).toEqual([404, 'ad.not_found']);
    expect(await ctx.app.deps.db.selectFrom('ad_revisions').select('id').where('ad_id', '=', ad.id).execute()).toEqual([]);
    const dir = path.join(ctx.config.dataDir, 'uploads', 'ads');
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  });

  it('staff disable the live ad meanwhile: 409 edit_not_allowed, no pending edit', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const bigPhoto = await big();
    const res = await whileEncoding(
      () => edit(owner, ad.id, { ...goodFields(ny, { title: 'A new title for the edit' }), keepPhotos: photoUrls(ad as never) }, [bigPhoto]),
      () => disable(ad.id),
    );
    expect([res.statusCode, res.json().code]).toEqual([409, 'ad.edit_not_allowed']);
    expect(await ctx.app.deps.db.selectFrom('ad_revisions').select('id').where('ad_id', '=', ad.id).execute()).toEqual([]);
  });
});

describe('renewing an ad', () => {
  it('charges the price once and extends from the later of now and the current end', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const walletId = await fundedUsd(ctx, owner, 3000);
    const end = Date.parse((await row(ad.id))!.expires_at!);
    ctx.clock.set(new Date(end - 10 * DAY_MS));
    const res = await renew(owner, ad.id, walletId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ad.expiresAt).toBe(new Date(end + 30 * DAY_MS).toISOString());
    expect(res.json().wallet.amountCents).toBe(1500);
    const twice = await renew(owner, ad.id, walletId);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('ad.renew_too_soon');
    expect(await usd(owner)).toBe(1500);

    // Expired: back at once, from now, without a new review.
    ctx.clock.set(new Date(end + 40 * DAY_MS));
    await ctx.app.deps.db.updateTable('ads').set({ status: 'expired' }).where('id', '=', ad.id).execute();
    expect((await publicAd(ad.id)).statusCode).toBeGreaterThanOrEqual(404);
    // Seventy days on, the session cookie has lapsed: sign in again.
    const login = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: owner.email, password: owner.password } });
    owner = { ...owner, cookie: cookieOf(login) };
    const back = await renew(owner, ad.id, walletId);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().ad).toMatchObject({ status: 'approved', expiresAt: new Date(end + 70 * DAY_MS).toISOString() });
    expect((await publicAd(ad.id)).statusCode).toBe(200);
    expect(await usd(owner)).toBe(0);
  });

  it('is a 402 without enough money and a 404 on another user’s ad; nothing is charged', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const poor = await fundedUsd(ctx, owner, 1000);
    const short = await renew(owner, ad.id, poor);
    expect(short.statusCode).toBe(402);
    expect(await usd(owner)).toBe(1000);
    const theirs = await renew(other, ad.id, await fundedUsd(ctx, other, 5000));
    expect(theirs.statusCode).toBe(404);
    expect(await usd(other)).toBe(5000);
    const cart = await postAd(ctx, owner, ny);
    expect((await renew(owner, cart.id, poor)).json().code).toBe('ad.renew_not_allowed');
  });
});

describe('staff disabling an expired ad', () => {
  it('takes it down: audited, out of public view, not renewed, bumped or edited by its owner; enabled again it is expired', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const walletId = await fundedUsd(ctx, owner, 5000);
    const past = new Date(ctx.clock.now().getTime() - 1000).toISOString();
    await ctx.app.deps.db.updateTable('ads').set({ expires_at: past }).where('id', '=', ad.id).execute();
    await expireAds(ctx.app.deps);
    const staffList = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-approved-ads?status=expired', headers: { cookie: admin.cookie } })).json();
    expect(staffList.approvedAds.map((a: { id: string; status: string }) => [a.id, a.status])).toEqual([[ad.id, 'expired']]);
    const set = (status: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/admin/set-status-approved-ads', headers: { cookie: admin.cookie }, payload: { adIds: [ad.id], status } });

    expect((await set('disabled')).json()).toEqual({ updated: 1 });
    expect((await row(ad.id))!).toMatchObject({ status: 'disabled', visible: 0 });
    const audit = async () =>
      (
        await ctx.app.deps.db
          .selectFrom('audit_log')
          .select(['action', 'target_id', 'before_json', 'after_json'])
          .where('action', 'in', ['ad.disable', 'ad.enable'])
          .orderBy('id')
          .execute()
      ).map((a) => [a.action, a.target_id, JSON.parse(a.before_json!), JSON.parse(a.after_json!)]);
    expect(await audit()).toEqual([['ad.disable', ad.id, { status: 'expired' }, { status: 'disabled' }]]);
    expect((await publicAd(ad.id)).statusCode).toBe(404);

    // The owner cannot bring it back: no renewal (nothing charged), no bump, no edit; online or not, it stays hidden.
    const renewed = await renew(owner, ad.id, walletId);
    expect({ status: renewed.statusCode, code: renewed.json().code }).toEqual({ status: 409, code: 'ad.renew_not_allowed' });
    const bumped = await ctx.app.inject({ method: 'PUT', url: `/api/bump-ad/${ad.id}`, headers: { cookie: owner.cookie }, payload: { walletId } });
    expect({ status: bumped.statusCode, code: bumped.json().code }).toEqual({ status: 409, code: 'ad.bump_not_running' });
    const edited = await edit(owner, ad.id, { ...goodFields(ny, { title: 'Back again, quietly' }), keepPhotos: photoUrls(ad as never) });
    expect({ status: edited.statusCode, code: edited.json().code }).toEqual({ status: 409, code: 'ad.edit_not_allowed' });
    for (const online of [false, true]) {
      await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${ad.id}`, headers: { cookie: owner.cookie }, payload: { online } });
    }
    expect((await publicAd(ad.id)).statusCode).toBe(404);
    expect(await usd(owner)).toBe(5000);
    expect((await row(ad.id))!.status).toBe('disabled');

    // Enabled again, its term has run out: expired, still hidden, and renewable as any expired ad.
    expect((await set('approved')).json()).toEqual({ updated: 1 });
    expect((await row(ad.id))!.status).toBe('expired');
    expect((await audit())[1]).toEqual(['ad.enable', ad.id, { status: 'disabled' }, { status: 'expired' }]);
    expect((await publicAd(ad.id)).statusCode).toBe(410); // gone, as any expired ad
    expect((await renew(owner, ad.id, walletId)).statusCode).toBe(200);
    expect((await publicAd(ad.id)).statusCode).toBe(200);
  });
});

describe('deleting an ad', () => {
  it('refunds an ad in review to the wallet that paid, removes a live one without refund, and is the owner’s alone', async () => {
    const inReview = await postAd(ctx, owner, ny);
    const walletId = await fundedUsd(ctx, owner, 1500);
    await pay(ctx, owner, inReview.id, walletId);
    expect(await usd(owner)).toBe(0);
    expect((await del(other, inReview.id)).statusCode).toBe(404);
    const res = await del(owner, inReview.id);
    expect(res.json()).toEqual({ deleted: true, refundedCents: 1500 });
    expect(await usd(owner)).toBe(1500);
    expect(await row(inReview.id)).toBeUndefined();

    const live = (await liveAd(ctx, owner, admin, ny)) as unknown as { id: string; photos: { url: string }[] };
    const file = fileOf(live.photos[0].url);
    const before = await usd(owner);
    expect((await del(owner, live.id)).json()).toEqual({ deleted: true, refundedCents: 0 });
    expect(await usd(owner)).toBe(before);
    expect(fs.existsSync(file)).toBe(false);
    expect((await publicAd(live.id)).statusCode).toBeGreaterThanOrEqual(404);
  });
});

describe('my ads', () => {
  it('counts the page views of each ad over 7 and 30 days', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const at = (daysAgo: number) => new Date(ctx.clock.now().getTime() - daysAgo * DAY_MS).toISOString();
    await ctx.app.deps.db
      .insertInto('page_views')
      .values([
        { path: `/ad/${ad.id}`, locale: 'en', at: at(1) },
        { path: `/es/ad/${ad.id}`, locale: 'es', at: at(3) },
        { path: `/ad/${ad.id}`, locale: 'en', at: at(10) },
        { path: `/ad/${ad.id}`, locale: 'en', at: at(40) },
        { path: `/ad/other`, locale: 'en', at: at(1) },
      ])
      .execute();
    expect((await mine(owner)).approvedAds[0]).toMatchObject({ id: ad.id, views7: 2, views30: 3 });
  });
});
