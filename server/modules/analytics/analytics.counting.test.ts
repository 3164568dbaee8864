import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, ManualClock } from '../../core/clock.ts';
import { ownerAdminNy, liveAd, type Place } from '../ads/ads.testkit.ts';
import { makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { SeenViews, VIEWERS_PER_ADDRESS, VIEW_WINDOW_MS, isCrawler } from './analytics.counting.ts';

// An ad's page views are what its owner sees on my ads (what they pay for, and what bumping buys)
// and what staff see on the page-views screen. They count people looking at the ad: one viewer's
// view of a page once within VIEW_WINDOW_MS, not the ad's owner or staff, not a crawler; and the
// owner's "last 7 / 30 days" are the same whole UTC days as staff's.

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ({ ctx, owner, admin, ny } = await ownerAdminNy());
});
afterEach(async () => ctx.close());

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

const view = (path: string, opts: { ip?: string; cookie?: string; ua?: string } = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/analytics/pageview',
    payload: { path, locale: 'en' },
    remoteAddress: opts.ip ?? '203.0.113.9',
    headers: { 'user-agent': opts.ua ?? BROWSER, ...(opts.cookie ? { cookie: opts.cookie } : {}) },
  });

async function ownerViews(adId: string): Promise<{ views7: number; views30: number }> {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/all-ads-by-user', headers: { cookie: owner.cookie } });
  const ad = [...res.json().approvedAds, ...res.json().pendingAds].find((a: { id: string }) => a.id === adId);
  return { views7: ad.views7, views30: ad.views30 };
}
async function staffViews(adId: string, days = 7): Promise<number> {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/admin/get-page-views?days=${days}`, headers: { cookie: admin.cookie } });
  return res.json().topAds.find((a: { adId: string }) => a.adId === adId)?.count ?? 0;
}

describe('a view counts once per viewer and page within the window', () => {
  it('one client posting the beacon in a loop is one view, for the owner and for staff', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    for (let i = 0; i < 100; i++) expect((await view(`/ad/${ad.id}`)).statusCode).toBe(204); // answered alike: a script learns nothing
    expect(await ownerViews(ad.id)).toEqual({ views7: 1, views30: 1 });
    expect(await staffViews(ad.id)).toBe(1);
  });

  it('a second viewer counts; an IPv6 subscriber is one viewer across their /64', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    await view(`/ad/${ad.id}`);
    await view(`/ad/${ad.id}`, { ip: '198.51.100.7' });
    await view(`/ad/${ad.id}`, { ip: '2001:db8:1:2::1' });
    await view(`/ad/${ad.id}`, { ip: '2001:db8:1:2::ffff' }); // the same /64
    await view(`/ad/${ad.id}`, { ip: '2001:db8:1:3::1' }); // the next /64
    expect((await ownerViews(ad.id)).views7).toBe(4);
  });

  // Moved from a probe (round 11): the viewer was the IP alone, so everyone behind a carrier's
  // CGNAT (most mobile visitors) was one viewer per window and the owner saw 1.
  it('different visitors behind one carrier address viewing the same ad are counted as different viewers', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const phones = [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36',
      'Mozilla/5.0 (Linux; Android 13; SM-S911U) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0 Mobile Safari/537.36',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Linux; Android 12; moto g power) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0 Mobile Safari/537.36',
    ];
    for (const ua of phones) {
      expect((await view(`/ad/${ad.id}`, { ip: '203.0.113.77', ua })).statusCode).toBe(204);
      expect((await view(`/ad/${ad.id}`, { ip: '203.0.113.77', ua })).statusCode).toBe(204); // each one's reload: the same view
      ctx.clock.advance(60_000);
    }
    expect(await ownerViews(ad.id)).toEqual({ views7: phones.length, views30: phones.length });
    expect(await staffViews(ad.id)).toBe(phones.length);
  });

  // Moved from a probe (round 11): with the user agent in the viewer, one address naming a new one
  // at each beacon counted each beacon as a view (300 beacons, 300 views of the ad).
  it('one address rotating its user agent adds at most VIEWERS_PER_ADDRESS views of a page; other addresses and pages still count', async () => {
    expect(VIEWERS_PER_ADDRESS).toBe(8);
    const ad = await liveAd(ctx, owner, admin, ny);
    const rotated = (i: number) => `Mozilla/5.0 (iPhone; CPU iPhone OS 17_${i} like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1`;
    for (let i = 0; i < 300; i++) expect((await view(`/ad/${ad.id}`, { ua: rotated(i) })).statusCode).toBe(204); // answered alike
    expect(await ownerViews(ad.id)).toEqual({ views7: VIEWERS_PER_ADDRESS, views30: VIEWERS_PER_ADDRESS });
    expect(await staffViews(ad.id)).toBe(VIEWERS_PER_ADDRESS);
    await view(`/ad/${ad.id}`, { ip: '198.51.100.7', ua: rotated(0) }); // another address
    await view('/faq', { ua: rotated(299) }); // another page of the same address
    ctx.clock.advance(VIEW_WINDOW_MS - 1);
    await view(`/ad/${ad.id}`, { ua: rotated(300) }); // the first eight's window has not ended
    expect((await ownerViews(ad.id)).views7).toBe(VIEWERS_PER_ADDRESS + 1);
    ctx.clock.advance(1); // it has: the address may add viewers again
    await view(`/ad/${ad.id}`, { ua: rotated(301) });
    expect((await ownerViews(ad.id)).views7).toBe(VIEWERS_PER_ADDRESS + 2);
    const faq = await ctx.app.deps.db.selectFrom('page_views').select('id').where('path', '=', '/faq').execute();
    expect(faq).toHaveLength(1);
  });

  it('each page of the same viewer counts once, the ad in another language too', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    for (const path of [`/ad/${ad.id}`, `/es/ad/${ad.id}`, '/faq', `/ad/${ad.id}`, `/es/ad/${ad.id}`]) await view(path);
    expect((await ownerViews(ad.id)).views7).toBe(2);
  });

  it('the same viewer counts again once the window has passed, not before', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    await view(`/ad/${ad.id}`);
    ctx.clock.advance(VIEW_WINDOW_MS - 1);
    await view(`/ad/${ad.id}`);
    expect((await ownerViews(ad.id)).views7).toBe(1);
    ctx.clock.advance(1); // the window from the counted view has ended
    await view(`/ad/${ad.id}`);
    expect((await ownerViews(ad.id)).views7).toBe(2);
  });
});

describe('the owner and staff are not visitors of an ad', () => {
  it('the owner viewing their own ad (signed in, from any IP, in any language) is not a view', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    for (let i = 0; i < 3; i++) expect((await view(`/ad/${ad.id}`, { cookie: owner.cookie, ip: `198.51.100.${i + 1}` })).statusCode).toBe(204);
    await view(`/pt/ad/${ad.id}`, { cookie: owner.cookie });
    expect(await ownerViews(ad.id)).toEqual({ views7: 0, views30: 0 });
    expect(await staffViews(ad.id)).toBe(0);
  });

  it('staff reviewing an ad is not a view; another signed-in user is', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    await view(`/ad/${ad.id}`, { cookie: admin.cookie, ip: '198.51.100.1' });
    const visitor = await makeUser(ctx, { status: 'approved' });
    await view(`/ad/${ad.id}`, { cookie: visitor.cookie, ip: '198.51.100.2' });
    expect((await ownerViews(ad.id)).views7).toBe(1);
  });

  it('the owner viewing another owner’s ad is a view of it, their own is not', async () => {
    const mine = await liveAd(ctx, owner, admin, ny);
    const other = await makeUser(ctx, { status: 'approved' });
    const theirs = await liveAd(ctx, other, admin, ny);
    await view(`/ad/${theirs.id}`, { cookie: owner.cookie });
    await view(`/ad/${mine.id}`, { cookie: owner.cookie });
    expect([await staffViews(theirs.id), await staffViews(mine.id)]).toEqual([1, 0]);
  });
});

describe('the owner’s figures are of the same days as staff’s', () => {
  it('the last 7 and 30 days are whole UTC days, today the last, for the owner as for staff', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    // The clock is 2026-01-15T12:00Z: one view now.
    expect((await view(`/ad/${ad.id}`)).statusCode).toBe(204);
    // 6 days 13 hours later, 2026-01-22T01:00Z: within 168 hours, but the view's UTC day is the 8th day back.
    ctx.clock.advance(6 * DAY_MS + 13 * HOUR_MS);
    expect(await ownerViews(ad.id)).toEqual({ views7: 0, views30: 1 });
    expect([await staffViews(ad.id, 7), await staffViews(ad.id, 30)]).toEqual([0, 1]);
  });

  it('the days begin at 00:00Z: a view at its first moment counts in them, one a moment before does not, for both', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    ctx.clock.set('2026-01-15T23:59:59.999Z');
    await view(`/ad/${ad.id}`, { ip: '198.51.100.1' });
    ctx.clock.set('2026-01-16T00:00:00.000Z');
    await view(`/ad/${ad.id}`, { ip: '198.51.100.2' });
    ctx.clock.set('2026-01-22T23:59:59.999Z'); // the 16th is the first of the last 7 days
    expect((await ownerViews(ad.id)).views7).toBe(1);
    expect(await staffViews(ad.id, 7)).toBe(1);
    ctx.clock.set('2026-02-14T11:00:00.000Z'); // and the first of the last 30 (the owner's 30-day session still open)
    expect(await ownerViews(ad.id)).toEqual({ views7: 0, views30: 1 });
    expect(await staffViews(ad.id, 30)).toBe(1);
  });
});

describe('crawlers are not visitors', () => {
  it('a client that says it is a crawler, or names no user agent, is not counted', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const crawlers = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36',
      'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
      'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
      '',
    ];
    for (const [i, ua] of crawlers.entries()) expect((await view(`/ad/${ad.id}`, { ua, ip: `198.51.100.${i + 1}` })).statusCode).toBe(204);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/analytics/pageview',
      payload: { path: `/ad/${ad.id}`, locale: 'en' },
      remoteAddress: '198.51.100.99',
      headers: { 'user-agent': undefined }, // no header at all
    });
    expect(res.statusCode).toBe(204);
    expect((await ownerViews(ad.id)).views7).toBe(0);
  });

  it('tells crawlers from browsers, a CUBOT phone’s included', () => {
    expect(isCrawler('Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)')).toBe(true);
    expect(isCrawler('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15')).toBe(false);
    expect(isCrawler('Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36')).toBe(false);
    expect(isCrawler('   ')).toBe(true);
  });
});

describe('the viewers remembered', () => {
  it('are forgotten once their window has passed, and never more than the bound', () => {
    const clock = new ManualClock();
    const seen = new SeenViews(clock, 1000, 5);
    expect([seen.first('a', '/x'), seen.first('a', '/x'), seen.first('b', '/x'), seen.first('a', '/y')]).toEqual([true, false, true, true]);
    clock.advance(1000);
    expect(seen.first('c', '/x')).toBe(true);
    expect(seen.size).toBe(1); // the three of the last window went
    for (let i = 0; i < 20; i++) seen.first(`v${i}`, '/x');
    expect(seen.size).toBe(5);
    // Past the bound the oldest go first: the latest are still known, the earliest count again.
    expect([seen.first('v19', '/x'), seen.first('v0', '/x')]).toEqual([false, true]);
  });

  it('do not grow with an address rotating its user agent, so an honest viewer’s repeat is still known', () => {
    const clock = new ManualClock();
    const seen = new SeenViews(clock, 1000, 20, 3);
    expect(seen.first('honest', '/ad/1', 'home')).toBe(true);
    const rotated = Array.from({ length: 500 }, (_, i) => seen.first(`agent${i}`, '/ad/1', 'script'));
    expect(rotated.filter(Boolean)).toHaveLength(3);
    expect(seen.size).toBe(4);
    expect(seen.first('honest', '/ad/1', 'home')).toBe(false); // still remembered: not counted twice
    expect(seen.first('agent0', '/ad/1', 'script')).toBe(false); // a counted one's repeat is a repeat
    expect(seen.first('another', '/ad/2', 'script')).toBe(true); // the cap is per path
    clock.advance(1000);
    expect(seen.first('agent500', '/ad/1', 'script')).toBe(true); // the window ended: counted again
    expect([seen.size, seen.addressPaths]).toEqual([1, 1]); // the counts per address went with their pairs
  });

  it('an address’s count frees a place when its pair is forgotten past the bound', () => {
    const clock = new ManualClock();
    const seen = new SeenViews(clock, 1000, 3, 2);
    expect([seen.first('a', '/x', 'nat'), seen.first('b', '/x', 'nat'), seen.first('c', '/x', 'nat')]).toEqual([true, true, false]);
    seen.first('d', '/y', 'other');
    seen.first('e', '/y', 'other2'); // past the bound of 3: 'a' is forgotten, the oldest
    expect(seen.size).toBe(3);
    expect(seen.first('c', '/x', 'nat')).toBe(true);
    expect(seen.addressPaths).toBeLessThanOrEqual(seen.size);
  });
});
