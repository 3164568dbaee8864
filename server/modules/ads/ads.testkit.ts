// Helpers for the marketplace tests (not a test file): real photos, real posts, real money.
import sharp from 'sharp';
import { expect } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { postToLedger } from '../wallets/ledger.service.ts';
import { DAY_MS } from '../../core/clock.ts';
import { expireAds } from './ads.expiry.ts';

/** A small JPEG carrying EXIF with a camera owner and a GPS position (New York), to prove stripping. */
export async function jpegWithGps(color = '#c33', width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .withExif({
      IFD0: { Copyright: 'SECRET-CAMERA-OWNER', Make: 'TestCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 44/1 5400/100', GPSLongitudeRef: 'W', GPSLongitude: '73/1 59/1 0/1' },
    })
    .toBuffer();
}

export async function pngPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 30, height: 20, channels: 4, background: '#0a0' } })
    .png()
    .toBuffer();
}

export interface Place {
  stateId: string;
  cityId: string;
  stateSlug: string;
  citySlug: string;
}

/** The largest city of a state in the seeded locations. */
export async function placeIn(ctx: TestContext, stateId: string, nth = 0): Promise<Place> {
  const c = await ctx.app.deps.db
    .selectFrom('cities')
    .innerJoin('states', 'states.id', 'cities.state_id')
    .select(['cities.id as cityId', 'cities.slug as citySlug', 'states.id as stateId', 'states.slug as stateSlug'])
    .where('cities.state_id', '=', stateId)
    .orderBy('cities.population', 'desc')
    .offset(nth)
    .limit(1)
    .executeTakeFirstOrThrow();
  return c;
}

export const goodFields = (place: Place, over: Record<string, string> = {}) => ({
  listingType: 'female_esc',
  title: 'Elegant companion downtown',
  description: 'Friendly, discreet and punctual. Dinner dates and travel, by appointment only.',
  age: '27',
  stateId: place.stateId,
  cityId: place.cityId,
  phone: '(212) 555-0142',
  ...over,
});

export function adForm(fields: Record<string, string>, photos: Buffer[], type = 'image/jpeg'): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  photos.forEach((p, i) => fd.append('photos', new Blob([new Uint8Array(p)], { type }), `photo-${i}.jpg`));
  return fd;
}

export async function postAdRaw(ctx: TestContext, user: TestUser, fields: Record<string, string>, photos: Buffer[]) {
  return ctx.app.inject({ method: 'POST', url: '/api/post-ad', headers: { cookie: user.cookie }, payload: adForm(fields, photos) });
}

let photo: Buffer | null = null;
/** Posts a valid ad and returns its JSON (status unpaid). */
export async function postAd(ctx: TestContext, user: TestUser, place: Place, over: Record<string, string> = {}) {
  photo ??= await jpegWithGps();
  const res = await postAdRaw(ctx, user, goodFields(place, over), [photo]);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ad as { id: string; status: string; [k: string]: unknown };
}

export async function walletsOf(ctx: TestContext, user: TestUser) {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/all-wallets-by-user', headers: { cookie: user.cookie } });
  return res.json().wallets as { id: string; walletType: string; amountCents: number }[];
}

let fundSeq = 0;
/** Credits a wallet through the ledger service (as a settled invoice would). */
export async function fund(ctx: TestContext, walletId: string, cents: number) {
  await ctx.app.deps.db.transaction().execute((trx) =>
    postToLedger(trx, {
      walletId,
      amountCents: cents,
      kind: 'adjustment',
      reference: 'test',
      idempotencyKey: `test-fund-${++fundSeq}-${walletId}`,
      at: ctx.clock.now().toISOString(),
    }),
  );
}

/** A funded USD wallet for the user; returns its id. */
export async function fundedUsd(ctx: TestContext, user: TestUser, cents: number): Promise<string> {
  const usd = (await walletsOf(ctx, user)).find((w) => w.walletType === 'USD')!;
  if (cents > 0) await fund(ctx, usd.id, cents);
  return usd.id;
}

export const pay = (ctx: TestContext, user: TestUser, adId: string, walletId: string) =>
  ctx.app.inject({ method: 'PUT', url: `/api/ad-payment-in-cart/${adId}`, headers: { cookie: user.cookie }, payload: { walletId } });

export const decide = (ctx: TestContext, staff: TestUser, adIds: string[], decision: 'approve' | 'reject', reason?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/admin/approve-pending-ads',
    headers: { cookie: staff.cookie },
    payload: reason ? { adIds, decision, reason } : { adIds, decision },
  });

/** Posts, pays and approves an ad: it is live when the owner is approved. */
export async function liveAd(ctx: TestContext, owner: TestUser, staff: TestUser, place: Place, over: Record<string, string> = {}) {
  const ad = await postAd(ctx, owner, place, over);
  const walletId = await fundedUsd(ctx, owner, 1500);
  expect((await pay(ctx, owner, ad.id, walletId)).statusCode).toBe(200);
  expect((await decide(ctx, staff, [ad.id], 'approve')).json()).toEqual({ updated: 1 });
  return ad;
}

/**
 * A live ad whose time ran out a day ago, hidden by the expire-ads job (its term is set back
 * rather than the clock moved: a month later would also end every session of the test).
 */
export async function expiredAd(ctx: TestContext, owner: TestUser, staff: TestUser, place: Place, over: Record<string, string> = {}) {
  const ad = await liveAd(ctx, owner, staff, place, over);
  await ctx.app.deps.db
    .updateTable('ads')
    .set({ expires_at: new Date(ctx.clock.now().getTime() - DAY_MS).toISOString() })
    .where('id', '=', ad.id)
    .execute();
  await expireAds(ctx.app.deps);
  return ad;
}

/** A test app with an approved owner, an admin and a place in New York, made in that order: the set-up many marketplace tests start from. */
export async function ownerAdminNy(opts: Parameters<typeof createTestApp>[0] = {}): Promise<{ ctx: TestContext; owner: TestUser; admin: TestUser; ny: Place }> {
  const ctx = await createTestApp(opts);
  const owner = await makeUser(ctx, { status: 'approved' });
  const admin = await asAdmin(ctx);
  const ny = await placeIn(ctx, 'ny');
  return { ctx, owner, admin, ny };
}
