import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startServer, waitForHydration, type RunningServer } from './harness.ts';

// The product on a phone (360 × 740 English, 320 × 740 Portuguese; touch, device scale factor 2):
// no screen scrolls sideways, a long ad title wraps, back-office fields do not make iOS zoom, the
// sticky top bar does not cover an in-page link's target, selection checkboxes are big enough for
// a finger. The data: one provider's ads whose titles hold a word longer than the screen (a pasted
// link, a long name: titles are 10–100 characters of anything): one approved, one in review, one
// unpaid in the cart. Fast on purpose: one server, one browser, one context per viewport, each
// screen loaded once.

let server: RunningServer;
let browser: Browser;
let phone360: { ctx: BrowserContext; page: Page };
let phone320: { ctx: BrowserContext; page: Page };
const stamp = Date.now().toString(36);
const LONGWORD = `Pneumonoultramicroscopicsilicovolcanoconiosis${stamp}Supercalifragilistic`;
const TITLE = `${LONGWORD}${'x'.repeat(100)}`.slice(0, 99);
let adId = '';
const provider = { email: `phone-${stamp}@e2e.test`, nickname: `ph_${stamp}`, password: 'provider-password-e2e' };

async function api(request: APIRequestContext, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown, status = 200) {
  const res = await request.fetch(url, { method, headers: { origin: server.url }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(status);
  return status === 204 ? null : res.json();
}

async function phone(width: number, locale: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ baseURL: server.url, viewport: { width, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale });
  await ctx.addCookies([{ name: 'over_18_user_confirmation', value: 'true', url: server.url }]);
  await ctx.addInitScript(() => {
    try {
      window.localStorage.setItem('over_18_user_confirmation', 'true');
      window.localStorage.setItem('over_18_user_confirmation_expires', String(Date.now() + 30 * 86400_000));
    } catch {
      /* storage unavailable */
    }
  });
  return { ctx, page: waitForHydration(await ctx.newPage()) };
}

async function signIn(p: { ctx: BrowserContext }, who: { email: string; password: string }) {
  await api(p.ctx.request, 'POST', '/api/login', { email: who.email, password: who.password });
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const staff = await browser.newContext({ baseURL: server.url });
  const prov = await browser.newContext({ baseURL: server.url });
  const guest = await browser.newContext({ baseURL: server.url });
  await api(staff.request, 'POST', '/api/login', server.master);
  const promo = `PH-${stamp.toUpperCase()}`;
  await api(staff.request, 'POST', '/api/admin/set-promo-code-by-id', { code: promo, amountCents: 90000, maxUses: 1, active: true, expiresAt: null }, 201);
  const me = await api(prov.request, 'POST', '/api/register', provider, 201);
  const wallet = (await api(prov.request, 'POST', '/api/create-promo-wallet', {})).wallet;
  await api(prov.request, 'POST', '/api/add-promo-code-to-promo-wallet', { code: promo });
  const buffalo = (await api(prov.request, 'GET', '/api/cities-from-state/ny')).cities.find((c: { name: string }) => c.name === 'Buffalo');
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 60, b: 150 } } })
    .jpeg()
    .toBuffer();
  const post = async (title: string, pay: boolean) => {
    const form = new FormData();
    const description = `Visit https://example.com/${'very-long-path-segment-'.repeat(8)}end and ${LONGWORD}${LONGWORD}. Calm, friendly, discreet company for dinners.`;
    const f: Record<string, string> = { listingType: 'female_esc', title, description, age: '29', stateId: 'ny', cityId: buffalo.id, phone: '(716) 555-0177' };
    for (const [k, v] of Object.entries(f)) form.append(k, v);
    form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'p.jpg');
    const posted = await prov.request.post('/api/post-ad', { headers: { origin: server.url }, multipart: form });
    expect(posted.status(), await posted.text()).toBe(201);
    const id = (await posted.json()).ad.id as string;
    if (pay) await api(prov.request, 'PUT', `/api/ad-payment-in-cart/${id}`, { walletId: wallet.id });
    return id;
  };
  adId = await post(TITLE, true);
  await api(staff.request, 'POST', '/api/admin/approve-pending-ads', { adIds: [adId], decision: 'approve' });
  await api(staff.request, 'POST', '/api/master/update-user-status', { userId: me.id, status: 'approved' });
  await post(`Pending ${LONGWORD}`.slice(0, 100), true); // in review
  await post(`Unpaid ${LONGWORD}`.slice(0, 100), false); // stays in the cart
  await api(guest.request, 'POST', '/api/analytics/pageview', { path: `/ad/${adId}`, locale: 'en' }, 204); // for page views' top ads
  await Promise.all([staff.close(), prov.close(), guest.close()]);
  phone360 = await phone(360, 'en-US');
  phone320 = await phone(320, 'pt-BR');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * The page's horizontal scroll width, and the outermost elements sticking out past a `width`
 * screen that no scrolling box clips (an absolutely positioned one is clipped only by a box around
 * its containing block, its nearest positioned ancestor).
 */
