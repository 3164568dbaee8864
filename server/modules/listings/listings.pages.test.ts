import { beforeEach, describe, expect, it } from 'vitest';
import { type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, type Place } from '../ads/ads.testkit.ts';
import { renderedSiteEach } from '../site/site.testkit.ts';

// Capped totals on the public pages as the server renders them (from the real build, the same
// components the browser hydrates): the wording the client shows, and no page link past the cap.

const site = renderedSiteEach();
let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(() => ({ ctx, owner, admin, ny } = site));

const page = async (url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  return /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(res.body)?.[1] ?? '';
};

/** `n` more public copies of an ad (same words and place, newer bumps), written straight to the table. */
function copies(adId: string, n: number): void {
  const sqlite = ctx.app.deps.database.sqlite;
  const row = sqlite.prepare('SELECT * FROM ads WHERE id = ?').get(adId) as Record<string, unknown>;
  const cols = Object.keys(row);
  const insert = sqlite.prepare(`INSERT INTO ads (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
  sqlite.transaction(() => {
    for (let i = 1; i <= n; i++) insert.run({ ...row, id: `${adId}x${i}`, bump_seq: (row.bump_seq as number) + i });
  })();
}

describe('capped totals, rendered by the server', () => {
  // Search counts its newest 200 matches: "200+ ads match", pages up to 10 (of 20).
  it('a search at the cap says "200+" and links pages up to 10', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    copies(ad.id, 204);
    const en = await page('/search?query=companion');
    expect(en).toContain('200+ ads match “companion”.');
    expect(en).toContain('href="/search?query=companion&amp;page=10"');
    expect(en).not.toContain('page=11');
    expect(await page('/es/search?query=companion')).toContain('200+ anuncios coinciden con «companion».');
  });

  // A list counts its first 10,000 ads: "10,000+ ads", pages up to 500 (of 20).
  it('a list at the cap says "10,000+" and links pages up to 500', async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    copies(ad.id, 10_000);
    const url = `/listings/us/new-york/${ny.citySlug}/female-escorts`;
    const en = await page(url);
    expect(en).toContain('>10,000+ ads<');
    expect(en).toContain(`href="${url}?page=500"`);
    expect(en).not.toContain('page=501');
    expect(await page(`/pt${url}`)).toContain('>10.000+ anúncios<');
  });
});
