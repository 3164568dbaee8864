import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext, type TestUser } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { decide, fundedUsd, goodFields, jpegWithGps, liveAd, pay, placeIn, postAdRaw, type Place } from '../ads/ads.testkit.ts';
import { ServerSource } from './site.source.ts';
import { renderedSiteEach, walkSitemap } from './site.testkit.ts';

/** The hashed class the ad's title and description wrap with (CSS modules name it per build). */
const adTextClass = (root: string) => /<h1 dir="auto" class="([^"]*adText[^"]*)"/.exec(root)?.[1] ?? 'no adText class';
import { splitPreloads, type SsrModule } from './site.ssr.ts';

// Public pages rendered on the server from the real build (dist/.ssr/entry-server.js): what a
// crawler or a link preview reads without running script, and the status each page answers.

const site = renderedSiteEach();
let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(() => ({ ctx, owner, admin, ny } = site));

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });
/** The owner sets one of their ads online or offline. */
const flip = (id: string, online: boolean) =>
  ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${id}`, headers: { cookie: owner.cookie }, payload: { online } });
const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const meta = (html: string, key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];
/** The page's embedded data (the browser hydrates from it). */
const boot = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([^<]*)<\/script>/.exec(html)![1]);
const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';

const TITLE = 'Sunny afternoons by the lake';
const DESCRIPTION = 'Quiet dinners, long walks along the lake and good conversation. Friendly, discreet and punctual, by appointment only.';

/** A live ad with a photo large enough for two sizes (1000 × 750: a 400 px thumbnail). */
async function liveAdWithLargePhoto(fields: Record<string, string>) {
  const posted = await postAdRaw(ctx, owner, goodFields(ny, fields), [await jpegWithGps('#36c', 1000, 750)]);
  expect(posted.statusCode, posted.body).toBe(201);
  const ad = posted.json().ad as { id: string };
  expect((await pay(ctx, owner, ad.id, await fundedUsd(ctx, owner, 1500))).statusCode).toBe(200);
  expect((await decide(ctx, admin, [ad.id], 'approve')).statusCode).toBe(200);
  return ad;
}

describe('an ad page', () => {
  it('is rendered with its title, description, photos and Open Graph tags, and its data for the browser', async () => {
    const ad = await liveAdWithLargePhoto({ title: TITLE, description: `${DESCRIPTION} <script>alert(1)</script>` });
    const res = await get(`/ad/${ad.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    expect(title(html)).toBe(`${TITLE} | XG Marketplace`);
    expect(meta(html, 'description')!.startsWith('Quiet dinners, long walks')).toBe(true);
    expect(meta(html, 'description')!.length).toBeLessThanOrEqual(160);
    expect(meta(html, 'og:title')).toBe(`${TITLE} | XG Marketplace`);
    expect(meta(html, 'og:type')).toBe('article');
    const detail = (await get(`/api/ads/${ad.id}`)).json().ad;
    const photo = detail.photos[0];
    expect(meta(html, 'og:image')).toBe(`https://xg.example${photo.url}`);
    expect(meta(html, 'og:image:width')).toBe(String(photo.width));
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    expect(html).toContain(`<link rel="canonical" href="https://xg.example/ad/${ad.id}" />`);
    expect(html).not.toContain('noindex');
    // the content itself, as the browser will show it
    const root = rootOf(html);
    expect(root).toContain(`<h1 dir="auto" class="${adTextClass(root)}">${TITLE}</h1>`);
    expect(root).toContain('Quiet dinners, long walks along the lake');
    expect(root).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(root).not.toContain('<script>alert(1)');
    expect([photo.width, photo.thumbWidth]).toEqual([1000, 400]);
    expect(root).toMatch(new RegExp(`<img [^>]*src="${photo.url}" srcSet="${photo.thumbUrl} 400w, ${photo.url} 1000w" sizes="[^"]+"`));
    expect(root).toMatch(new RegExp(`<img [^>]*width="${photo.width}" height="${photo.height}"`));
    expect(root).toContain('href="tel:+12125550142"');
    // the largest image is asked for first, from the head
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toMatch(new RegExp(`<link rel="preload" as="image" [^>]*imageSrcSet="${photo.thumbUrl} ${photo.thumbWidth}w`, 'i'));
    // its data, once, with < escaped (no way out of the script element)
    const data = boot(html);
    expect(data).toMatchObject({ page: 'ad', key: `ad:${ad.id}`, result: { status: 200, data: { id: ad.id, title: TITLE } } });
    expect(data.ns).toEqual(expect.arrayContaining(['common', 'public', 'market']));
    expect(html.match(/id="__DATA__"/g)).toHaveLength(1);
    expect(/<script type="application\/json" id="__DATA__">[^<]*<\/script>/.exec(html)![0]).toContain('\\u003cscript>alert(1)');
  });

  it('is rendered in the page language', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, { title: TITLE });
    const html = (await get(`/es/ad/${ad.id}`)).body;
    expect(html).toContain('<html lang="es">');
    expect(rootOf(html)).toContain('Tipo de anuncio');
    expect(boot(html).ns).toContain('market');
  });

  it('answers 404 for an unknown or hidden ad and 410 for one that ran out or was deleted', async () => {
    const missing = await get('/ad/nope123');
    expect(missing.statusCode).toBe(404);
    expect(title(missing.body)).toBe('Page not found | XG Marketplace');
    expect(missing.body).toContain('<meta name="robots" content="noindex" />');
    expect(rootOf(missing.body)).toContain('This ad is not available.');

    const offline = await liveAd(ctx, owner, admin, ny);
    await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${offline.id}`, headers: { cookie: owner.cookie }, payload: { online: false } });
    expect((await get(`/ad/${offline.id}`)).statusCode).toBe(404);

    const deleted = await liveAd(ctx, owner, admin, ny);
    await ctx.app.deps.db.deleteFrom('ads').where('id', '=', deleted.id).execute();
    expect((await get(`/ad/${deleted.id}`)).statusCode).toBe(410);
    expect((await get(`/api/ads/${deleted.id}`)).json()).toEqual({ code: 'listings.ad_gone', message: 'This ad has been removed.' });

    const expiring = await liveAd(ctx, owner, admin, ny);
    expect((await get(`/ad/${expiring.id}`)).statusCode).toBe(200);
    ctx.clock.advance(30 * DAY_MS + 1);
    const gone = await get(`/ad/${expiring.id}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('<meta name="robots" content="noindex" />');
    expect((await get(`/api/ads/${expiring.id}`)).statusCode).toBe(410);
  });
});

