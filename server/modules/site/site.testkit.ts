import { gunzipSync } from 'node:zlib';
import { afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { clientBuild } from '../../test/client-build.ts';
import { placeIn, type Place } from '../ads/ads.testkit.ts';

export interface RenderedSite {
  /** The client build's folder (its .ssr renderer too). */
  dist: string;
  ctx: TestContext;
  owner: TestUser;
  admin: TestUser;
  ny: Place;
}

/**
 * What a test of the server-rendered pages starts from: for each test a fresh app serving the real
 * client build at https://xg.example, an approved owner, an admin and New York's largest city.
 * Called at a test file's top level (it registers the hooks); the object it returns is filled
 * before each test.
 */
export function renderedSiteEach(): RenderedSite {
  const site = {} as RenderedSite;
  beforeAll(() => {
    site.dist = clientBuild();
  }, 180_000);
  beforeEach(async () => {
    site.ctx = await createTestApp({ distDir: site.dist, env: { PUBLIC_URL: 'https://xg.example' } });
    site.owner = await makeUser(site.ctx, { status: 'approved' });
    site.admin = await asAdmin(site.ctx);
    site.ny = await placeIn(site.ctx, 'ny');
  });
  afterEach(async () => site.ctx.close());
  return site;
}

/** One file of the sitemap as a crawler reads it: `<loc>`s in order, and each URL's `<lastmod>` when it has one. */
export interface SitemapFile {
  url: string;
  xml: string;
  locs: string[];
}

/**
 * The sitemap as a crawler walks it: the index, then every file it names, each checked on the way
 * (200, XML, within the protocol's 50,000 URLs, gzipped when asked and the same bytes either way).
 */
export async function walkSitemap(ctx: TestContext): Promise<{ index: string[]; files: SitemapFile[]; locs: string[] }> {
  const res = await ctx.app.inject({ method: 'GET', url: '/sitemap.xml' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/application\/xml/);
  expect(res.body).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  const index = locsOf(res.body);
  const files: SitemapFile[] = [];
  for (const url of index) {
    const path = new URL(url).pathname;
    const plain = await ctx.app.inject({ method: 'GET', url: path });
    expect(plain.statusCode, path).toBe(200);
    expect(plain.headers['content-type'], path).toMatch(/application\/xml/);
    expect(plain.headers['content-encoding'], path).toBeUndefined();
    const zipped = await ctx.app.inject({ method: 'GET', url: path, headers: { 'accept-encoding': 'gzip' } });
    const unzipped = zipped.headers['content-encoding'] === 'gzip' ? gunzipSync(zipped.rawPayload).toString('utf8') : zipped.body;
    expect(unzipped, path).toBe(plain.body);
    const locs = locsOf(plain.body);
    expect(locs.length, path).toBeLessThanOrEqual(50_000);
    files.push({ url, xml: plain.body, locs });
  }
  return { index, files, locs: files.flatMap((f) => f.locs) };
}

function locsOf(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}
