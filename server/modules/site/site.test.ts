import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { walkSitemap } from './site.testkit.ts';

// A fake build: index.html with the <!--head--> marker (like the real one) and one hashed asset.
let dist: string;
beforeAll(() => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html>\n<html lang="en">\n  <head>\n    <meta name="rating" content="RTA-5042-1996-1400-1577-RTA" />\n    <!--head-->\n    <title>XG Marketplace</title>\n  </head>\n  <body><div id="root"></div></body>\n</html>\n',
  );
  fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dist, 'assets', 'app-def456.js'), `export const words = ${JSON.stringify('lorem ipsum dolor '.repeat(400))};`);
});
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({ distDir: dist, env: { PUBLIC_URL: 'https://xg.example' } });
});
afterEach(async () => ctx.close());

const get = (url: string) => ctx.app.inject({ method: 'GET', url });
const titles = (html: string) => [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);

describe('page head written by the server', () => {
  it('gives each page its title, description, canonical, hreflang and og tags, and keeps the rating tag', async () => {
    const res = await get('/faq');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    expect(titles(html)).toEqual(['Frequently asked questions | XG Marketplace']);
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<meta name="description" content="Answers about posting ads[^"]*" \/>/);
    expect(html).toContain('<link rel="canonical" href="https://xg.example/faq" />');
    expect(html).toContain('<link rel="alternate" hreflang="es" href="https://xg.example/es/faq" />');
    expect(html).toContain('<link rel="alternate" hreflang="pt" href="https://xg.example/pt/faq" />');
    expect(html).toContain('<link rel="alternate" hreflang="x-default" href="https://xg.example/faq" />');
    expect(html).toContain('<meta property="og:title" content="Frequently asked questions | XG Marketplace" />');
    expect(html).toContain('<meta name="rating" content="RTA-5042-1996-1400-1577-RTA" />');
    expect(html).not.toContain('noindex');
    expect(html).not.toContain('<!--head-->');
  });

  it('writes the page in its language and sets <html lang>', async () => {
    const es = await get('/es/faq');
    expect(titles(es.body)).toEqual(['Preguntas frecuentes | XG Marketplace']);
    expect(es.body).toContain('<html lang="es">');
    expect(es.body).toContain('<link rel="canonical" href="https://xg.example/es/faq" />');
    const pt = await get('/pt');
    expect(pt.body).toContain('<html lang="pt">');
    expect(titles(pt.body)[0]).toMatch(/^XG Marketplace — anúncios/);
    expect(pt.body).toContain('<meta property="og:locale" content="pt_BR" />');
  });

  it('names the state, city and listing type of listing pages from the locations tables', async () => {
    const city = await get('/listings/us/new-york/buffalo/female-escorts');
    expect(city.statusCode).toBe(200);
    expect(titles(city.body)).toEqual(['Female escorts in Buffalo, New York | XG Marketplace']);
    const state = await get('/es/listings/us/district-of-columbia');
    expect(titles(state.body)).toEqual(['Escorts y masajes en District of Columbia | XG Marketplace']);
  });

  it('answers 404 (with the app and a noindex head) for unknown pages, states and cities', async () => {
    for (const url of ['/no-such-page', '/listings/us/atlantis', '/listings/us/new-york/atlantis/female-escorts', '/listings/us/new-york/buffalo/robots']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('<div id="root"></div>');
      expect(titles(res.body), url).toEqual(['Page not found | XG Marketplace']);
      expect(res.body, url).toContain('<meta name="robots" content="noindex" />');
    }
  });

  it('does not index search, sign-in or dashboard pages', async () => {
    for (const url of ['/search?query=x', '/auth/login', '/admin/dashboard/my-ads']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<meta name="robots" content="noindex" />');
    }
  });

  it('escapes everything it writes', async () => {
    const res = await get('/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).toContain('&quot;&gt;&lt;script&gt;alert(1)');
  });

  it('keeps assets immutable and unknown API routes JSON', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Compressible assets go out brotli- or gzip-compressed when the browser accepts it.
    const raw = fs.readFileSync(path.join(dist, 'assets', 'app-def456.js'));
    const br = await ctx.app.inject({ method: 'GET', url: '/assets/app-def456.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).equals(raw)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(raw.length / 5);
    const gz = await ctx.app.inject({ method: 'GET', url: '/assets/app-def456.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(raw)).toBe(true);
    const plain = await ctx.app.inject({ method: 'GET', url: '/assets/app-def456.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(raw)).toBe(true);
    const api = await get('/api/nope');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Not found.', code: 'request.not_found' });
  });
});

describe('sitemap.xml and robots.txt', () => {
  const insertAd = async (id: string, over: Record<string, unknown> = {}) => {
    const owner = (await ctx.app.deps.db.selectFrom('users').select('id').executeTakeFirst()) ?? { id: (await makeUser(ctx, { status: 'approved' })).id };
    const now = '2026-01-15T12:00:00.000Z';
    await ctx.app.deps.db
      .insertInto('ads')
      .values({
        id,
        owner_id: owner.id,
        listing_type: 'female_esc',
        title: 'A title that is long enough',
        description: 'x'.repeat(60),
        age: '30',
        state_id: 'ny',
        city_id: (await ctx.app.deps.db.selectFrom('cities').select('id').where('state_id', '=', 'ny').where('slug', '=', 'buffalo').executeTakeFirstOrThrow())
          .id,
        phone: '+12125550100',
        photos_json: '[]',
        status: 'approved',
        online: 1,
        bump_seq: Math.floor(Math.random() * 1e9),
        bumped_at: now,
        published_at: now,
        expires_at: '2026-02-15T12:00:00.000Z',
        created_at: now,
        updated_at: now,
        visible: 1,
        ...over,
      } as never)
      .execute();
  };

  it('lists static pages in every language, with alternates, and a state page only while it has ads (an empty one is noindex)', async () => {
    const empty = await walkSitemap(ctx);
    expect(empty.index).toEqual(['https://xg.example/sitemaps/pages-1.xml']); // no ads yet: no ads file
    for (const loc of ['https://xg.example/', 'https://xg.example/es', 'https://xg.example/pt/faq', 'https://xg.example/report-crime']) {
      expect(empty.locs).toContain(loc);
    }
    expect(empty.locs.some((l) => /\/listings\/us\/[^/]+$/.test(l))).toBe(false);
    expect(empty.files[0].xml).not.toContain('/auth/');
    await insertAd('ad1');
    const { files, locs } = await walkSitemap(ctx);
    expect(locs).toContain('https://xg.example/es/listings/us/new-york');
    expect(files[0].xml).toContain('<xhtml:link rel="alternate" hreflang="pt" href="https://xg.example/pt/listings/us/new-york"/>');
    expect(locs.filter((l) => /^https:\/\/xg\.example\/listings\/us\/[^/]+$/.test(l))).toEqual(['https://xg.example/listings/us/new-york']);
    // Its state closed, the ad shows nowhere: neither page is listed.
    await ctx.app.deps.db.updateTable('states').set({ enabled: 0 }).where('slug', '=', 'new-york').execute();
    expect((await walkSitemap(ctx)).locs.some((l) => l.includes('/listings/us/new-york'))).toBe(false);
  });

  it('lists a city page only while a visible, unexpired ad is there', async () => {
    await insertAd('ad1', { online: 0, visible: 0 });
    await insertAd('ad2', { expires_at: '2026-01-01T00:00:00.000Z', listing_type: 'female_rub' });
    expect((await walkSitemap(ctx)).locs.some((l) => l.includes('/listings/us/new-york/buffalo'))).toBe(false);
    await insertAd('ad3');
    const { locs } = await walkSitemap(ctx);
    expect(locs).toContain('https://xg.example/listings/us/new-york/buffalo/female-escorts');
    expect(locs).toContain('https://xg.example/es/listings/us/new-york/buffalo/female-escorts');
    expect(locs.some((l) => l.includes('buffalo/female-bodyrubs'))).toBe(false);
  });

  it('lists every public ad in every language, by state, 2,500 ads to a file, oldest bump first, and no other ad', async () => {
    ctx.clock.set(new Date('2026-01-20T00:00:00.000Z'));
    await insertAd('hidden1', { online: 0, visible: 0, bump_seq: 1 });
    await insertAd('ranout1', { expires_at: '2026-01-19T00:00:00.000Z', bump_seq: 2 });
    const tx = await ctx.app.deps.db.selectFrom('cities').select(['id', 'state_id']).where('state_id', '=', 'tx').executeTakeFirstOrThrow();
    await insertAd('texas1', { state_id: tx.state_id, city_id: tx.id, bump_seq: 3 });
    // 2,501 public ads in New York, bumped in an order unlike their ids: the files follow bump order
    const ids = Array.from({ length: 2501 }, (_, i) => `pub${String(i).padStart(5, '0')}`);
    const seq = (i: number) => 10 + ((i * 7919) % 2501);
    // bumped after their last change (insertAd: 2026-01-15): each one's lastmod is its bump
    const bumpedAt = (i: number) => new Date(Date.UTC(2026, 0, 16) + seq(i) * 1000).toISOString();
    ctx.app.deps.database.sqlite.exec('BEGIN');
    for (const [i, id] of ids.entries()) await insertAd(id, { bump_seq: seq(i), bumped_at: bumpedAt(i) });
    ctx.app.deps.database.sqlite.exec('COMMIT');
    const { index, files } = await walkSitemap(ctx);
    // ranout1 is still counted until the expiry job hides it (New York's second file holds 2 ads by
    // count), but never listed
    expect(index).toEqual([
      'https://xg.example/sitemaps/pages-1.xml',
      'https://xg.example/sitemaps/ads-new-york-1.xml',
      'https://xg.example/sitemaps/ads-new-york-2.xml',
      'https://xg.example/sitemaps/ads-texas-1.xml',
    ]);
    // New York's slices of 2,500 by bump: ranout1 (bump 2, the oldest) takes a place in the first but is left out
    const byBump = [...ids.keys()].sort((a, b) => seq(a) - seq(b));
    const nySlices = ['ranout1', ...byBump.map((i) => ids[i])];
    const expected = (some: string[]) =>
      some
        .filter((id) => id !== 'ranout1')
        .flatMap((id) => [`https://xg.example/ad/${id}`, `https://xg.example/es/ad/${id}`, `https://xg.example/pt/ad/${id}`]);
    expect(files[1].locs).toEqual(expected(nySlices.slice(0, 2500)));
    expect(files[2].locs).toEqual(expected(nySlices.slice(2500)));
    expect(files[2].locs).toHaveLength(6);
    expect(files[3].locs).toEqual(expected(['texas1']));
    const last = byBump[2500];
    expect(files[2].xml).toContain(
      `<url><loc>https://xg.example/es/ad/${ids[last]}</loc><lastmod>${bumpedAt(last)}</lastmod><xhtml:link rel="alternate" hreflang="en" href="https://xg.example/ad/${ids[last]}"/>`,
    );
    for (const f of files) expect(f.xml).not.toMatch(/hidden1|ranout1/);
    // past the last file, a state without ads, or not a file of the sitemap: 404
    for (const url of [
      '/sitemaps/ads-new-york-3.xml',
      '/sitemaps/ads-texas-2.xml',
      '/sitemaps/ads-ohio-1.xml',
      '/sitemaps/pages-2.xml',
      '/sitemaps/ads-new-york-0.xml',
      '/sitemaps/ads-new-york-1.json',
      '/sitemaps/ads-1.xml',
      '/sitemaps/users-1.xml',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'request.not_found' });
    }
  });

  it('still answers without the ads table', async () => {
    ctx.app.deps.database.sqlite.exec('DROP TABLE ads');
    const { index, locs } = await walkSitemap(ctx);
    expect(index).toEqual(['https://xg.example/sitemaps/pages-1.xml']);
    expect(locs).toContain('https://xg.example/faq');
  });

  it('answers an address at most its sitemap ceiling a minute, the index and the files together, another address apart', async () => {
    await ctx.close();
    ctx = await createTestApp({ distDir: dist, env: { PUBLIC_URL: 'https://xg.example' }, limits: { sitemapPerMinute: 3 } });
    const from = (url: string, ip: string) => ctx.app.inject({ method: 'GET', url, remoteAddress: ip });
    expect((await from('/sitemap.xml', '203.0.113.7')).statusCode).toBe(200);
    expect((await from('/sitemaps/pages-1.xml', '203.0.113.7')).statusCode).toBe(200);
    expect((await from('/sitemaps/pages-9.xml', '203.0.113.7')).statusCode).toBe(404); // counted too: refusing costs nothing, finding out does
    const refused = await from('/sitemaps/pages-1.xml', '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'request.rate_limited' });
    expect((await from('/sitemap.xml', '203.0.113.7')).statusCode).toBe(429);
    expect((await from('/sitemap.xml', '198.51.100.2')).statusCode).toBe(200);
    expect((await from('/faq', '203.0.113.7')).statusCode).toBe(200); // pages are not limited by it
    ctx.clock.advance(60_000);
    expect((await from('/sitemaps/pages-1.xml', '203.0.113.7')).statusCode).toBe(200);
  });

  it('gzips a large sitemap file for a client that accepts gzip, and not for one that refuses it (q=0)', async () => {
    for (let i = 0; i < 40; i++) await insertAd(`zip${String(i).padStart(3, '0')}`);
    const ask = (accept: string) => ctx.app.inject({ method: 'GET', url: '/sitemaps/ads-new-york-1.xml', headers: { 'accept-encoding': accept } });
    const zipped = await ask('gzip, deflate');
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const xml = gunzipSync(zipped.rawPayload).toString();
    expect(xml.length).toBeGreaterThan(16_384);
    for (const accept of ['gzip;q=0, deflate', 'deflate, *;q=0', 'identity', 'x-gzip;q=0']) {
      const res = await ask(accept);
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(res.body).toBe(xml);
    }
  });

  it('robots.txt names the sitemap and keeps crawlers out of private pages', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toContain('Sitemap: https://xg.example/sitemap.xml');
    expect(res.body).toContain('Disallow: /admin/');
    expect(res.body).toContain('Disallow: /es/auth/');
    expect(res.body).toContain('Disallow: /api/');
    for (const prefix of ['', '/es', '/pt']) {
      expect(res.body).toContain(`Disallow: ${prefix}/unsubscribe\n`);
      expect(res.body).toContain(`Disallow: ${prefix}/sandbox/\n`);
    }
  });
});

describe('content negotiation and revalidation', () => {
  // A template over 1 kB, so a page has a gzip copy (the fake build has no server renderer: no brotli copy).
  let big: string;
  let app: TestContext;
  beforeAll(async () => {
    big = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-dist-'));
    fs.writeFileSync(
      path.join(big, 'index.html'),
      `<!doctype html>\n<html lang="en">\n<head>\n<!--head-->\n<title>XG</title>\n</head>\n<body><div id="root"></div>${'<!-- filler -->'.repeat(200)}</body>\n</html>\n`,
    );
    app = await createTestApp({ distDir: big, env: { PUBLIC_URL: 'https://xg.example' } });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(big, { recursive: true, force: true });
  });
  const page = (headers: Record<string, string>) => app.app.inject({ method: 'GET', url: '/faq', headers });

  it('gives each encoding of a page its own strong ETag, and revalidates a copy only by its own', async () => {
    const plain = await page({ 'accept-encoding': 'identity' });
    const gzip = await page({ 'accept-encoding': 'gzip' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const [identityTag, gzipTag] = [plain.headers.etag as string, gzip.headers.etag as string];
    expect(identityTag).toMatch(/^"[^"]+"$/);
    expect(gzipTag).toBe(`${identityTag.slice(0, -1)}-gz"`);
    // a copy is confirmed only to a request that would get that copy
    expect((await page({ 'accept-encoding': 'gzip', 'if-none-match': gzipTag })).statusCode).toBe(304);
    expect((await page({ 'if-none-match': identityTag })).statusCode).toBe(304);
    const other = await page({ 'accept-encoding': 'gzip', 'if-none-match': identityTag });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
    expect((await page({ 'if-none-match': gzipTag })).statusCode).toBe(200);
    // a cache holding both sends both; weak forms match too (If-None-Match compares weakly)
    const both = await page({ 'accept-encoding': 'gzip', 'if-none-match': `${identityTag}, ${gzipTag}` });
    expect(both.statusCode).toBe(304);
    expect(both.headers.etag).toBe(gzipTag);
    expect((await page({ 'accept-encoding': 'gzip', 'if-none-match': `W/${gzipTag}` })).statusCode).toBe(304);
    // a refused gzip (q=0) gets the page as it is, with its tag
    const refused = await page({ 'accept-encoding': 'gzip;q=0, deflate' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.headers.etag).toBe(identityTag);
  });
});
