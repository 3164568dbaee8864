import { beforeEach, describe, expect, it } from 'vitest';
import { type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { adForm, decide, goodFields, liveAd, type Place } from '../ads/ads.testkit.ts';
import { renderedSiteEach } from './site.testkit.ts';

// What crawlers see: one URL per page (its other spellings answer 301 there, sharing its cached
// page), the sitemap's hreflang set as the page's own, and an ad's lastmod after an approved edit.
// The real build (dist/.ssr), real HTTP through app.inject, PUBLIC_URL https://xg.example.

const site = renderedSiteEach();
let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(() => ({ ctx, owner, admin, ny } = site));

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });
/** The status and, for a redirect, where it sends the browser (absolute, as a browser reads it). */
const answerOf = async (url: string) => {
  const res = await get(url);
  const location = res.headers.location && new URL(String(res.headers.location), 'https://xg.example').href;
  return `${res.statusCode}${location ? ` ${location}` : ''}`;
};
const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';
const alternatesOf = (html: string) =>
  Object.fromEntries([...html.matchAll(/<link rel="alternate" hreflang="([^"]*)" href="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')]));

describe('one URL per page', () => {
  // Page 1 spelled ?page=1, ?page=01, ?page=0 or ?page=abc, and parameters a page does not read
  // (?page= on the FAQ) are the canonical page: each used to be rendered and kept as a page of its
  // own, so junk links filled the page cache with copies of one page, pushing the real ones out.
  it('sends the spellings of a page to its URL, from its cached page, without a new cache entry', async () => {
    await liveAd(ctx, owner, admin, ny);
    const city = `/listings/us/new-york/${ny.citySlug}/female-escorts`;
    const pages = ctx.app.deps.services.site.pages;
    for (const canonical of [city, '/faq']) {
      await get(canonical);
      await get(canonical);
    }
    expect(pages.size).toBe(2);
    const answers: Record<string, string> = {};
    for (const url of [`${city}?page=1`, `${city}?page=01`, `${city}?page=0`, `${city}?page=abc`, '/faq?page=7', '/faq?query=x', '/faq?letter=q']) {
      answers[url] = await answerOf(url);
      await get(url);
    }
    expect(answers).toEqual({
      [`${city}?page=1`]: `301 https://xg.example${city}`,
      [`${city}?page=01`]: `301 https://xg.example${city}`,
      [`${city}?page=0`]: `301 https://xg.example${city}`,
      [`${city}?page=abc`]: `301 https://xg.example${city}`,
      '/faq?page=7': '301 https://xg.example/faq',
      '/faq?query=x': '301 https://xg.example/faq',
      '/faq?letter=q': '301 https://xg.example/faq',
    });
    expect(pages.size).toBe(2);
    const moved = await get(`${city}?page=1`);
    expect(moved.headers['cache-control']).toBe('public, max-age=3600');
    expect(moved.body).toBe('');
  });

  // Only the spelling changes: what the page reads is kept (a type filter, named by its slug as the
  // page's own links do), and so are the parameters no page reads (utm_…), which do not split the
  // page's cache entry. A page that does not exist is not redirected (a page past the end, a
  // letter no city starts with): it answers 404 whatever its spelling.
  it('keeps what the page reads and the other parameters, and redirects only to a page that exists', async () => {
    await liveAd(ctx, owner, admin, ny);
    const city = `/listings/us/new-york/${ny.citySlug}/female-escorts`;
    expect({
      utm: await answerOf('/faq?utm_source=x'),
      utmAndJunk: await answerOf('/faq?page=7&utm_source=x'),
      typeCode: await answerOf('/listings/us/new-york?type=female_esc&utm_source=x'),
      typeSlug: await answerOf('/listings/us/new-york?type=female-escorts'),
      unknownType: await answerOf('/listings/us?type=dogs'),
      pastTheEnd: await answerOf(`${city}?page=2`),
      pastTheEndSpelledOtherwise: await answerOf(`${city}?page=02`),
      noSuchLetter: await answerOf('/listings/us/new-york?letter=Q'),
      search: await answerOf('/search?query=blonde&page=1&type=female-escorts&state='),
      searchItself: await answerOf('/search?query=blonde&type=female_esc'),
      // the browser's own pages read their query themselves: the dashboard's search, sign-in
      signIn: await answerOf('/auth/login?page=1&redirect=%2Ffaq'),
      dashboard: await answerOf('/admin/dashboard/admin/search-ads?query=x&page=1'),
    }).toEqual({
      utm: '200',
      utmAndJunk: '301 https://xg.example/faq?utm_source=x',
      typeCode: '301 https://xg.example/listings/us/new-york?type=female-escorts&utm_source=x',
      typeSlug: '200',
      unknownType: '404',
      pastTheEnd: '404',
      pastTheEndSpelledOtherwise: '404',
      noSuchLetter: '404',
      search: '301 https://xg.example/search?query=blonde&type=female_esc',
      searchItself: '200',
      signIn: '200',
      dashboard: '200',
    });
    // ?page=03 is ?page=3: one kept 404, not two
    const missing = ctx.app.deps.services.site['missing'];
    const before = missing.size;
    for (const url of [`${city}?page=03`, `${city}?page=3`, `${city}?page=03`, `${city}?page=3`]) await get(url);
    expect({ added: missing.size - before, kept: missing.has(`${city}?page=3`) }).toEqual({ added: 1, kept: true });
  });

  // A trailing slash is another spelling too (/es/ and /es, /faq/ and /faq): one 301 to the page's
  // URL, its query kept (and spelled as the page reads it: one hop); never a path no route names,
  // so //evil.example/ does not send a browser to //evil.example.
  it('redirects trailing-slash spellings of a page to its URL, once', async () => {
    const answers: Record<string, string> = {};
    for (const url of [
      '/es/',
      '/pt/',
      '/faq/',
      '/faq//',
      '/listings/us/',
      '/listings/us/new-york/',
      '/es/listings/us/new-york/?type=female_esc&utm_source=x',
      '/',
      '//evil.example/',
      '/no-such-page/',
      '/auth/login/',
    ]) {
      answers[url] = await answerOf(url);
    }
    expect(answers).toEqual({
      '/es/': '301 https://xg.example/es',
      '/pt/': '301 https://xg.example/pt',
      '/faq/': '301 https://xg.example/faq',
      '/faq//': '301 https://xg.example/faq',
      '/listings/us/': '301 https://xg.example/listings/us',
      '/listings/us/new-york/': '301 https://xg.example/listings/us/new-york',
      '/es/listings/us/new-york/?type=female_esc&utm_source=x': '301 https://xg.example/es/listings/us/new-york?type=female-escorts&utm_source=x',
      '/': '200',
      '//evil.example/': '404',
      '/no-such-page/': '404',
      '/auth/login/': '200',
    });
  });

  // The bar's logo links a language's home by its URL (/es, as its canonical and hreflang say),
  // not /es/. (The footer and the drawer still link /es/, which the redirect above covers.)
  it("links the logo to the language's home by its URL", async () => {
    const logo = (html: string) => /<a href="([^"]*)"[^>]*><span[^>]*>XG<\/span>/.exec(rootOf(html))?.[1];
    expect({
      en: logo((await get('/faq')).body),
      es: logo((await get('/es/faq')).body),
      pt: logo((await get('/pt')).body),
    }).toEqual({ en: '/', es: '/es', pt: '/pt' });
  });
});

