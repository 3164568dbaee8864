import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, startServer, type RunningServer } from './harness.ts';

// The public pages after hydration and client-side navigation, in Chromium: the head must be what
// the server writes for the URL (read here with script off), a link must land on the new page
// (focus on it, at its top), and back/forward must leave the browser's scroll restoration alone.
// Setup: 42 live ads in Buffalo NY (3 pages) and one in St. Louis MO.

const stamp = Date.now().toString(36);
const CITY = '/listings/us/new-york/buffalo/female-escorts';
let server: RunningServer;
let browser: Browser;
let staffReq: APIRequestContext;
const buffaloAds: string[] = [];
let stlAd = '';
let stlSlug = '';
let stlName = '';

async function api(request: APIRequestContext, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown, status = 200) {
  const res = await request.fetch(url, { method, headers: { origin: server.url }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(status);
  return res.json();
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const staff = await (await newContext(browser, server)).newPage();
  const prov = await (await newContext(browser, server)).newPage();
  staffReq = staff.request;
  await api(staffReq, 'POST', '/api/login', { email: server.master.email, password: server.master.password });
  const promo = `NH-${stamp.toUpperCase()}`;
  await api(staffReq, 'POST', '/api/admin/set-promo-code-by-id', { code: promo, amountCents: 1_000_000, maxUses: 1, active: true, expiresAt: null }, 201);
  const me = await api(
    prov.request,
    'POST',
    '/api/register',
    { email: `nh-${stamp}@e2e.test`, nickname: `nh_${stamp}`, password: 'provider-password-e2e' },
    201,
  );
  const wallet = (await api(prov.request, 'POST', '/api/create-promo-wallet', {})).wallet;
  await api(prov.request, 'POST', '/api/add-promo-code-to-promo-wallet', { code: promo });
  const buffalo = (await api(prov.request, 'GET', '/api/cities-from-state/ny')).cities.find((c: { name: string }) => c.name === 'Buffalo');
  const stl = ((await api(prov.request, 'GET', '/api/cities-from-state/mo')).cities as Array<{ id: string; name: string; slug: string }>).find((c) =>
    /^St\.? Louis$/.test(c.name),
  )!;
  stlSlug = stl.slug;
  stlName = stl.name;
  const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 90, g: 60, b: 150 } } })
    .jpeg()
    .toBuffer();
  const post = async (title: string, stateId: string, cityId: string) => {
    const posted = await prov.request.post('/api/post-ad', {
      headers: { origin: server.url },
      multipart: {
        listingType: 'female_esc',
        title,
        description: `Quiet dinners by the harbour, long walks and good conversation. Friendly and discreet. ${stamp}`,
        age: '29',
        stateId,
        cityId,
        phone: '(716) 555-0177',
        photos: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo },
      },
    });
    expect(posted.status(), await posted.text()).toBe(201);
    const id = (await posted.json()).ad.id as string;
    await api(prov.request, 'PUT', `/api/ad-payment-in-cart/${id}`, { walletId: wallet.id });
    return id;
  };
  for (let i = 0; i < 42; i++) buffaloAds.push(await post(`Harbour evening number ${i} ${stamp}`, 'ny', buffalo.id));
  stlAd = await post(`Gateway arch evening ${stamp}`, 'mo', stl.id);
  await api(staffReq, 'POST', '/api/admin/approve-pending-ads', { adIds: [...buffaloAds, stlAd], decision: 'approve' });
  await api(staffReq, 'POST', '/api/master/update-user-status', { userId: me.id, status: 'approved' });
  await prov.context().close();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function headOf(page: Page) {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    robots: document.querySelector('meta[name="robots"]')?.getAttribute('content') ?? null,
    alternates: [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => `${l.getAttribute('hreflang')} ${l.getAttribute('href')}`).sort(),
  }));
}

/** What the server writes for `url`, read by a fresh page with script off, and its status. */
async function serverHead(url: string) {
  const ctx = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false });
  const p = await ctx.newPage();
  const res = await p.goto(url);
  const head = await headOf(p);
  await ctx.close();
  return { status: res?.status(), head };
}

/** The head once the page has settled (its data loaded, the lazy head code run). */
async function settledHead(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  return headOf(page);
}

