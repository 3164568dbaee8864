import { afterEach, describe, expect, it } from 'vitest';
import { type TestContext } from '../../test/harness.ts';
import { expireAds } from './ads.expiry.ts';
import { liveAd, ownerAdminNy } from './ads.testkit.ts';

// An ad leaves public view at its expiresAt, with no write (PRODUCT §5); the expire-ads job stores
// the status within minutes. In between, the staff's approved-ads list must not call it live.

let ctx: TestContext;
afterEach(async () => {
  await ctx?.close();
});

describe('the staff approved-ads list around an expiry', () => {
  it('shows an ad whose term ran out as expired before the job ran, and files it under expired once it did', async () => {
    const s = await ownerAdminNy({ env: { SESSION_DAYS: '365' } }); // the staff session outlives the ad's 30 days
    ctx = s.ctx;
    const ad = await liveAd(ctx, s.owner, s.admin, s.ny);
    const row = await ctx.app.deps.db.selectFrom('ads').select('expires_at').where('id', '=', ad.id).executeTakeFirstOrThrow();
    ctx.clock.set(new Date(Date.parse(row.expires_at!) + 60_000)); // a minute after its end
    expect((await ctx.app.inject({ method: 'GET', url: `/api/ads/${ad.id}` })).statusCode).toBe(410); // the public: gone

    const list = async (status = '') =>
      (
        await ctx.app.inject({ method: 'GET', url: `/api/admin/get-approved-ads${status ? `?status=${status}` : ''}`, headers: { cookie: s.admin.cookie } })
      ).json().approvedAds as { id: string; status: string }[];
    const statusIn = async (status?: string) => (await list(status)).map((a) => [a.id, a.status]);
    expect(await statusIn()).toEqual([[ad.id, 'expired']]);
    expect(await statusIn('approved')).toEqual([[ad.id, 'expired']]); // filed by the stored status until the job runs
    await expireAds(ctx.app.deps);
    expect({ expired: await statusIn('expired'), running: await statusIn('approved') }).toEqual({ expired: [[ad.id, 'expired']], running: [] });
  });
});
