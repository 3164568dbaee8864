import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, SCREENSHOTS, startServer, type RunningServer } from './harness.ts';

// The public site in Chromium: age gate, search overlay and state picker, languages, the drawer
// on a phone, every footer link in three languages, a report reaching staff, the context menu,
// axe-core on the main pages, and screenshots at 375 and 1280 px.

let server: RunningServer;
let browser: Browser;
const AXE = path.resolve(import.meta.dirname, '../node_modules/axe-core/axe.min.js');
const stamp = Date.now().toString(36);

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// Full-page shots for pages; overlays (fixed to the viewport) are shot as the visitor sees them.
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: path.join(SCREENSHOTS, `public-${name}.png`), fullPage });
const h1 = (page: Page) => page.locator('main h1').first();

async function open(opts: Parameters<typeof newContext>[2] = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, server, opts);
  return { context, page: await context.newPage() };
}

describe('age gate', () => {
  it('opens about 1 s after load over the page, needs the tick to continue, and remembers it for 30 days', async () => {
    const { context, page } = await open({ ageConfirmed: false });
    const t0 = Date.now();
    await page.goto('/');
    await h1(page).waitFor(); // the page is there, behind the gate
    await page.waitForTimeout(Math.max(0, 700 - (Date.now() - t0)));
    expect(await page.getByRole('dialog').count()).toBe(0);
    const dialog = page.getByRole('dialog', { name: 'Adults only' });
    await dialog.waitFor();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    await shot(page, 'age-gate-1280', false);

    const cont = dialog.getByRole('button', { name: 'Continue' });
    expect(await cont.isDisabled()).toBe(true);
    await dialog.getByText('Legal terms').click();
    await dialog.getByText(/zero tolerance for human trafficking/).waitFor();
    const box = dialog.getByRole('checkbox');
    await box.check();
    const stored = await page.evaluate(() => ({
      v: localStorage.getItem('over_18_user_confirmation'),
      e: Number(localStorage.getItem('over_18_user_confirmation_expires')),
    }));
    expect(stored.v).toBe('true');
    expect(Math.round((stored.e - Date.now()) / 86_400_000)).toBe(30);
    await box.uncheck();
    expect(await page.evaluate(() => localStorage.getItem('over_18_user_confirmation'))).toBeNull();
    expect(await cont.isDisabled()).toBe(true);
    await box.check();
    await cont.click();
    await dialog.waitFor({ state: 'detached' });

    await page.reload();
    await h1(page).waitFor();
    await page.waitForTimeout(1500);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await context.close();
  });

  it('Leave goes back to another site, or to a search engine when the visitor came from this one', async () => {
    const { context, page } = await open({ ageConfirmed: false });
    await context.route('https://news.example.org/**', (r) => r.fulfill({ contentType: 'text/html', body: '<title>elsewhere</title>' }));
    await context.route('https://www.google.com/**', (r) => r.fulfill({ contentType: 'text/html', body: '<title>search</title>' }));
    await page.goto('/', { referer: 'https://news.example.org/story' });
    await page.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL('https://news.example.org/story');
    await page.goto(`${server.url}/faq`, { referer: `${server.url}/` });
    await page.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL('https://www.google.com/');
    await context.close();
  });

  it('is not shown to crawlers, who read the page', async () => {
    const context = await browser.newContext({ baseURL: server.url, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    const page = await context.newPage();
    await page.goto('/faq');
    await h1(page).waitFor();
    await page.waitForTimeout(1500);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await context.close();
  });
});

describe('search overlay', () => {
  it('needs a query, then goes to the results; the state picker goes to a state, or to all states', async () => {
    const { context, page } = await open();
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Search ads' });
    const input = dialog.getByRole('searchbox');
    const submit = dialog.getByRole('button', { name: 'Search', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await input.fill('x');
    await input.fill('');
    await dialog.getByRole('alert').filter({ hasText: 'You must enter search criteria' }).waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByRole('option', { name: 'New York, US' }).waitFor({ state: 'attached' });
    await shot(page, 'search-overlay-1280', false);
    await input.fill('buffalo');
    await submit.click();
    await page.waitForURL('**/search?query=buffalo');
    await dialog.waitFor({ state: 'detached', timeout: 2000 });

    await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).click();
    const picker = page.getByRole('dialog', { name: 'Search ads' });
    const go = picker.getByRole('button', { name: 'Show listings' });
    expect(await go.isDisabled()).toBe(true);
    await picker.getByRole('option', { name: 'Texas, US' }).waitFor({ state: 'attached' });
    await picker.getByLabel('State', { exact: true }).selectOption('texas');
    await go.click();
    await page.waitForURL('**/listings/us/texas');
    await picker.waitFor({ state: 'detached', timeout: 2000 });

    await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('dialog').getByRole('option', { name: 'All states' }).waitFor({ state: 'attached' });
    await page.getByRole('dialog').getByLabel('State', { exact: true }).selectOption('*');
    await page.getByRole('dialog').getByRole('button', { name: 'Show listings' }).click();
    await page.waitForURL((u) => u.pathname === '/listings/us');
    await context.close();
  });
});

describe('languages and head', () => {
  it('switching language keeps the path and sets <html lang>; the server writes each page head', async () => {
    const { context, page } = await open();
    await page.goto('/faq');
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('link', { name: 'Español' }).click();
    await page.waitForURL('**/es/faq');
    await h1(page).filter({ hasText: 'Preguntas frecuentes' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    expect(await page.getByRole('button', { name: 'Buscar' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Idioma' }).click();
    await page.getByRole('link', { name: 'Português' }).click();
    await page.waitForURL('**/pt/faq');
    await h1(page).filter({ hasText: 'Perguntas frequentes' }).waitFor();
    await expect.poll(() => page.title()).toBe('Perguntas frequentes | XG Marketplace');
    expect(await page.getByRole('button', { name: 'Pesquisar' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Idioma' }).click();
    await page.getByRole('link', { name: 'English' }).click();
    await page.waitForURL((u) => u.pathname === '/faq');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    const html = await (await page.request.get('/es/listings/us/new-york/buffalo/female-escorts')).text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<title>Escorts mujeres en Buffalo, New York | XG Marketplace</title>');
    expect(html).toContain(`<link rel="alternate" hreflang="pt" href="${server.url}/pt/listings/us/new-york/buffalo/female-escorts" />`);
    expect(html).toContain('<meta name="rating" content="RTA-5042-1996-1400-1577-RTA" />');
    const robots = await (await page.request.get('/robots.txt')).text();
    expect(robots).toContain(`Sitemap: ${server.url}/sitemap.xml`);
    const sitemap = await (await page.request.get('/sitemap.xml')).text();
    expect(sitemap).toContain(`<loc>${server.url}/sitemaps/pages-1.xml</loc>`);
    const pages = await (await page.request.get('/sitemaps/pages-1.xml')).text();
    expect(pages).toContain(`<loc>${server.url}/pt/report-crime</loc>`);
    await context.close();
  });
});

describe('small screens', () => {
  it('a 375 px screen gets the Menu drawer, which closes 100 ms after a link click; search stays in the bar', async () => {
    const { context, page } = await open({ viewport: { width: 375, height: 740 } });
    await page.goto('/');
    await h1(page).waitFor();
    await page.waitForLoadState('networkidle');
    await shot(page, 'home-375');
    expect(await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Profile' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('link', { name: 'Sign in' }).waitFor();
    await page.waitForTimeout(300); // the slide-in
    await page.screenshot({ path: path.join(SCREENSHOTS, 'public-drawer-375.png') });
    // Click a link and sample the drawer at 40 ms (still open) and 250 ms (closed).
    const samples = await page.evaluate(async () => {
      const link = [...document.querySelectorAll<HTMLAnchorElement>('[role="dialog"] a')].find(
        (a) => a.getAttribute('href') === '/faq' || a.getAttribute('href') === '/listings/us',
      )!;
      link.click();
      const at = (ms: number) => new Promise<boolean>((r) => setTimeout(() => r(!!document.querySelector('[role="dialog"]')), ms));
      return [location.pathname, await at(40), await at(250)];
    });
    expect(samples).toEqual(['/listings/us', true, false]);
    await context.close();
  });
});

describe('footer', () => {
  it('every footer link opens a page with real content, in English, Spanish and Portuguese', async () => {
    const { context, page } = await open();
    for (const prefix of ['', '/es', '/pt']) {
      await page.goto(prefix || '/');
      const footer = page.getByRole('contentinfo');
      await footer.waitFor();
      expect(await footer.textContent()).toContain(`© ${new Date().getFullYear()} XG Marketplace`);
      expect(await footer.locator('img[src^="/badges/"]').count()).toBe(2);
      const hrefs = await footer.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!).filter((h) => h.startsWith('/')));
      expect(hrefs.length).toBeGreaterThanOrEqual(12);
      for (const href of hrefs) {
        const res = await page.goto(href);
        expect(res?.status(), href).toBe(200);
        await h1(page).waitFor();
        expect((await h1(page).textContent())?.trim().length, href).toBeGreaterThan(3);
        const text = (await page.locator('main').innerText()).trim();
        expect(text.length, `${href} has real content`).toBeGreaterThan(60);
        expect(await page.evaluate(() => document.documentElement.lang), href).toBe(prefix ? prefix.slice(1) : 'en');
        expect(text, href).not.toMatch(/\b(pageTitles|seo|forms|footer)\.[a-z]/); // no raw translation keys
      }
    }
    await context.close();
  });
});

describe('reports', () => {
  it('a trafficking report sent by a guest shows up on the staff reports screen', async () => {
    const message = `E2E report ${stamp}: the girl in this ad looks under 18.`;
    const guest = await open();
    await guest.page.goto('/report-crime');
    await guest.page.getByText('1-888-373-7888').first().waitFor();
    await guest.page.getByLabel(/What did you see/).fill(message);
    await guest.page.getByRole('button', { name: 'Send' }).click();
    await guest.page.getByText(/Your report has reached our safety team/).waitFor();
    await guest.context.close();

    const staff = await open();
    await staff.page.goto(`/auth/login?redirect=${encodeURIComponent('/admin/dashboard/admin/reports')}`);
    await staff.page.getByLabel('E-mail').fill(server.master.email);
    await staff.page.getByLabel('Password', { exact: true }).fill(server.master.password);
    await staff.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await staff.page.waitForURL('**/admin/dashboard/admin/reports');
    const row = staff.page.getByRole('row').filter({ hasText: message });
    await row.waitFor();
    await shot(staff.page, 'admin-reports-1280');
    await row.getByRole('button', { name: 'Close with a note' }).click();
    const dialog = staff.page.getByRole('dialog');
    await dialog.getByRole('textbox').fill('Escalated to the hotline; ad disabled.');
    await dialog.getByRole('button', { name: 'Close the report' }).click();
    // The screen lists open reports by default: the closed one leaves it, and the notice says so.
    await staff.page.getByText(/^Report \S+ is now Closed\.$/).waitFor();
    await row.waitFor({ state: 'detached' });
    await staff.context.close();
  });
});

describe('behaviour and accessibility', () => {
  it('right-click is prevented everywhere', async () => {
    const { context, page } = await open();
    await page.goto('/about-us');
    await h1(page).waitFor();
    const allowed = await page.evaluate(() =>
      document.querySelector('main')!.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true })),
    );
    expect(allowed).toBe(false);
    await context.close();
  });

  it('axe-core finds nothing serious or critical on home, faq, report-crime and listings (and in the overlays)', async () => {
    const context = await browser.newContext({ baseURL: server.url, bypassCSP: true, viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => {
      localStorage.setItem('over_18_user_confirmation', 'true');
      localStorage.setItem('over_18_user_confirmation_expires', String(Date.now() + 86_400_000));
    });
    const page = await context.newPage();
    const audit = async (label: string) => {
      if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
      const result = await page.evaluate(async () => {
        const r = await (
          window as unknown as {
            axe: { run: (ctx: Document, o: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> };
          }
        ).axe.run(document, {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        });
        return r.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map(
            (v) =>
              `${v.id} (${v.impact}): ${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 5)
                .join(', ')}`,
          );
      });
      expect(result, label).toEqual([]);
    };
    for (const p of ['/', '/faq', '/report-crime', '/listings/us', '/es/faq']) {
      await page.goto(p);
      await h1(page).waitFor();
      await page.getByRole('contentinfo').waitFor();
      await audit(p);
    }
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('dialog').getByRole('option', { name: 'New York, US' }).waitFor({ state: 'attached' });
    await audit('search overlay');
    await context.close();

    const gate = await browser.newContext({ baseURL: server.url, bypassCSP: true });
    const gp = await gate.newPage();
    await gp.goto('/');
    await gp.getByRole('dialog', { name: 'Adults only' }).waitFor();
    await gp.addScriptTag({ path: AXE });
    const gateViolations = await gp.evaluate(async () => {
      const r = await (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: Array<{ id: string; impact: string }> }> } }).axe.run(
        document,
      );
      return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${JSON.stringify((v as unknown as { nodes: Array<{ target: string[] }> }).nodes.map((n) => n.target))}`);
    });
    expect(gateViolations, 'age gate').toEqual([]);
    await gate.close();
  });

  it('screenshots at 375 and 1280 px, and the first JavaScript the home page needs', async () => {
    for (const width of [375, 1280]) {
      const { context, page } = await open({ viewport: { width, height: width === 375 ? 740 : 900 } });
      const js: Array<{ url: string; gzip: number }> = [];
      page.on('response', async (res) => {
        if (res.url().endsWith('.js')) js.push({ url: res.url(), gzip: gzipSync(await res.body(), { level: 9 }).length });
      });
      for (const [p, name] of [
        ['/', 'home'],
        ['/faq', 'faq'],
        ['/report-crime', 'report-crime'],
        ['/law-enforcement', 'law-enforcement'],
        ['/es', 'home-es'],
      ] as const) {
        await page.goto(p);
        await h1(page).waitFor();
        await page.getByRole('contentinfo').waitFor();
        await page.waitForLoadState('networkidle');
        await shot(page, `${name}-${width}`);
        if (p === '/' && width === 1280) {
          const total = js.reduce((a, f) => a + f.gzip, 0);
          console.log(`home page, all JavaScript loaded by first paint + idle: ${(total / 1024).toFixed(1)} KB gzip in ${js.length} files`);
        }
      }
      await context.close();
    }
  });
});