async function overflow(page: Page, width: number) {
  return page.evaluate((width) => {
    const clipped = (el: Element) => {
      let from = el.parentElement;
      if (getComputedStyle(el).position === 'absolute') {
        while (from && from !== document.body && getComputedStyle(from).position === 'static') from = from.parentElement;
      }
      for (let p = from; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX !== 'visible' || s.position === 'fixed') return true;
      }
      return false;
    };
    const bad = [...document.body.querySelectorAll('*')].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && getComputedStyle(el).position !== 'fixed' && r.right > width + 0.5 && !clipped(el);
    });
    const outer = bad.filter((el) => !bad.some((o) => o !== el && o.contains(el)));
    return {
      scrollWidth: document.scrollingElement!.scrollWidth,
      stickingOut: outer.slice(0, 4).map((el) => {
        const r = el.getBoundingClientRect();
        const text = ((el as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').slice(0, 40);
        return `<${el.tagName.toLowerCase()}${getComputedStyle(el).position === 'absolute' ? ' absolute' : ''}> right=${Math.round(r.right)} "${text}"`;
      }),
    };
  }, width);
}

/** The main area's text fields and selects under 16 px (iOS Safari zooms into those on focus). */
async function smallFields(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('main input:not([type=checkbox]):not([type=radio]):not([type=hidden]), main select, main textarea')]
      .filter((el) => parseFloat(getComputedStyle(el).fontSize) < 16)
      .map((el) => `${location.pathname} <${el.tagName.toLowerCase()} ${(el as HTMLInputElement).type}> ${getComputedStyle(el).fontSize}`),
  );
}

/** A selection checkbox's target for a finger (its label, when it has one): at least 24 × 24 px, and a tap near its corner checks the box. */
async function tapTarget(page: Page, name: RegExp) {
  const box = page.getByRole('checkbox', { name }).first();
  const label = box.locator('xpath=ancestor::label[1]');
  const target = (await label.count()) ? label : box;
  const r = (await target.boundingBox())!;
  await target.tap({ position: { x: 1, y: 1 } });
  const size = `${Math.round(r.width)} × ${Math.round(r.height)}`;
  return r.width >= 24 && r.height >= 24 && (await box.isChecked()) ? 'at least 24 × 24, checks on a tap' : `${size}, checked: ${await box.isChecked()}`;
}

async function open(page: Page, url: string, ready: () => Promise<unknown>) {
  await page.goto(url);
  await ready();
}

it('360 en, provider: my ads, my cart, the dashboard home’s recent activity and the edit-ad heading wrap a long title', async () => {
  const { page } = phone360;
  await signIn(phone360, provider);
  const seen: Record<string, unknown> = {};
  // The ad cards (.item/.itemBody of market.module.css): a long title ran out of the card and the page scrolled to ~900 px.
  await open(page, '/admin/dashboard/my-ads', () => page.getByRole('heading', { level: 2, name: new RegExp(`^${TITLE.slice(0, 20)}`) }).waitFor());
  seen.myAds = await overflow(page, 360);
  await open(page, '/admin/dashboard/my-cart', () => page.getByRole('heading', { level: 2, name: /^Unpaid / }).waitFor());
  seen.myCart = await overflow(page, 360);
  // Recent activity ("“title” was approved", "Ad payment (“title”)"): each link was one line of ~800 px.
  await open(page, '/admin/dashboard', () => page.getByRole('link', { name: /was approved/ }).waitFor());
  seen.home = await overflow(page, 360);
  // "Edit “title”": one line of ~1,700 px.
  const h1 = page.getByRole('heading', { level: 1, name: /^Edit “/ });
  await open(page, `/admin/dashboard/edit-ad/${adId}`, () => h1.waitFor());
  seen.editAd = await overflow(page, 360);
  seen.editHeadingFits = await h1.evaluate((el) => el.scrollWidth <= el.clientWidth);
  const fits = { scrollWidth: 360, stickingOut: [] };
  expect(seen).toEqual({ myAds: fits, myCart: fits, home: fits, editAd: fits, editHeadingFits: true });
});

