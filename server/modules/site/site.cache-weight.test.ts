import { beforeEach, describe, expect, it } from 'vitest';
import { type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, type Place } from '../ads/ads.testkit.ts';
import { renderedSiteEach } from './site.testkit.ts';

// What a kept page weighs: everything the pages cache keeps of a page counts against its share of
// CACHE_MB (README), through real HTTP (app.inject) against the real client build.

const site = renderedSiteEach();
let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(() => ({ ctx, owner, admin, ny } = site));

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

describe('the pages cache', () => {
  // A kept page weighs its brotli tail (~3.5 kB). The gzip copy made for a client without brotli (a
  // crawler, curl, an old proxy) is kept with it: uncounted, a gzip-only crawl made every kept page
  // weigh three times what the budget saw.
  it('counts the gzip copy it keeps of a page against its budget', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    const svc = ctx.app.deps.services.site;
    const url = `/ad/${ad.id}`;
    for (let i = 0; i < 3; i++) {
      expect((await get(url, { 'accept-encoding': 'br' })).statusCode).toBe(200);
      await svc.framesReady();
    }
    expect(svc.pages.has(url)).toBe(true);
    const before = svc.pages.weight;
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(svc.pages.has(url)).toBe(true);
    // The kept entry now holds its gzip copy too (sent again, not made again)…
    const again = await get(url, { 'accept-encoding': 'gzip' });
    expect(again.rawPayload.equals(gz.rawPayload)).toBe(true);
    // …and the cache's weight should say so.
    expect(svc.pages.weight).toBeGreaterThanOrEqual(before + gz.rawPayload.length);
  });
});