describe('the sitemap', () => {
  // A sitemap's <lastmod> is when the page last changed (Google recrawls by it): an approved edit
  // of a live ad changes its page, so its lastmod moves to that approval (it stayed at the last bump).
  it("moves an ad's lastmod when an approved edit changes its page", async () => {
    const ad = (await liveAd(ctx, owner, admin, ny, { title: 'The approved original title' })) as unknown as { id: string; photos: { url: string }[] };
    const lastmodOf = async () => {
      const xml = (await get('/sitemaps/ads-new-york-1.xml')).body;
      return new RegExp(`<loc>https://xg\\.example/ad/${ad.id}</loc><lastmod>([^<]*)</lastmod>`).exec(xml)?.[1];
    };
    const before = await lastmodOf();
    ctx.clock.advance(2 * DAY_MS);
    const keepPhotos = JSON.stringify(ad.photos.map((p) => p.url));
    const edited = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: adForm({ ...goodFields(ny, { title: 'The revised and better title' }), keepPhotos }, []),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // an edit waiting for review changes nothing public
    expect(await lastmodOf()).toBe(before);
    ctx.clock.advance(DAY_MS);
    const queue = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-pending-ads', headers: { cookie: admin.cookie } })).json();
    const revision = queue.pendingAds.find((a: { revisionOf?: string }) => a.revisionOf === ad.id);
    expect((await decide(ctx, admin, [revision.id], 'approve')).json()).toEqual({ updated: 1 });
    const approvedAt = ctx.clock.now().toISOString();
    expect((await get(`/ad/${ad.id}`)).body).toContain('<title>The revised and better title | XG Marketplace</title>');
    expect({ before: before! < approvedAt, after: await lastmodOf() }).toEqual({ before: true, after: approvedAt });
  });

  // hreflang given twice must say the same thing (Google: every method lists the same complete
  // set): each page's HTML names en, es, pt and x-default; the sitemap left x-default out.
  it('gives the same hreflang set as the page, x-default included', async () => {
    await liveAd(ctx, owner, admin, ny);
    const pagesXml = (await get('/sitemaps/pages-1.xml')).body;
    const adsXml = (await get('/sitemaps/ads-new-york-1.xml')).body;
    for (const [xml, path] of [
      [pagesXml, '/es/faq'],
      [pagesXml, '/pt'],
      [pagesXml, '/listings/us/new-york'],
      [adsXml, /<loc>https:\/\/xg\.example(\/ad\/[^<]+)<\/loc>/.exec(adsXml)![1]],
    ]) {
      const html = alternatesOf((await get(path)).body);
      const loc = `https://xg.example${path}`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      const entry = new RegExp(`<url><loc>${loc}</loc>(.*?)</url>`).exec(xml)?.[1] ?? '';
      const inSitemap = Object.fromEntries([...entry.matchAll(/hreflang="([^"]*)" href="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      expect(Object.keys(html), path).toEqual(['en', 'es', 'pt', 'x-default']);
      expect(inSitemap, path).toEqual(html);
    }
  });
});