describe('a kept 404 goes with what it depended on', () => {
  /** `n` public ads of the city, written at once (as a day of posts would leave them), the newest last. */
  function publicAds(place: Place, n: number, title: string): void {
    const now = ctx.clock.now().toISOString();
    const insert = ctx.app.deps.database.sqlite.prepare(
      `INSERT INTO ads (id, owner_id, listing_type, title, description, age, state_id, city_id, phone, photos_json, status, online,
         bump_seq, bumped_at, published_at, expires_at, created_at, updated_at, visible)
       VALUES (?, ?, 'female_esc', ?, ?, '30', ?, ?, '+12125550100', '[]', 'approved', 1, (SELECT coalesce(max(bump_seq), 0) + 1 FROM ads), ?, ?, ?, ?, ?, 1)`,
    );
    const expires = new Date(ctx.clock.now().getTime() + 30 * DAY_MS).toISOString();
    for (let i = 0; i < n; i++) insert.run(`bulk${i}x${n}`, owner.id, `${title} ${i}`, DESCRIPTION, place.stateId, place.cityId, now, now, expires, now, now);
  }

  it("a hidden ad's page: 404 while offline, the ad again once it is back, 410 once deleted while hidden", async () => {
    const ad = await liveAd(ctx, owner, admin, ny, { title: TITLE });
    expect((await flip(ad.id, false)).statusCode).toBe(200);
    expect((await get(`/ad/${ad.id}`)).statusCode).toBe(404);
    expect((await get(`/es/ad/${ad.id}`)).statusCode).toBe(404);
    expect((await flip(ad.id, true)).statusCode).toBe(200);
    const back = await get(`/ad/${ad.id}`);
    expect(back.statusCode).toBe(200);
    expect(title(back.body)).toBe(`${TITLE} | XG Marketplace`);
    expect((await get(`/es/ad/${ad.id}`)).statusCode).toBe(200);
    // hidden again, then deleted: gone for good
    expect((await flip(ad.id, false)).statusCode).toBe(200);
    expect((await get(`/ad/${ad.id}`)).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/ads/${ad.id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    expect((await get(`/ad/${ad.id}`)).statusCode).toBe(410);
  });

  it("an offline ad's page turns from 404 to 410 when its time runs out, with no write to say so", async () => {
    const ad = await liveAd(ctx, owner, admin, ny);
    expect((await flip(ad.id, false)).statusCode).toBe(200);
    ctx.clock.advance(30 * DAY_MS - 60_000); // a minute before its term ends: the 404 is kept, but not for the page cache's hour
    expect((await get(`/ad/${ad.id}`)).statusCode).toBe(404);
    ctx.clock.advance(120_000);
    expect((await get(`/ad/${ad.id}`)).statusCode).toBe(410);
  });

  it('a page past the end of a list or a search answers 404 until an ad makes it exist', async () => {
    publicAds(ny, 20, 'Harbor lights evening');
    const city = `/listings/us/new-york/${ny.citySlug}/female-escorts?page=2`;
    const search = '/search?query=harbor&page=2';
    expect((await get(city)).statusCode).toBe(404);
    expect((await get(search)).statusCode).toBe(404);
    const ad = await liveAd(ctx, owner, admin, ny, { title: 'Harbor walks and dinners' });
    const page2 = await get(city);
    expect(page2.statusCode).toBe(200);
    expect(rootOf(page2.body)).toContain('href="/ad/bulk0x20"'); // the oldest, pushed to page 2
    expect(rootOf(page2.body)).not.toContain(`href="/ad/${ad.id}"`);
    const found = await get(search);
    expect(found.statusCode).toBe(200);
    expect(rootOf(found.body)).toContain('href="/ad/bulk0x20"');
  });

  it('a page past the deepest one served (or any paging allows) is a rendered 404, not the client shell', async () => {
    await liveAd(ctx, owner, admin, ny, { title: 'Harbor walks and dinners' });
    const city = `/listings/us/new-york/${ny.citySlug}/female-escorts`;
    for (const url of [`${city}?page=501`, `${city}?page=20000`, '/search?query=harbor&page=11', '/search?query=harbor&page=20000']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('id="__DATA__"');
    }
  });

  // The shared rule refuses it as the API does (validation.search_required, PRODUCT §10): the page
  // asks for words, as for an empty query, rather than listing nothing.
  it('a search of signs alone (no word to look for) renders the search page asking for words', async () => {
    await liveAd(ctx, owner, admin, ny, { title: 'Harbor walks and dinners' });
    const res = await get('/search?query=%21%21');
    expect(res.statusCode).toBe(200);
    expect(boot(res.body).result.data.results).toBeNull();
    expect(rootOf(res.body)).toContain('You must enter search criteria');
  });
});

describe('listing pages', () => {
  it('a city page lists its ads, with real names, and 404 past its last page', async () => {
    const ad = await liveAd(ctx, owner, admin, ny, { title: TITLE });
    const url = `/listings/us/new-york/${ny.citySlug}/female-escorts`;
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    const cityName = (await get(`/api/ads/${ad.id}`)).json().ad.city.name as string;
    expect(title(res.body)).toBe(`Female escorts in ${cityName}, New York | XG Marketplace`);
    const root = rootOf(res.body);
    expect(root).toContain(`<h3 dir="auto">${TITLE}</h3>`);
    expect(root).toContain(`href="/ad/${ad.id}"`);
    expect(root).toContain('1 ad');
    expect(boot(res.body).result.data.page).toMatchObject({ total: 1, page: 1 });
    expect((await get(`${url}?page=2`)).statusCode).toBe(404);
    expect((await get(`/api/listings?state=new-york&city=${ny.citySlug}&type=female-escorts&page=2`)).statusCode).toBe(404);
    // an empty list exists (the place does) but is not worth indexing
    const empty = await get(`/listings/us/new-york/${ny.citySlug}/shemale-escorts`);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('<meta name="robots" content="noindex" />');
  });

  it('answers 404 for a path the browser routes but the site does not name, with the page the browser will hydrate', async () => {
    const type = await get(`/listings/us/new-york/${ny.citySlug}/robots`);
    expect(type.statusCode).toBe(404);
    expect(rootOf(type.body)).toContain('This listing type does not exist.');
    expect(boot(type.body).page).toBe('listingsCity');
    const upper = await get('/FAQ');
    expect(upper.statusCode).toBe(404);
    expect(boot(upper.body).page).toBe('faq');
    expect(upper.body).toContain('<meta name="robots" content="noindex" />');
  });

  it('unknown states, cities and listing types are 404', async () => {
    for (const url of [
      '/listings/us/atlantis',
      '/listings/us/new-york/atlantis/female-escorts',
      '/listings/us/new-york/buffalo/robots',
      '/es/listings/us/atlantis',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('<meta name="robots" content="noindex" />');
    }
  });

  it('the state page lists its cities with ads, largest first; the home page links each type to its own list', async () => {
    await liveAd(ctx, owner, admin, ny);
    const state = await get('/listings/us/new-york');
    expect(state.statusCode).toBe(200);
    expect(rootOf(state.body)).toContain(`href="/listings/us/new-york/${ny.citySlug}/female-escorts"`);
    const home = rootOf((await get('/')).body);
    expect(home).toContain('href="/listings/us?type=female-escorts"');
    expect(home).toContain('href="/listings/us?type=female-bodyrubs"');
    const us = rootOf((await get('/listings/us?type=female-escorts')).body);
    expect(us).toContain('href="/listings/us/new-york?type=female-escorts"');
    // its number comes from the states endpoint's service (one row a state), rendered in the page
    expect(us).toMatch(/href="\/listings\/us\/new-york\?type=female-escorts">New York<\/a>\s*<span[^>]*>\((<!-- -->)?1 ad(<!-- -->)?\)<\/span>/);
    expect(us).toMatch(/href="\/listings\/us\/texas\?type=female-escorts">Texas<\/a>\s*<span[^>]*>\((<!-- -->)?no ads(<!-- -->)?\)<\/span>/);
    expect((await get('/listings/us?type=dogs')).statusCode).toBe(404);
  });

  it('a state of many cities shows its largest in full and the others one first letter a page; an unused letter is 404, and a kept letter page goes with its ads', async () => {
    // 14 cities with one ad each: the 12 first by name are the largest (ties go by name), 2 are left
    const places = await Promise.all(Array.from({ length: 14 }, (_, i) => placeIn(ctx, 'ny', i)));
    const adIn = new Map<string, string>(); // city id → its ad's id
    for (const p of places) adIn.set(p.cityId, (await liveAd(ctx, owner, admin, p)).id);
    const named = await ctx.app.deps.db
      .selectFrom('cities')
      .select(['id', 'slug', 'name'])
      .where(
        'id',
        'in',
        places.map((p) => p.cityId),
      )
      .execute();
    named.sort((a, b) => a.name.localeCompare(b.name, 'en'));
    const [top, rest] = [named.slice(0, 12), named.slice(12)];
    const href = (slug: string) => `href="/listings/us/new-york/${slug}/female-escorts"`;

    const state = await get('/listings/us/new-york');
    expect(state.statusCode).toBe(200);
    const root = rootOf(state.body);
    for (const c of top) expect(root).toContain(href(c.slug));
    for (const c of rest) expect(root).not.toContain(href(c.slug));
    const letterOf = (name: string) => name.normalize('NFD').charAt(0).toUpperCase();
    const letter = letterOf(rest[0].name);
    expect(root).toContain(`href="/listings/us/new-york?letter=${letter.toLowerCase()}"`);

    // each letter is its own page (and its own cache entry): its cities are links there
    const page = await get(`/listings/us/new-york?letter=${letter.toLowerCase()}&utm_source=x`);
    expect(page.statusCode).toBe(200);
    const ofLetter = rest.filter((c) => letterOf(c.name) === letter);
    for (const c of ofLetter) expect(rootOf(page.body)).toContain(href(c.slug));
    expect(boot(page.body).result.data).toMatchObject({ letter, cities: ofLetter.map((c) => ({ slug: c.slug, name: c.name, count: 1 })) });
    expect(rootOf((await get('/listings/us/new-york')).body)).toBe(root);

    const unused = 'QXZ'.split('').find((l) => !rest.some((c) => letterOf(c.name) === l))!;
    const missing = await get(`/listings/us/new-york?letter=${unused.toLowerCase()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<meta name="robots" content="noindex" />');

    // A kept letter page goes with its cities' ads: their ads taken offline, the letter is 404
    // (its cities are no longer listed); back online, the kept 404 goes and the page is back.
    const online = (ids: string[], on: boolean) => Promise.all(ids.map((id) => flip(id, on)));
    const letterUrl = `/listings/us/new-york?letter=${letter.toLowerCase()}`;
    expect((await get(letterUrl)).statusCode).toBe(200);
    const theirAds = ofLetter.map((c) => adIn.get(c.id)!);
    for (const r of await online(theirAds, false)) expect(r.statusCode).toBe(200);
    expect((await get(letterUrl)).statusCode).toBe(404);
    expect((await get(letterUrl)).statusCode).toBe(404); // kept
    for (const r of await online(theirAds, true)) expect(r.statusCode).toBe(200);
    const back = await get(letterUrl);
    expect(back.statusCode).toBe(200);
    for (const c of ofLetter) expect(rootOf(back.body)).toContain(href(c.slug));
  });
});

describe('the document', () => {
  it('has no render-blocking stylesheet (its CSS is inline), and is sent compressed, with an ETag', async () => {
    const res = await get('/faq', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const html = brotliDecompressSync(res.rawPayload).toString();
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<link rel="stylesheet"(?![^>]*disabled)[^>]*>/);
    expect(rootOf(html)).toContain('<footer');
    // every part of a large page is written in place: no inline script (the CSP refuses them)
    const states = (await get('/listings/us')).body;
    expect(states.length).toBeGreaterThan(20_000);
    expect(rootOf(states)).not.toMatch(/<script|<template/);
    const gz = await get('/faq', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(html);
    expect((await get('/faq', { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': res.headers.etag as string })).statusCode).toBe(304);
    // each copy has its own tag: the brotli one does not confirm the gzip bytes
    expect(gz.headers.etag).toBe((res.headers.etag as string).replace(/-br"$/, '-gz"'));
    expect((await get('/faq', { 'accept-encoding': 'gzip', 'if-none-match': res.headers.etag as string })).statusCode).toBe(200);
    // the private files of the build are not served
    expect((await get('/.ssr/entry-server.js')).statusCode).toBe(404);
    expect((await get('/.vite/manifest.json')).statusCode).toBe(404);
  });

  it('is written as valid UTF-8 whatever characters its parts hold, with an ETag that follows its content', async () => {
    const words = 'Café “Ñandú” — 東京 🌸 naïve';
    const ad = await liveAdWithLargePhoto({ title: `${words} by the lake`, description: `${DESCRIPTION} ${words}` });
    const other = await liveAdWithLargePhoto({ title: TITLE, description: DESCRIPTION });
    for (const url of [`/es/ad/${ad.id}`, `/pt/ad/${ad.id}`, `/ad/${ad.id}`]) {
      const first = await get(url);
      const again = await get(url, { 'accept-encoding': 'br' });
      expect(first.statusCode, url).toBe(200);
      const bytes = first.rawPayload;
      expect(Number(first.headers['content-length'])).toBe(bytes.length);
      // every byte belongs to a character (nothing left over, no stray bytes): decoding and encoding again gives the same bytes
      expect(Buffer.from(bytes.toString('utf8')).equals(bytes)).toBe(true);
      expect(bytes.toString()).not.toContain('\ufffd');
      expect(title(first.body)).toBe(`${words} by the lake | XG Marketplace`);
      expect(rootOf(first.body)).toContain(`<h1 dir="auto" class="${adTextClass(rootOf(first.body))}">${words} by the lake</h1>`);
      expect(first.body).toContain('©');
      expect(first.body.trimEnd().endsWith('</html>')).toBe(true);
      expect(JSON.stringify(boot(first.body))).toContain(`${words} by the lake`);
      expect(brotliDecompressSync(again.rawPayload).equals(bytes)).toBe(true);
      expect(again.headers.etag).toBe(`${(first.headers.etag as string).slice(0, -1)}-br"`); // the same page, its brotli copy
      expect((await get(url.replace(ad.id, other.id))).headers.etag).not.toBe(first.headers.etag);
    }
  });

  it("keeps only a page's own part once its kind's head is compressed, and sends one stream that decodes to the page", async () => {
    const [a, b] = [await liveAdWithLargePhoto({ title: TITLE }), await liveAdWithLargePhoto({ title: `${TITLE} again` })];
    const site = ctx.app.deps.services.site;
    const br = { 'accept-encoding': 'gzip, deflate, br' };
    const first = await get(`/es/ad/${a.id}`, br); // makes the Spanish ad pages' head, off the event loop
    expect(brotliDecompressSync(first.rawPayload).toString()).toBe((await get(`/es/ad/${a.id}`)).body);
    await site.framesReady();
    const miss = await get(`/es/ad/${b.id}`, br);
    const plain = (await get(`/es/ad/${b.id}`)).rawPayload;
    expect(brotliDecompressSync(miss.rawPayload).equals(plain)).toBe(true);
    const kept = site.pages.get(`/es/ad/${b.id}`, ctx.clock.now().getTime())!.value;
    expect(kept.html).toBeNull();
    expect(kept.brTail!.length).toBe(kept.bytes);
    // the head (the template's start and the CSS) is shared: what is kept is a fraction of what is sent
    expect(kept.bytes).toBeLessThan(miss.rawPayload.length / 2);
    const hit = await get(`/es/ad/${b.id}`, br);
    expect(hit.rawPayload.equals(miss.rawPayload)).toBe(true);
    // the CSS comes first in the head, then the page's own tags
    const html = plain.toString();
    expect(html.indexOf('</style>')).toBeLessThan(html.indexOf('<title>'));
    expect(html.indexOf('<meta charset="UTF-8" />')).toBeLessThan(1024);
  });

  it('a page the server cannot render is served as the client app', async () => {
    ctx.app.deps.database.sqlite.exec('DROP TABLE ads_cards');
    const res = await get(`/listings/us/new-york/${ny.citySlug}/female-escorts`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(title(res.body)).toMatch(/^Female escorts in /);
  });

  it('sign-in and the dashboard stay client-rendered', async () => {
    for (const url of ['/auth/login', '/admin/dashboard/my-ads']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root"></div>');
      expect(res.body, url).not.toContain('__DATA__');
    }
  });
});

describe('the sitemap', () => {
  it('lists only pages that answer 200, ads included', async () => {
    const shown = await liveAd(ctx, owner, admin, ny);
    const hidden = await liveAd(ctx, owner, admin, await placeIn(ctx, 'tx'), { listingType: 'female_rub' });
    await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${hidden.id}`, headers: { cookie: owner.cookie }, payload: { online: false } });
    const locs = (await walkSitemap(ctx)).locs.map((l) => l.replace('https://xg.example', ''));
    expect(locs).toContain(`/listings/us/new-york/${ny.citySlug}/female-escorts`);
    expect(locs).toEqual(expect.arrayContaining([`/ad/${shown.id}`, `/es/ad/${shown.id}`, `/pt/ad/${shown.id}`]));
    expect(locs.some((l) => l.includes('female-bodyrubs') || l.includes(hidden.id))).toBe(false);
    for (const loc of locs.filter((l, i) => i % 7 === 0 || l.includes('/listings/us/new-york/') || l.includes('/ad/'))) {
      expect((await get(loc)).statusCode, loc).toBe(200);
    }
  });
});

describe('the renderer', () => {
  it('renders a page inside its language frame exactly as the whole tree renders it', async () => {
    const ssr = (await import(pathToFileURL(path.join(site.dist, '.ssr', 'entry-server.js')).href)) as SsrModule;
    const ad = await liveAd(ctx, owner, admin, ny, { title: TITLE });
    await liveAd(ctx, owner, admin, ny, { listingType: 'female_rub' });
    for (const url of [
      '/',
      '/es',
      '/listings/us',
      '/listings/us?type=female-escorts',
      '/pt/listings/us/new-york',
      `/listings/us/new-york/${ny.citySlug}/female-escorts`,
      `/es/listings/us/new-york/${ny.citySlug}/shemale-escorts`,
      `/ad/${ad.id}`,
      `/pt/ad/${ad.id}`,
      '/ad/nope123',
      '/search',
      `/search?query=${encodeURIComponent(TITLE.split(' ')[1])}`,
      '/es/search?query=nothing+matches&state=new-york&type=female-escorts',
      '/pt/search?query=a',
      '/search?query=ad&page=9',
      '/no-such-page',
    ]) {
      const framed = await ssr.render(url, new ServerSource(ctx.app.deps.services, ctx.app.deps.clock));
      const whole = await ssr.render(url, new ServerSource(ctx.app.deps.services, ctx.app.deps.clock), { whole: true });
      // the same page, and the same high-priority image preload (the icons' preloads are dropped anyway: splitPreloads)
      const page = (html: string) => {
        const p = splitPreloads(html);
        return [p.preloads, p.body];
      };
      expect(page(framed.html), url).toEqual(page(whole.html));
      expect(framed.ns.sort(), url).toEqual(whole.ns.sort());
    }
  });

  it('says every count and age with its own value, in each language, however often the same words were rendered before', async () => {
    // The renderer keeps each translation it worked out, by key and values (entry-server.tsx).
    const url = `/listings/us/new-york/${ny.citySlug}/female-escorts`;
    await liveAd(ctx, owner, admin, ny, { age: '27' });
    for (const prefix of ['', '/es']) {
      const one = rootOf((await get(`${prefix}${url}`)).body);
      expect(one).toContain(prefix ? '>1 anuncio<' : '>1 ad<');
      expect(one).toContain(prefix ? '27 años' : 'age 27');
    }
    await liveAd(ctx, owner, admin, ny, { age: '31' });
    await liveAd(ctx, owner, admin, ny, { age: '27' });
    const en = rootOf((await get(url)).body);
    expect(en).toContain('>3 ads<');
    expect(en).not.toContain('>1 ad<');
    expect(en.match(/age 27/g)).toHaveLength(2);
    expect(en.match(/age 31/g)).toHaveLength(1);
    const es = rootOf((await get(`/es${url}`)).body);
    expect(es).toContain('>3 anuncios<');
    expect(es.match(/27 años/g)).toHaveLength(2);
    expect(es.match(/31 años/g)).toHaveLength(1);
    expect(es).not.toContain('age 31');
  });

  it('is written in ASCII (one byte a character in the server’s memory) and still renders every character', async () => {
    const source = fs.readFileSync(path.join(site.dist, '.ssr', 'entry-server.js'));
    expect(source.findIndex((byte) => byte > 0x7f)).toBe(-1);
    // The translations' quotes and accents come out as they are written.
    const es = await get('/es/search?query=zzqx');
    expect(es.statusCode).toBe(200);
    expect(es.body).toContain('Ningún anuncio coincide con «zzqx».');
    expect((await get('/pt/search?query=zzqx')).body).toContain('Nenhum anúncio corresponde a “zzqx”.');
  });
});

describe('the page cache', () => {
  it('keeps pages while other places change, and drops exactly what a change touches', async () => {
    const tx = await placeIn(ctx, 'tx');
    const inNy = await liveAd(ctx, owner, admin, ny, { title: 'An ad in New York state' });
    const inTx = await liveAd(ctx, owner, admin, tx, { title: 'An ad in Texas state here' });
    const pages = ctx.app.deps.services.listings.caches.get('pages')!.stats;
    const nyUrl = `/listings/us/new-york/${ny.citySlug}/female-escorts`;
    const txUrl = `/listings/us/texas/${tx.citySlug}/female-escorts`;
    const seen = async (url: string, title: string) => rootOf((await get(url)).body).includes(title);

    expect(await seen(nyUrl, 'An ad in New York state')).toBe(true);
    expect(await seen(txUrl, 'An ad in Texas state here')).toBe(true);
    expect(await seen(`/ad/${inTx.id}`, 'An ad in Texas state here')).toBe(true);
    // asked for once: rendered, not kept; asked again: kept (Doorkeeper)
    expect(pages.misses).toBe(3);
    for (const url of [nyUrl, txUrl, `/ad/${inTx.id}`]) await get(url);
    expect(pages.misses).toBe(6);
    const before = { ...pages };
    await get(nyUrl);
    await get(txUrl);
    expect(pages.hits - before.hits).toBe(2);

    // New York's ad goes offline: its page and its city's list change, Texas's do not.
    await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${inNy.id}`, headers: { cookie: owner.cookie }, payload: { online: false } });
    const after = { ...pages };
    expect(await seen(txUrl, 'An ad in Texas state here')).toBe(true);
    expect(await seen(`/ad/${inTx.id}`, 'An ad in Texas state here')).toBe(true);
    expect(pages.hits - after.hits).toBe(2);
    expect(pages.misses - after.misses).toBe(0);
    expect(await seen(nyUrl, 'An ad in New York state')).toBe(false);
    expect(pages.misses - after.misses).toBe(1);

    // the API's answers follow the same rule
    const api = ctx.app.deps.services.listings.caches.get('api')!.stats;
    const txApi = `/api/listings?state=texas&city=${tx.citySlug}&type=female-escorts`;
    await get(txApi);
    await get(txApi);
    await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${inNy.id}`, headers: { cookie: owner.cookie }, payload: { online: true } });
    const hits = api.hits;
    expect((await get(txApi)).json().ads).toHaveLength(1);
    expect(api.hits - hits).toBe(1);
    expect(await seen(nyUrl, 'An ad in New York state')).toBe(true);
  });

  it('while the event loop is saturated, sends a first visit as it is, and still compresses the page it keeps', async () => {
    const load = { busy: true, close() {} };
    const busy = await createTestApp({ distDir: site.dist, env: { PUBLIC_URL: 'https://xg.example' }, load });
    try {
      const visit = (url: string) => busy.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      const first = await visit('/faq'); // asked for once: not kept, so not compressed either
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-encoding']).toBeUndefined();
      expect(first.headers.vary).toMatch(/accept-encoding/i);
      expect(rootOf(first.body)).toContain('<footer');
      const second = await visit('/faq'); // kept from its second asking: compressed, busy or not
      expect(second.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(second.rawPayload).toString()).toBe(first.body);
      expect(second.headers.etag).toBe(`${(first.headers.etag as string).slice(0, -1)}-br"`);
      expect((await visit('/faq')).rawPayload.equals(second.rawPayload)).toBe(true); // from the cache
      load.busy = false; // the loop has time again: a first visit is compressed
      const terms = await visit('/terms');
      expect(terms.headers['content-encoding']).toBe('br');
      expect(rootOf(brotliDecompressSync(terms.rawPayload).toString())).toContain('<footer');
    } finally {
      await busy.close();
    }
  });

  it('a static page is rendered at most twice (kept from its second asking on), whatever its query string', async () => {
    const pages = ctx.app.deps.services.listings.caches.get('pages')!.stats;
    await get('/terms');
    await get('/terms');
    const hits = pages.hits;
    await get('/terms?utm_source=newsletter');
    expect(pages.hits - hits).toBe(1);
  });
});
