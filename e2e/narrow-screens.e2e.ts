import { afterAll, beforeAll, expect, it } from 'vitest';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startServer, waitForHydration, type RunningServer } from './harness.ts';

const AXE = path.resolve(import.meta.dirname, '../node_modules/axe-core/axe.min.js');
const stamp = Date.now().toString(36);
let server: RunningServer;
let browser: Browser;
let ownerId = '';
let adId = '';
const provider = { email: `p11x4-${stamp}@e2e.test`, nickname: `p11x4_${stamp}`, password: 'provider-password-e2e' };

async function api(ctx: BrowserContext, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown, status = 200) {
  const res = await ctx.request.fetch(url, { method, headers: { origin: server.url }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(status);
  return status === 204 ? null : res.json();
}

async function ctxFor(opts: { phone?: boolean; locale?: string; js?: boolean }) {
  const ctx = await browser.newContext({
    baseURL: server.url,
    bypassCSP: true,
    viewport: opts.phone ? { width: 375, height: 667 } : { width: 1280, height: 900 },
    ...(opts.phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    locale: opts.locale ?? 'en-US',
    javaScriptEnabled: opts.js ?? true,
  });
  await ctx.addCookies([{ name: 'over_18_user_confirmation', value: 'true', url: server.url }]);
  await ctx.addInitScript(() => {
    try {
      localStorage.setItem('over_18_user_confirmation', 'true');
      localStorage.setItem('over_18_user_confirmation_expires', String(Date.now() + 30 * 86400_000));
    } catch {
      /* */
    }
  });
  return ctx;
}

async function axe(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const r = await (
      window as unknown as {
        axe: {
          run: (
            d: Document,
            o: object,
          ) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[]; failureSummary?: string }> }> }>;
        };
      }
    ).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return r.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 4)
          .map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 160))
          .join(' | ')}`,
    );
  });
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const staff = await browser.newContext({ baseURL: server.url });
  const prov = await browser.newContext({ baseURL: server.url });
  await api(staff, 'POST', '/api/login', server.master);
  const promo = `PX-${stamp.toUpperCase()}`;
  await api(staff, 'POST', '/api/admin/set-promo-code-by-id', { code: promo, amountCents: 90000, maxUses: 1, active: true, expiresAt: null }, 201);
  const me = await api(prov, 'POST', '/api/register', provider, 201);
  ownerId = me.id;
  const wallet = (await api(prov, 'POST', '/api/create-promo-wallet', {})).wallet;
  await api(prov, 'POST', '/api/add-promo-code-to-promo-wallet', { code: promo });
  const buffalo = (await api(prov, 'GET', '/api/cities-from-state/ny')).cities.find((c: { name: string }) => c.name === 'Buffalo');
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 60, b: 150 } } })
    .jpeg()
    .toBuffer();
  const post = async (title: string) => {
    const form = new FormData();
    const f: Record<string, string> = {
      listingType: 'female_esc',
      title,
      description: 'Calm, friendly, discreet company for dinners and gallery openings, by appointment.',
      age: '29',
      stateId: 'ny',
      cityId: buffalo.id,
      phone: '(716) 555-0177',
    };
    for (const [k, v] of Object.entries(f)) form.append(k, v);
    form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'p.jpg');
    const posted = await prov.request.post('/api/post-ad', { headers: { origin: server.url }, multipart: form });
    expect(posted.status(), await posted.text()).toBe(201);
    const id = (await posted.json()).ad.id as string;
    await api(prov, 'PUT', `/api/ad-payment-in-cart/${id}`, { walletId: wallet.id });
    return id;
  };
  adId = await post(`Harbour lights ${stamp} companion`);
  await api(staff, 'POST', '/api/admin/approve-pending-ads', { adIds: [adId], decision: 'approve' });
  await post(`Pending lights ${stamp} companion`);
  await api(
    staff,
    'POST',
    '/api/admin/place-legal-hold',
    { targetType: 'user', targetId: ownerId, reason: 'Subpoena 2026-114 from the county prosecutor' },
    201,
  );
  await api(staff, 'POST', '/api/admin/place-legal-hold', { targetType: 'ad', targetId: adId, reason: 'Preservation request' }, 201);
  await Promise.all([staff.close(), prov.close()]);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** axe-core's serious and critical findings of one rule on the page as it is now. */
async function axeRule(page: Page, rule: string): Promise<string[]> {
  return (await axe(page)).filter((v) => v.startsWith(`${rule} `));
}

// This session's screens at a phone's size (375 × 667, touch), by keyboard and with axe-core.

// A provider on a phone, by keyboard (or a switch, or a desktop zoomed to 400 %: WCAG 2.1.1 and
// 1.4.10): the wallet's history tables scroll sideways inside a box that takes no focus and holds
// nothing focusable, so the columns past the screen's edge could not be reached at all. The
// scrolling box is focusable and named (as Transparency.tsx's table region is): axe-core's
// scrollable-region-focusable (serious) finds nothing.
it('wallet on a phone: the history table that scrolls sideways can be scrolled by keyboard', async () => {
  const ctx = await ctxFor({ phone: true, locale: 'es-ES' });
  await api(ctx, 'POST', '/api/login', { email: provider.email, password: provider.password });
  const page = waitForHydration(await ctx.newPage());
  await page.goto('/es/admin/dashboard/my-wallet');
  await page.locator('#history-h').waitFor();
  await page.waitForTimeout(1000);
  expect(await axeRule(page, 'scrollable-region-focusable')).toEqual([]);
  await ctx.close();
});

// Staff on a phone, by keyboard: the user screen's sections (UserDetailSection) put each table in
// a sideways-scrolling box that takes no focus; the money ledger's and the sign-ins' tables hold
// no link or button, so their cut columns (the ledger's reference, a sign-in's device) could not
// be reached. The box is focusable and named; axe-core finds no scrollable-region-focusable.
it('user screen on a phone: the money and sign-in tables that scroll sideways can be scrolled by keyboard', async () => {
  const ctx = await ctxFor({ phone: true });
  await api(ctx, 'POST', '/api/login', server.master);
  const page = waitForHydration(await ctx.newPage());
  await page.goto(`/admin/dashboard/admin/users/${ownerId}`);
  await page.locator('#user-holds').waitFor();
  await page.waitForTimeout(1000);
  expect(await axeRule(page, 'scrollable-region-focusable')).toEqual([]);
  await ctx.close();
});

// The audit log on a phone (375 px): each row's "By" is the actor's e-mail, in a cell that may
// break anywhere, beside a time that may not break (now longer, "… PM UTC") and action codes that
// cannot: the table gave the actor's column the width of one or two letters, and
// "master@e2e.test" read down the row in 8 lines of 2–3 letters. An address reads as one, on at
// most two lines (broken at most once, e.g. at its @).
it('audit log on a phone: the actor’s e-mail is not broken into a column of letters', async () => {
  const ctx = await ctxFor({ phone: true });
  await api(ctx, 'POST', '/api/login', server.master);
  const page = waitForHydration(await ctx.newPage());
  await page.goto('/admin/dashboard/admin/audit-log');
  await page.locator('main table tbody tr').first().waitFor();
  const lines = await page
    .locator('main table tbody tr td:nth-child(2) a')
    .evaluateAll((as) =>
      as.map(
        (a) =>
          `${(a as HTMLElement).innerText.replace(/\s+/g, '')}: ${a.getClientRects().length} lines, ${Math.round(a.getBoundingClientRect().width)} px wide`,
      ),
    );
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.filter((l) => Number(/: (\d+) lines/.exec(l)![1]) > 2)).toEqual([]);
  await ctx.close();
});
