import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, placeIn, type Place } from '../ads/ads.testkit.ts';
import { postAs } from '../moderation/moderation.testkit.ts';
import { HIDDEN, PRIVATE, PUBLIC, seenBy } from './uploads.testkit.ts';

// Staff close a city or a state: its ads show nowhere, and their photos (whose URLs are out there:
// pages, link previews, image search) stop answering the public too, as a taken-down ad's do. The
// owner and staff still see them; opening the place again, or moving the ad out, brings them back.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
let ny2: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
  ny2 = await placeIn(ctx, 'ny', 1);
});
afterEach(() => ctx.close());

type Ad = { id: string; photos: { url: string; thumbUrl: string }[] };
const urlsOf = (ad: Ad) => ad.photos.flatMap((p) => [p.url, p.thumbUrl]);
const seen = (urls: string[]) => seenBy(ctx, { guest: null, owner, admin }, urls);
const open = { guest: [PUBLIC, PUBLIC], owner: [PUBLIC, PUBLIC], admin: [PUBLIC, PUBLIC] };
const closed = { guest: [HIDDEN, HIDDEN], owner: [PRIVATE, PRIVATE], admin: [PRIVATE, PRIVATE] };
const setPlace = async (body: { stateId: string; cityIds?: string[]; enabled: boolean }) =>
  expect((await postAs(ctx, admin, '/api/admin/set-status-state-cities', body)).status).toBe(200);
const live = async (place: Place, title: string) => (await liveAd(ctx, owner, admin, place, { title })) as unknown as Ad;

describe('photos of ads in a closed place', () => {
  it('a closed city: its ads’ photos answer the owner and staff alone; the other city’s do not change; reopened, public again', async () => {
    const here = await live(ny, 'An ad in the city staff close');
    const there = await live(ny2, 'An ad in another city of the state');
    await setPlace({ stateId: 'ny', cityIds: [ny.cityId], enabled: false });
    expect(await seen(urlsOf(here))).toEqual(closed);
    expect(await seen(urlsOf(there))).toEqual(open);
    await setPlace({ stateId: 'ny', cityIds: [ny.cityId], enabled: true });
    expect(await seen(urlsOf(here))).toEqual(open);
  });

  it('a closed state hides every city’s; reopening the state keeps a city closed on its own hidden, until it opens too', async () => {
    const here = await live(ny, 'An ad in the city closed on its own');
    const there = await live(ny2, 'An ad in an open city of the state');
    await setPlace({ stateId: 'ny', cityIds: [ny.cityId], enabled: false });
    await setPlace({ stateId: 'ny', enabled: false });
    expect([await seen(urlsOf(here)), await seen(urlsOf(there))]).toEqual([closed, closed]);
    await setPlace({ stateId: 'ny', enabled: true });
    expect([await seen(urlsOf(here)), await seen(urlsOf(there))]).toEqual([closed, open]);
    await setPlace({ stateId: 'ny', cityIds: [ny.cityId], enabled: true });
    expect(await seen(urlsOf(here))).toEqual(open);
  });

  it('moved by its owner out of the closed city, an ad’s photos are public again; one taken down, then enabled there, stays hidden', async () => {
    const moved = await live(ny, 'An ad its owner moves');
    const disabled = await live(ny, 'An ad staff took down before');
    expect((await postAs(ctx, admin, '/api/admin/set-status-approved-ads', { adIds: [disabled.id], status: 'disabled' })).status).toBe(200);
    await setPlace({ stateId: 'ny', cityIds: [ny.cityId], enabled: false });
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/update-ad-location/${moved.id}`,
      headers: { cookie: owner.cookie },
      payload: { stateId: 'ny', cityId: ny2.cityId },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await seen(urlsOf(moved))).toEqual(open);
    expect((await postAs(ctx, admin, '/api/admin/set-status-approved-ads', { adIds: [disabled.id], status: 'approved' })).status).toBe(200);
    expect(await seen(urlsOf(disabled))).toEqual(closed);
  });

  // A database with places closed before this (migration 0041) gets the same rows.
  it('migration 0041 withholds the photos of approved and disabled ads already in closed places', async () => {
    const here = await live(ny, 'An ad in a city closed before the upgrade');
    const there = await live(ny2, 'An ad in an open city');
    await ctx.app.deps.db.updateTable('cities').set({ enabled: 0 }).where('id', '=', ny.cityId).execute(); // as before 0041: no rows
    expect(await seen(urlsOf(here))).toEqual(open);
    const sql = fs.readFileSync(path.join(import.meta.dirname, '../../../migrations/sqlite/0041_closed_place_photos.sql'), 'utf8');
    ctx.app.deps.database.sqlite.exec(sql);
    expect([await seen(urlsOf(here)), await seen(urlsOf(there))]).toEqual([closed, open]);
  });
});
