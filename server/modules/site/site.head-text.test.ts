import { beforeEach, describe, expect, it } from 'vitest';
import type { TestContext, TestUser } from '../../test/harness.ts';
import { liveAd, type Place } from '../ads/ads.testkit.ts';
import { renderedSiteEach } from './site.testkit.ts';

const site = renderedSiteEach();
let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(() => ({ ctx, owner, admin, ny } = site));

describe("an ad page's meta and Open Graph description", () => {
  // The preview text in <meta name="description"> and og:description is the ad's own text,
  // shortened at a character boundary: an emoji-rich description ("Hi 💋💋💋…") was cut in the
  // middle of a surrogate pair, and search engines and link previews showed "…💋�…".
  it('never cuts a character in half (no U+FFFD in the head)', async () => {
    const description = `Hi ${'💋'.repeat(100)}`;
    const ad = await liveAd(ctx, owner, admin, ny, { description });
    const res = await ctx.app.inject({ method: 'GET', url: `/ad/${ad.id}` });
    expect(res.statusCode).toBe(200);
    const metas = res.body.match(/<meta (?:name|property)="(?:og:)?description" content="[^"]*"/g) ?? [];
    expect(metas).toHaveLength(2);
    for (const m of metas) expect(m).not.toContain('\uFFFD');
  });
});