describe('the head after hydration and client-side navigation', () => {
  // A list page past its last page (or a state's letter no city starts with) is a 404 the server
  // writes with the "Page not found" head and noindex: hydration must leave it alone, not give it
  // the list page's title, hreflang alternates and a canonical with the query.
  it('a server 404 for a list page past the end keeps its "Page not found" head and noindex after hydration', async () => {
    const ctx = await newContext(browser, server);
    const page = await ctx.newPage();
    for (const url of [`${CITY}?page=9`, '/listings/us/new-york?letter=b']) {
      const want = await serverHead(url);
      expect(want.status, url).toBe(404);
      expect(want.head.robots).toBe('noindex');
      await page.goto(url);
      expect({ url, head: await settledHead(page) }).toEqual({ url, head: want.head });
    }
    await ctx.close();
  });

  // Following links to a city page, to another type with no ads and to a state page gives the
  // server's head for that URL: the real names from the database ("St. Louis", "District of
  // Columbia", not made from the slugs), and noindex for an empty list.
  it('a city or state page reached by a link gets the same head as the server writes for it', async () => {
    const ctx = await newContext(browser, server);
    const page = await ctx.newPage();
    const got: Array<{ url: string; head: Awaited<ReturnType<typeof headOf>> }> = [];
    const want: typeof got = [];
    const take = async () => {
      const url = new URL(page.url()).pathname;
      got.push({ url, head: await settledHead(page) });
      want.push({ url, head: (await serverHead(url)).head });
    };
    await page.goto(`/ad/${stlAd}`);
    await page.getByRole('link', { name: new RegExp(`in ${stlName.replace('.', '\\.')}`) }).click();
    await page.waitForURL(`**/listings/us/missouri/${stlSlug}/female-escorts`);
    await take();
    await page.getByRole('link', { name: 'Female body rubs' }).click();
    await page.waitForURL(`**/listings/us/missouri/${stlSlug}/female-bodyrubs`);
    await take();
    await page.goto('/listings/us');
    await page.getByRole('link', { name: 'District of Columbia' }).first().click();
    await page.waitForURL('**/listings/us/district-of-columbia');
    await take();
    expect(got).toEqual(want);
    expect(got[1].head.robots).toBe('noindex');
    expect(got[0].head.title).toContain(stlName);
    await ctx.close();
  });

  // An ad removed while the visitor browsed, or a city that does not exist opened in another
  // language, is a 404 page: its head must be the server's 404 head ("Page not found" in the
  // page's language, noindex, no hreflang alternates), not a generic "Ad" or city title.
  it('a missing ad or unknown city reached in the app gets the 404 head the server writes', async () => {
    const ctx = await newContext(browser, server);
    const page = await ctx.newPage();
    await page.goto(CITY);
    const gone = buffaloAds[buffaloAds.length - 1];
    await api(staffReq, 'POST', '/api/admin/set-status-approved-ads', { adIds: [gone], status: 'disabled' });
    await page.locator(`a[href="/ad/${gone}"]`).click();
    await page.waitForURL(`**/ad/${gone}`);
    await page.getByText('This ad is not available').waitFor();
    const adHead = await settledHead(page);
    const adWant = await serverHead(`/ad/${gone}`);
    expect(adWant.status).toBe(404);

    const nowhere = '/listings/us/new-york/nowhere-town/female-escorts';
    await page.goto(nowhere);
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('link', { name: 'Español' }).click();
    await page.waitForURL(`**/es${nowhere}`);
    await page.getByRole('heading', { name: 'Página no encontrada' }).waitFor();
    const cityHead = await settledHead(page);
    const cityWant = await serverHead(`/es${nowhere}`);
    expect(cityWant.status).toBe(404);
    expect([adHead, cityHead]).toEqual([adWant.head, cityWant.head]);
    await ctx.close();
  });
});

describe('focus and scroll after client-side navigation', () => {
  const focusOf = (page: Page) =>
    page.evaluate(() => {
      const a = document.activeElement;
      return { tag: a?.tagName ?? null, inMain: !!a?.closest('main') };
    });

  // A keyboard or screen-reader user who follows a link lands on the new page: focus moves to its
  // h1 or its <main> (tabindex=-1), not dropped to <body>, where a screen reader announces nothing
  // and Tab starts again from the top.
  it('following a card link with the keyboard moves focus to the new page', async () => {
    const ctx = await newContext(browser, server);
    const page = await ctx.newPage();
    await page.goto(CITY);
    const card = page.locator('main a[href^="/ad/"]').first();
    const href = (await card.getAttribute('href'))!;
    const title = (await card.locator('h3').textContent())!;
    await card.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${href}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.waitForTimeout(300);
    expect(await focusOf(page)).toEqual({ tag: expect.stringMatching(/^(MAIN|H1)$/), inMain: true });
    await ctx.close();
  });

  // A link to another page opens it at its top, as a full page load would: a visitor who pressed
  // "Page 1" at the bottom of page 2 sees page 1's first ads, not its bottom. Back returns to
  // where the visitor was on page 2 (the browser's own scroll restoration, left alone).
  it('another list page opens at its top, and Back returns to where the visitor was', async () => {
    const ctx = await newContext(browser, server);
    const page = await ctx.newPage();
    await page.goto(CITY);
    await page.getByRole('link', { name: 'Page 2' }).click();
    await page.waitForURL('**?page=2');
    await page.getByRole('heading', { name: /Harbour evening number 10 / }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const bottom = await page.evaluate(() => scrollY);
    expect(bottom).toBeGreaterThan(500);
    await page.getByRole('link', { name: 'Page 1' }).click();
    await page.waitForURL((u) => u.pathname === CITY && !u.search);
    await page.getByRole('heading', { name: /Harbour evening number 30 / }).waitFor();
    await page.waitForTimeout(400);
    expect(await page.evaluate(() => scrollY)).toBe(0);
    expect(await focusOf(page)).toEqual({ tag: expect.stringMatching(/^(MAIN|H1)$/), inMain: true });
    await page.goBack();
    await page.waitForURL('**?page=2');
    await page.getByRole('heading', { name: /Harbour evening number 10 / }).waitFor();
    await page.waitForTimeout(400);
    expect(await page.evaluate(() => scrollY)).toBe(bottom);
    await ctx.close();
  });
});
