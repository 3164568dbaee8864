import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { HOUR_MS } from '../../core/clock.ts';
import { fundedUsd, liveAd, placeIn, type Place } from './ads.testkit.ts';

// The server clock as the operator's machine has it: NTP may step it back.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  admin = await asAdmin(ctx);
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => ctx.close());

const renew = (id: string, walletId: string) =>
  ctx.app.inject({ method: 'PUT', url: `/api/renew-ad/${id}`, headers: { cookie: owner.cookie }, payload: { walletId } });

describe('renewing after the server clock was stepped back (NTP)', () => {
  // The 60-second "renewed just now" guard (a double click) does not hold for the size of a step
  // back: the stored renewed_at then lies in the future, and every renewal was refused "too soon"
  // for the hour, though the last one was long ago.
  it('a renewal 55 minutes (real time) after the last one is not refused as "too soon"', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const walletId = await fundedUsd(ctx, owner, 5000);
    const first = await renew(ad.id, walletId);
    expect(first.statusCode, first.body).toBe(200);
    // The machine's clock was an hour fast; NTP steps it back. An hour of real time then passes.
    ctx.clock.advance(-HOUR_MS);
    ctx.clock.advance(HOUR_MS - 5 * 60_000);
    const second = await renew(ad.id, walletId);
    expect([second.statusCode, second.json().code]).toEqual([200, undefined]);
  });
});
