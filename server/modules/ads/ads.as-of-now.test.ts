import { afterEach, describe, expect, it } from 'vitest';
import { type TestContext } from '../../test/harness.ts';
import { HOUR_MS } from '../../core/clock.ts';
import { fundedUsd, liveAd, ownerAdminNy } from './ads.testkit.ts';

// An owner's ad as of now (PRODUCT §5): its term run out before the expire-ads job stored it, and
// the bump's double-click guard after the wall clock was stepped back.

let ctx: TestContext;
afterEach(async () => {
  await ctx?.close();
});

describe('an owner’s ad as of now', () => {
  // §5: "An ad is publicly visible when approved, online, not expired, ..." and the owner JSON's
  // `shown` is documented as "whether the public sees it now" (contract/api/ads.ts). Once the term
  // has run out the public gets 410, the dashboard counts the ad as expired with 0 online, and
  // staff's list calls it expired; my ads must say the same (expired, not shown), not "approved,
  // shown" until the expire-ads job (every 5 minutes) happens to store the status.
  it('my ads calls an ad whose term ran out expired and not shown, as the dashboard and the public do, before the expiry job ran', async () => {
    const s = await ownerAdminNy({ env: { SESSION_DAYS: '365' } });
    ctx = s.ctx;
    const ad = await liveAd(ctx, s.owner, s.admin, s.ny);
    const row = await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow();
    ctx.clock.set(new Date(Date.parse(row.expires_at!) + 60_000)); // a minute after its end
    expect((await ctx.app.inject({ method: 'GET', url: `/api/ads/${ad.id}` })).statusCode).toBe(410); // the public: gone
    const overview = (await ctx.app.inject({ method: 'GET', url: '/api/my-ads-overview', headers: { cookie: s.owner.cookie } })).json();
    expect([overview.counts.expired, overview.online]).toEqual([1, 0]); // the dashboard: expired, nothing online
    const mine = (await ctx.app.inject({ method: 'GET', url: '/api/all-ads-by-user', headers: { cookie: s.owner.cookie } })).json();
    expect(mine.approvedAds.map((a: { status: string; shown: boolean }) => [a.status, a.shown])).toEqual([['expired', false]]);
  });

  // §5: "Bump ... charges the bump price and sets bumpedAt = now." The one-minute guard against a
  // double click (BUMP_COOLDOWN_MS) must not refuse a bump for the size of a clock step: after NTP
  // steps the server clock back an hour, the stored bumpedAt (set at approval or the last bump)
  // lies in the future and every bump is refused "too soon" for that hour, though the last one was
  // long ago. Renewal's guard is the same (ads.clock-step.test.ts).
  it('a bump 55 minutes (real time) after the approval is not refused as "too soon" after the clock was stepped back', async () => {
    const s = await ownerAdminNy();
    ctx = s.ctx;
    const ad = await liveAd(ctx, s.owner, s.admin, s.ny); // approved now: bumpedAt = now
    const walletId = await fundedUsd(ctx, s.owner, 5000);
    // The machine's clock was an hour fast; NTP steps it back. Then 55 minutes of real time pass.
    ctx.clock.advance(-HOUR_MS);
    ctx.clock.advance(HOUR_MS - 5 * 60_000);
    const res = await ctx.app.inject({ method: 'PUT', url: `/api/bump-ad/${ad.id}`, headers: { cookie: s.owner.cookie }, payload: { walletId } });
    expect([res.statusCode, res.json().code]).toEqual([200, undefined]);
  });
});
