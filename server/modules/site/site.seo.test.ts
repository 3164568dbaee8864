import { beforeEach, describe, expect, it } from 'vitest';
import { type TestContext, type TestUser } from '../../test/harness.ts';
import { liveAd, placeIn, type Place } from '../ads/ads.testkit.ts';
import { renderedSiteEach, walkSitemap } from './site.testkit.ts';

// The server-rendered public site as a crawler or a link preview reads it: the real build
// (dist/.ssr), real HTTP through app.inject, PUBLIC_URL https://xg.example.

const site = renderedSiteEach();
let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(() => ({ ctx, owner, admin, ny } = site));

const get = (url: string) => ctx.app.inject({ method: 'GET', url });
const canonicalOf = (html: string) => [...html.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
const alternatesOf = (html: string) =>
  Object.fromEntries([...html.matchAll(/<link rel="alternate" hreflang="([^"]*)" href="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')]));
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const rootText = (html: string) =>
  (/<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? /<div id="root">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '')
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const bootOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null') as {
    page: string;
    key: string | null;
    result: { status: number };
  } | null;

describe('SEO of the server-rendered pages', () => {
  // Page N (N > 1) of a city listing is a page of its own with its own ads, so its canonical and
  // its hreflang alternates name ?page=N (only page 1 drops the parameter), and its title says
  // which page it is. Google's guidance: never canonicalize page 2..n to page 1, or the ads linked
  // only from the deeper pages are not indexed.
  it('page 2 of a city listing names itself (?page=2) as canonical, in its hreflang alternates and in its title', async () => {
    for (let i = 0; i < 21; i++) await liveAd(ctx, owner, admin, ny, { title: `Elegant companion number ${i} downtown` });
    const base = `/listings/us/new-york/${ny.citySlug}/female-escorts`;
    const p1 = await get(base);
    const p2 = await get(`${base}?page=2&utm_source=x`);
    expect(p1.statusCode).toBe(200);
    expect(p2.statusCode).toBe(200);
    expect(p2.body).not.toContain('noindex');
    // different content: page 2 lists the 21st ad, page 1 the first 20
    expect(rootText(p2.body)).not.toBe(rootText(p1.body));
    expect(canonicalOf(p1.body)).toEqual([`https://xg.example${base}`]);
    expect(alternatesOf(p1.body).es).toBe(`https://xg.example/es${base}`);
    expect(titleOf(p1.body)).not.toMatch(/page/);
    expect({ canonical: canonicalOf(p2.body), alternates: alternatesOf(p2.body) }).toEqual({
      canonical: [`https://xg.example${base}?page=2`],
      alternates: {
        en: `https://xg.example${base}?page=2`,
        es: `https://xg.example/es${base}?page=2`,
        pt: `https://xg.example/pt${base}?page=2`,
        'x-default': `https://xg.example${base}?page=2`,
      },
    });
    expect(titleOf(p2.body)).toMatch(/ – page 2 \| XG Marketplace$/);
    const es = await get(`/es${base}?page=2`);
    expect(canonicalOf(es.body)).toEqual([`https://xg.example/es${base}?page=2`]);
    expect(titleOf(es.body)).toMatch(/ – página 2 \| XG Marketplace$/);
    expect(titleOf((await get(`/pt${base}?page=2`)).body)).toMatch(/ – página 2 \| XG Marketplace$/);
  });

  // A state page filtered by a first letter (?letter=b, as the state page links it) lists other
  // cities than the state page itself: it names itself as canonical, with its own title.
  it("a state's ?letter= page names itself as canonical and in its hreflang alternates", async () => {
    // 13 cities with ads: the 12 largest are shown on top, the 13th is reached by its letter.
    for (let n = 0; n < 13; n++) await liveAd(ctx, owner, admin, await placeIn(ctx, 'ny', n));
    const state = '/listings/us/new-york';
    const top = await get(state);
    expect(canonicalOf(top.body)).toEqual([`https://xg.example${state}`]);
    const letter = /\?letter=([a-z0-9])"/.exec(top.body)?.[1];
    expect(letter, 'a letter link on the state page').toBeDefined();
    // the letter in upper case is the same page: sent to its URL, in lower case as the page links it
    const upper = await get(`${state}?letter=${letter!.toUpperCase()}`);
    expect([upper.statusCode, upper.headers.location]).toEqual([301, `${state}?letter=${letter}`]);
    const res = await get(`${state}?letter=${letter}`);
    expect(res.statusCode).toBe(200);
    expect(canonicalOf(res.body)).toEqual([`https://xg.example${state}?letter=${letter}`]);
    expect(alternatesOf(res.body).es).toBe(`https://xg.example/es${state}?letter=${letter}`);
    expect(titleOf(res.body)).toContain(`cities starting with ${letter!.toUpperCase()}`);
    expect(titleOf(res.body)).not.toBe(titleOf(top.body));
  });

  // A 404 or 410 page has no versions in other languages: it carries no hreflang alternates (they
  // used to name /__not-found__, an internal placeholder that itself answers 404), and its own URL
  // as canonical.
  it('a 404 or 410 page carries no hreflang alternates', async () => {
    const gone = await liveAd(ctx, owner, admin, ny);
    await ctx.app.deps.db.deleteFrom('ads').where('id', '=', gone.id).execute();
    for (const url of ['/no-such-page', '/es/no-such-page', '/listings/us/atlantis', `/ad/${gone.id}`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(404);
      expect(res.body, url).toContain('<meta name="robots" content="noindex" />');
      expect(alternatesOf(res.body), url).toEqual({});
      expect(canonicalOf(res.body), url).toEqual([`https://xg.example${url}`]);
    }
  });

  // Every page the sitemap submits is rendered on the server: /transparency (en, es, pt) comes
  // with its heading and its figures in the HTML, and with its data embedded for the browser to
  // hydrate without asking again.
  it('/transparency, listed in the sitemap, is served with its content and data rendered', async () => {
    await liveAd(ctx, owner, admin, ny); // one approval this month
    const { locs } = await walkSitemap(ctx);
    expect(locs).toContain('https://xg.example/transparency');
    expect(locs).toContain('https://xg.example/es/transparency');
    const en = await get('/transparency');
    const es = await get('/es/transparency');
    expect(en.statusCode).toBe(200);
    expect(en.body).not.toContain('noindex');
    expect(rootText(en.body)).toContain('Transparency report');
    expect(rootText(en.body)).toMatch(/Ads approved 1\b/);
    expect(rootText(es.body)).toContain('Informe de transparencia');
    expect(bootOf(en.body)).toMatchObject({ page: 'transparency', key: 'transparency', result: { status: 200 } });
  });

  // /index.html is not a second address of the site (a bare copy of the app shell, with no
  // canonical and an empty #root): it answers as /es/index.html does, with the 404 page.
  it('/index.html answers 404 as /es/index.html does, not 200 with the bare template', async () => {
    for (const url of ['/index.html', '/es/index.html']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('<meta name="robots" content="noindex" />');
    }
  });

  // A count of zero reads as real words in every language: CLDR's Portuguese rule puts 0 in the
  // "one" category, so without a zero form the home page printed "0 anúncio" for each listing type
  // without ads.
  it('the home page words a count of zero ads in each language ("nenhum anúncio", not "0 anúncio")', async () => {
    const pt = rootText((await get('/pt')).body);
    expect(pt).not.toMatch(/\b0 anúncio\b(?!s)/);
    expect(pt).toContain('nenhum anúncio');
    expect(rootText((await get('/es')).body)).toContain('ningún anuncio');
    expect(rootText((await get('/')).body)).toContain('no ads');
  });
});
