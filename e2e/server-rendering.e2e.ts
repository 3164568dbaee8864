import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, startServer, type RunningServer } from './harness.ts';

// Public pages come rendered by the server (issue #15): Chromium hydrates each of them with no
// warning and no second fetch of its data, nothing moves as it loads, and client-side navigation
// runs the same loaders through the API.

const stamp = Date.now().toString(36);
const TITLE = `Harbour evenings ${stamp} in Buffalo`;
const WORD = `harbour${stamp}`;
const provider = { email: `ssr-${stamp}@e2e.test`, nickname: `ssr_${stamp}`, password: 'provider-password-e2e' };

let server: RunningServer;
let browser: Browser;
let adId: string;

/** A JSON call (state changes carry our Origin, as the app's own calls do). */
async function api(request: APIRequestContext, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown, status = 200) {
  const res = await request.fetch(url, { method, headers: { origin: server.url }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(status);
  return res.json();
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // A live ad in Buffalo, with a photo, set up through the API.
  const staff = await (await newContext(browser, server)).newPage();
  const prov = await (await newContext(browser, server)).newPage();
  await api(staff.request, 'POST', '/api/login', { email: server.master.email, password: server.master.password });
  const promo = `SSR-${stamp.toUpperCase()}`;
  await api(staff.request, 'POST', '/api/admin/set-promo-code-by-id', { code: promo, amountCents: 5000, maxUses: 1, active: true, expiresAt: null }, 201);
  const me = await api(prov.request, 'POST', '/api/register', provider, 201);
  const wallet = (await api(prov.request, 'POST', '/api/create-promo-wallet', {})).wallet;
  await api(prov.request, 'POST', '/api/add-promo-code-to-promo-wallet', { code: promo });
  const buffalo = (await api(prov.request, 'GET', '/api/cities-from-state/ny')).cities.find((c: { name: string }) => c.name === 'Buffalo');
  const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 90, g: 60, b: 150 } } })
    .jpeg()
    .toBuffer();
  const posted = await prov.request.post('/api/post-ad', {
    headers: { origin: server.url },
    multipart: {
      listingType: 'female_esc',
      title: TITLE,
      description: `Quiet dinners by the harbour, long walks and good conversation. Friendly and discreet. ${WORD}`,
      age: '29',
      stateId: 'ny',
      cityId: buffalo.id,
      phone: '(716) 555-0177',
      photos: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo },
    },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  adId = (await posted.json()).ad.id;
  await api(prov.request, 'PUT', `/api/ad-payment-in-cart/${adId}`, { walletId: wallet.id });
  await api(staff.request, 'POST', '/api/admin/approve-pending-ads', { adIds: [adId], decision: 'approve' });
  await api(staff.request, 'POST', '/api/master/update-user-status', { userId: me.id, status: 'approved' });
  await staff.context().close();
  await prov.context().close();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const PUBLIC_DATA = /\/api\/(listings|search|ads\/|home|users-ads-aggregate|states-from-country)/;

/** Opens `url` and reports what the console said and which data the page asked the API for. */
async function visit(page: Page, url: string) {
  const messages: string[] = [];
  const dataCalls: string[] = [];
  page.on('console', (m) => {
    // A page that does not exist answers 404 on purpose; Chromium says so about the document.
    const document = m.location().url === new URL(url, server.url).href && m.text().startsWith('Failed to load resource');
    if ((m.type() === 'error' || m.type() === 'warning') && !document) messages.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    if (PUBLIC_DATA.test(r.url())) dataCalls.push(r.url());
  });
  const res = await page.goto(url); // waits for hydration (harness)
  await page.waitForLoadState('networkidle');
  return { status: res?.status(), messages, dataCalls };
}

/**
 * Records the page's layout shifts in `window.shifts`, each with what moved (element, rectangles
 * before and after, and whether React had hydrated yet), so a failure says what to look at.
 */
async function recordShifts(ctx: BrowserContext) {
  await ctx.addInitScript(() => {
    type Rect = { x: number; y: number; width: number; height: number };
    type Shift = { value: number; hadRecentInput: boolean; startTime: number; sources: Array<{ node: Node | null; previousRect: Rect; currentRect: Rect }> };
    const w = window as unknown as { shifts: unknown[] };
    w.shifts = [];
    const name = (n: Node | null) =>
      n instanceof Element
        ? `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ''}${n.className && typeof n.className === 'string' ? `.${n.className.split(' ').join('.')}` : ''} "${(n.textContent ?? '').slice(0, 40)}"`
        : String(n?.nodeName);
    const box = (r: Rect) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as Shift[]) {
        if (e.hadRecentInput) continue;
        w.shifts.push({
          value: e.value,
          at: Math.round(e.startTime),
          hydrated: document.documentElement.dataset.hydrated === 'true',
          moved: e.sources.map((m) => `${name(m.node)} ${box(m.previousRect)} -> ${box(m.currentRect)}`),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The sum of the page's layout shifts, with the details for a failure's message. */
async function shiftsOf(page: Page) {
  const shifts = await page.evaluate(() => (window as unknown as { shifts: Array<{ value: number }> }).shifts);
  return { cls: shifts.reduce((sum, x) => sum + x.value, 0), shifts };
}

describe('server-rendered pages', () => {
  it('curl sees an ad page with its title, description and photos, a city page with its ads, and 404 for a missing ad', async () => {
    const ctx = await newContext(browser, server);
    const adHtml = await (await ctx.request.get(`/ad/${adId}`)).text();
    expect(adHtml).toContain(`<title>${TITLE} | XG Marketplace</title>`);
    expect(adHtml).toContain(`<meta property="og:image" content="${server.url}/uploads/ads/`);
    const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(adHtml).toMatch(new RegExp(`<h1 dir="auto"[^>]*>${literally(TITLE)}</h1>`));
    expect(adHtml).toContain('Quiet dinners by the harbour');
    expect(adHtml).toMatch(/<img [^>]*src="\/uploads\/ads\/[^"]+\.webp" srcSet="[^"]+ 400w, [^"]+ 1200w"/);
    const city = await (await ctx.request.get('/listings/us/new-york/buffalo/female-escorts')).text();
    expect(city).toMatch(new RegExp(`<h3 dir="auto"[^>]*>${literally(TITLE)}</h3>`));
    const missing = await ctx.request.get('/ad/nosuchad123');
    expect(missing.status()).toBe(404);
    await ctx.close();
  });

  it('every public page hydrates in Chromium with no warning or error, and without fetching its data again', async () => {
    const ctx = await newContext(browser, server);
    for (const [url, status] of [
      ['/', 200],
      ['/listings/us', 200],
      ['/listings/us?type=female-escorts', 200],
      ['/listings/us/new-york', 200],
      ['/listings/us/new-york/buffalo/female-escorts', 200],
      [`/ad/${adId}`, 200],
      [`/search?query=${WORD}`, 200],
      ['/faq', 200],
      ['/report-crime', 200],
      ['/transparency', 200],
      ['/pt/transparency', 200],
      ['/es/listings/us/new-york/buffalo/female-escorts', 200],
      [`/pt/ad/${adId}`, 200],
      ['/ad/nosuchad123', 404],
      ['/no-such-page', 404],
    ] as const) {
      const page = await ctx.newPage();
      const r = await visit(page, url);
      expect(r.status, url).toBe(status);
      expect(r.messages, url).toEqual([]);
      expect(r.dataCalls, url).toEqual([]);
      await page.close();
    }
    await ctx.close();
  });

  it('nothing moves while a listing or an ad page loads on a phone (CLS)', async () => {
    const ctx = await newContext(browser, server, { viewport: { width: 375, height: 740 } });
    await recordShifts(ctx);
    for (const url of ['/', '/listings/us/new-york/buffalo/female-escorts', `/ad/${adId}`, '/listings/us/new-york']) {
      const page = await ctx.newPage();
      const r = await visit(page, url);
      await page.waitForTimeout(300);
      const { cls, shifts } = await shiftsOf(page);
      expect(cls, `${url}: ${JSON.stringify({ shifts, messages: r.messages, dataCalls: r.dataCalls }, null, 1)}`).toBeLessThanOrEqual(0.05);
      expect(r.messages, url).toEqual([]);
      await page.close();
    }
    await ctx.close();
  });

  it('nothing moves either when the HTML of a page arrives in two pieces, cut inside its footer (a slow line)', async () => {
    // A proxy in front of the server sends each HTML document in two pieces 600 ms apart, the
    // first ending inside the footer: Chromium paints the half-parsed page, then the rest. (A
    // footer anchored to the viewport's bottom grew upwards over the page here: CI saw 0.11.)
    const proxy = http.createServer((req, res) => {
      void (async () => {
        const up = await fetch(server.url + (req.url ?? '/'), {
          headers: { ...(req.headers as Record<string, string>), host: new URL(server.url).host, 'accept-encoding': 'identity' },
          redirect: 'manual',
        });
        const body = Buffer.from(await up.arrayBuffer());
        const headers: Record<string, string> = {};
        up.headers.forEach((v, k) => {
          if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) headers[k] = v;
        });
        res.writeHead(up.status, headers);
        const text = body.toString('utf8');
        const footer = (up.headers.get('content-type') ?? '').startsWith('text/html') ? text.indexOf('<footer') : -1;
        if (footer < 0) return void res.end(body);
        const cut = Buffer.byteLength(text.slice(0, footer + 400));
        res.write(body.subarray(0, cut));
        setTimeout(() => res.end(body.subarray(cut)), 600);
      })().catch((err: unknown) => res.destroy(err as Error));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const ctx = await newContext(browser, server, { viewport: { width: 375, height: 740 } });
      await recordShifts(ctx);
      for (const url of ['/listings/us/new-york', '/listings/us/new-york/buffalo/female-escorts', `/ad/${adId}`, '/', '/no-such-page']) {
        const page = await ctx.newPage();
        await page.goto(base + url);
        await page.waitForLoadState('networkidle');
        const { cls, shifts } = await shiftsOf(page);
        expect(cls, `${url}: ${JSON.stringify(shifts, null, 1)}`).toBeLessThanOrEqual(0.05);
        await page.close();
      }
      await ctx.close();
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('client-side navigation loads the next page through the API, with its own title', async () => {
    const ctx = await newContext(browser, server);
    const page = await ctx.newPage();
    await page.goto('/listings/us/new-york/buffalo/female-escorts');
    const asked = page.waitForRequest((r) => r.url().includes(`/api/ads/${adId}`));
    await page.getByRole('link', { name: new RegExp(TITLE) }).click();
    await asked;
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await expect.poll(() => page.title()).toBe(`${TITLE} | XG Marketplace`);
    await page.goBack();
    await page.getByRole('heading', { level: 3, name: TITLE }).waitFor();
    await ctx.close();
  });
});
