import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext } from '../../test/harness.ts';

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
    expect(api.json()).toEqual({ message: 'Not found.' });
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

  it('lists static pages and enabled states in every language, with alternates', async () => {
    await ctx.app.deps.db.updateTable('states').set({ enabled: 0 }).where('slug', '=', 'texas').execute();
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/xml/);
    const xml = res.body;
    for (const loc of [
      'https://xg.example/',
      'https://xg.example/es',
      'https://xg.example/pt/faq',
      'https://xg.example/report-crime',
      'https://xg.example/es/listings/us/new-york',
    ]) {
      expect(xml).toContain(`<loc>${loc}</loc>`);
    }
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="pt" href="https://xg.example/pt/listings/us/new-york"/>');
    expect(xml).not.toContain('/listings/us/texas<');
    expect(xml).not.toContain('/listings/us/new-york/');
    expect(xml).not.toContain('/auth/');
  });

  it('lists a city page only while a visible, unexpired ad is there', async () => {
    await insertAd('ad1', { online: 0, visible: 0 });
    await insertAd('ad2', { expires_at: '2026-01-01T00:00:00.000Z', listing_type: 'female_rub' });
    expect((await get('/sitemap.xml')).body).not.toContain('/listings/us/new-york/buffalo');
    await insertAd('ad3');
    const xml = (await get('/sitemap.xml')).body;
    expect(xml).toContain('<loc>https://xg.example/listings/us/new-york/buffalo/female-escorts</loc>');
    expect(xml).toContain('<loc>https://xg.example/es/listings/us/new-york/buffalo/female-escorts</loc>');
    expect(xml).not.toContain('buffalo/female-bodyrubs');
  });

  it('still answers without the ads table', async () => {
    ctx.app.deps.database.sqlite.exec('DROP TABLE ads');
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<loc>https://xg.example/listings/us/new-york</loc>');
  });

  it('robots.txt names the sitemap and keeps crawlers out of private pages', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toContain('Sitemap: https://xg.example/sitemap.xml');
    expect(res.body).toContain('Disallow: /admin/');
    expect(res.body).toContain('Disallow: /es/auth/');
    expect(res.body).toContain('Disallow: /api/');
  });
});
