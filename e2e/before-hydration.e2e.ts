// The public forms before the page's script has run, in Chromium. The server sends the script with
// fetchpriority=low (site.service.ts), so a server-rendered form is visible and fillable for a
// while before React answers it. Here the script is held back by the test until it lets it go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { holdScripts, launchBrowser, startServer, type RunningServer } from './harness.ts';

const stamp = Date.now().toString(36);
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page whose scripts wait until `release()`; the age gate is confirmed. */
async function heldPage(): Promise<{ page: Page; release: () => void; close: () => Promise<void> }> {
  const ctx = await browser.newContext({ baseURL: server.url });
  await ctx.addCookies([{ name: 'over_18_user_confirmation', value: 'true', url: server.url }]);
  const page = await ctx.newPage();
  return { page, release: await holdScripts(page), close: () => ctx.close() };
}

const hydrated = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');

describe('the search form before hydration', () => {
  it('sent by the browser itself, lands on the results for what was typed, as the app would navigate', async () => {
    const { page, release, close } = await heldPage();
    await page.goto(`/search?query=nothing${stamp}`, { waitUntil: 'commit' });
    const field = page.locator('#search-query');
    await field.waitFor();
    await field.fill(`lakeside${stamp}`);
    await Promise.all([page.waitForEvent('framenavigated'), field.press('Enter')]);
    release();
    await page.waitForLoadState('load');
    // The empty state and type the browser sends (state=&type=) are answered with a 301 to the page's own URL.
    expect(page.url().slice(server.url.length)).toBe(`/search?query=lakeside${stamp}`);
    await hydrated(page);
    await expect.poll(() => page.locator('main [role="status"]').first().textContent()).toContain(`lakeside${stamp}`);
    await close();
  });

  it('in Spanish, with a listing type chosen, stays in Spanish and keeps the type', async () => {
    const { page, release, close } = await heldPage();
    await page.goto('/es/search', { waitUntil: 'commit' });
    const field = page.locator('#search-query');
    await field.waitFor();
    await field.fill(`rubia${stamp}`);
    await page.locator('#search-type').selectOption('female_rub');
    await Promise.all([page.waitForEvent('framenavigated'), field.press('Enter')]);
    release();
    await page.waitForLoadState('load');
    expect(page.url().slice(server.url.length)).toBe(`/es/search?query=rubia${stamp}&type=female_rub`);
    await close();
  });

  it('typed before hydration and sent after it, searches for what was typed, not what the page was served with', async () => {
    const { page, release, close } = await heldPage();
    await page.goto(`/search?query=nothing${stamp}`, { waitUntil: 'commit' });
    const field = page.locator('#search-query');
    await field.waitFor();
    await field.fill(`harbour${stamp}`);
    await page.locator('#search-type').selectOption('shemale_esc');
    release();
    await hydrated(page);
    await page.waitForTimeout(300);
    expect(await field.inputValue()).toBe(`harbour${stamp}`); // hydration left it as typed
    await field.press('Enter');
    await page.waitForURL(`**/search?query=harbour${stamp}&type=shemale_esc`);
    await close();
  });
});

describe('a report form before hydration', () => {
  const text = 'A girl who looks about fifteen is advertised in an ad I saw today in Buffalo.';

  it('a trafficking report typed before hydration is sent when Send is pressed after it', async () => {
    const { page, release, close } = await heldPage();
    await page.goto('/report-crime', { waitUntil: 'commit' });
    const report = page.getByRole('textbox', { name: /What did you see/ });
    await report.waitFor();
    await report.fill(text);
    release();
    await hydrated(page);
    await page.waitForTimeout(500);
    expect(await report.inputValue()).toBe(text); // still shown to the visitor
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/reports'), { timeout: 5000 }).catch(() => null);
    await page.getByRole('button', { name: 'Send' }).click();
    const req = await sent;
    expect({ sent: req?.postDataJSON()?.message ?? null, refusal: await page.locator('.field-error').allTextContents() }).toEqual({ sent: text, refusal: [] });
    await close();
  });

  it('Send is not offered before hydration: the report is neither lost to a reload nor put in the address', async () => {
    const { page, release, close } = await heldPage();
    await page.goto('/contact-us', { waitUntil: 'commit' });
    const message = page.getByRole('textbox', { name: /Message/ });
    await message.waitFor();
    await page.getByRole('textbox', { name: /E-mail/ }).fill('ana@example.com');
    await message.fill('My deposit has not arrived yet, please look into it.');
    const send = page.getByRole('button', { name: 'Send' });
    expect(await send.isDisabled()).toBe(true);
    let navigated = false;
    page.on('framenavigated', () => (navigated = true));
    await page.getByRole('textbox', { name: /E-mail/ }).press('Enter'); // implicit submission: nothing
    await page.waitForTimeout(300);
    expect(navigated).toBe(false);
    release();
    await hydrated(page);
    await expect.poll(() => send.isEnabled()).toBe(true);
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/reports'), { timeout: 5000 });
    await send.click();
    expect((await sent).postDataJSON()).toEqual({
      kind: 'contact',
      contact: 'ana@example.com',
      message: 'Topic: account\n\nMy deposit has not arrived yet, please look into it.',
    });
    expect(page.url().slice(server.url.length)).toBe('/contact-us');
    await close();
  });
});