it('360 en, staff: pending ads, pricing, page views and approved users stay at the screen’s width, fields at 16 px, checkboxes at 24 px', async () => {
  const { page } = phone360;
  await signIn(phone360, server.master);
  const seen: Record<string, unknown> = {};
  const small: string[] = [];
  // Pending ads: the cards wrap the title; the selection checkbox was a bare 13 px box stretched to the card's height.
  await open(page, '/admin/dashboard/admin/pending-ads', () => page.getByRole('heading', { level: 2, name: /^Pending / }).waitFor());
  seen.pendingAds = await overflow(page, 360);
  seen.pendingCheckbox = await tapTarget(page, /^Select “Pending /);
  // Approved ads: the table's checkboxes, the same.
  await open(page, '/admin/dashboard/admin/approved-ads', () => page.getByRole('checkbox', { name: /^Select “Pneumono/ }).waitFor());
  seen.approvedCheckbox = await tapTarget(page, /^Select “Pneumono/);
  // Pricing: the table was not in a scroll box (374 px); its price / days inputs were 13.33 px.
  await open(page, '/admin/dashboard/admin/pricing', () => page.locator('main table input').first().waitFor());
  seen.pricing = await overflow(page, 360);
  small.push(...(await smallFields(page)));
  // Page views: the top-ads table's title cell neither wrapped nor scrolled (~850 px).
  await open(page, '/admin/dashboard/admin/page-views', () => page.getByRole('link', { name: new RegExp(`^${TITLE.slice(0, 20)}`) }).waitFor());
  seen.pageViews = await overflow(page, 360);
  // Approved users: the table scrolls in its box, but the rows' visually-hidden labels escaped it (393 px); the status selects were 13.33 px.
  await open(page, '/admin/dashboard/master/approved-users', () => page.locator('main table select').first().waitFor());
  seen.approvedUsers = await overflow(page, 360);
  seen.hiddenLabels = await page.evaluate(() =>
    [...document.querySelectorAll('main .visually-hidden')].every((el) => {
      const r = el.getBoundingClientRect();
      return r.width <= 1 && r.height <= 1 && getComputedStyle(el).clipPath !== 'none';
    })
      ? 'clipped to 1 px'
      : 'visible',
  );
  small.push(...(await smallFields(page)));
  // A form field inside smaller type (a note, a table cell at 13 px): the stylesheet's floor holds there too.
  await page.evaluate(() => {
    const box = document.createElement('div');
    box.style.fontSize = '12px';
    box.innerHTML = '<div class="field"><label>Note <input type="text" /></label><select><option>a</option></select><textarea></textarea></div>';
    document.querySelector('main')!.append(box);
  });
  small.push(...(await smallFields(page)));
  seen.smallFields = [...new Set(small)];
  const fits = { scrollWidth: 360, stickingOut: [] };
  const target = 'at least 24 × 24, checks on a tap';
  expect(seen).toEqual({
    pendingAds: fits,
    pendingCheckbox: target,
    approvedCheckbox: target,
    pricing: fits,
    pageViews: fits,
    approvedUsers: fits,
    hiddenLabels: 'clipped to 1 px',
    smallFields: [],
  });
  // Still read by screen readers: the visually-hidden label names its select.
  expect(await page.getByRole('combobox', { name: `Status of ${provider.email}` }).count()).toBe(1);
});

it('320 pt: locations, the payment server and a search for a long word fit the screen; a terms contents link shows its heading below the sticky top bar', async () => {
  const { page } = phone320;
  await signIn(phone320, server.master);
  const seen: Record<string, unknown> = {};
  // Locations: the states table's "Cidades de …" buttons stuck out (353 px).
  await open(page, '/pt/admin/dashboard/admin/locations', () => page.getByRole('button', { name: 'Cidades de Alabama' }).waitFor());
  seen.locations = await overflow(page, 320);
  // Payment server: the status filter took its longest option's width ("Aguardando pagamento …", 329 px).
  await open(page, '/pt/admin/dashboard/admin/payment-server', () => page.locator('#invoice-status').waitFor());
  seen.paymentServer = await overflow(page, 320);
  // Terms: the heading a contents link leads to landed under the 60 px sticky bar.
  await page.goto('/pt/terms');
  const link = page.locator('main a[href^="#"]').nth(3);
  const id = decodeURIComponent((await link.getAttribute('href'))!.slice(1));
  await link.tap();
  await page.waitForFunction((id) => decodeURIComponent(location.hash.slice(1)) === id, id);
  // scrolled, and still (no smooth scrolling left to run)
  await page.waitForFunction(() => {
    const y = window.scrollY;
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY === y && y > 0))));
  });
  seen.terms = await page.evaluate((id) => {
    const top = Math.round(document.getElementById(id)!.getBoundingClientRect().top);
    const barBottom = Math.round(document.querySelector('header')!.getBoundingClientRect().bottom);
    return top >= barBottom ? 'below the bar' : `under the bar: heading at ${top}, bar to ${barBottom}`;
  }, id);
  // A search for one long word (a pasted link: 140 of the 200 characters a query may have) is echoed
  // in the results' heading, which did not wrap it: the page was 1,187 px wide.
  await open(page, `/pt/search?query=${encodeURIComponent(`https://example.com/${'q'.repeat(120)}`)}`, () => page.locator('main h2').first().waitFor());
  seen.search = await overflow(page, 320);
  const fits = { scrollWidth: 320, stickingOut: [] };
  expect(seen).toEqual({ locations: fits, paymentServer: fits, terms: 'below the bar', search: fits });
});
