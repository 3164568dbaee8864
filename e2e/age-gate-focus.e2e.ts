// The trafficking report form in Chromium, where jsdom cannot stand in: the age gate giving focus
// back to the field being typed in (Chromium refuses focus to an inert element), and the page as a
// browser without scripts shows it (<noscript> content is markup only there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { holdScripts, launchBrowser, startServer, type RunningServer } from './harness.ts';

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

/** A first visit (no age confirmation stored) whose scripts wait until `release()`. */
async function heldFirstVisit(): Promise<{ page: Page; release: () => void; close: () => Promise<void> }> {
  const ctx = await browser.newContext({ baseURL: server.url });
  const page = await ctx.newPage();
  return { page, release: await holdScripts(page), close: () => ctx.close() };
}

const REPORT = 'A girl who looks about fifteen is advertised in an ad I saw today in Buffalo.';

/** The focused element as `tag#id`. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}` : null;
  });

describe('the age gate over the report form', () => {
  // The gate opens about 1 s after hydration, over a visitor typing a report: Continue gives the
  // focus back to that field, not to <body> (a keyboard or screen-reader user thrown to the top).
  it('gives the focus back to the field being typed in when the age gate is confirmed', async () => {
    const { page, release, close } = await heldFirstVisit();
    await page.goto('/report-crime', { waitUntil: 'commit' });
    const report = page.getByRole('textbox', { name: /What did you see/ });
    await report.fill(REPORT);
    release();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await report.focus();
    const gate = page.getByRole('dialog');
    await gate.waitFor();
    expect(await focused(page)).not.toBe(`textarea#${await report.getAttribute('id')}`); // the trap took it
    await gate.getByRole('checkbox').check();
    await gate.getByRole('button', { name: 'Continue' }).click();
    await gate.waitFor({ state: 'detached' });
    await page.waitForTimeout(200); // past Chromium's focus fixup of a refused focus
    expect({ focused: await focused(page), value: await report.inputValue() }).toEqual({
      focused: `textarea#${await report.getAttribute('id')}`,
      value: REPORT,
    });
    await close();
  });
});

describe('the report form without JavaScript', () => {
  // Tor Browser's "Safest" level, NoScript: Send stays disabled, and the page says why by it and
  // where to report instead.
  it('says by the disabled Send that sending needs JavaScript, and points to the hotline', async () => {
    const ctx = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false });
    await ctx.addCookies([{ name: 'over_18_user_confirmation', value: 'true', url: server.url }]);
    const page = await ctx.newPage();
    await page.goto('/report-crime');
    await page.getByRole('textbox', { name: /What did you see/ }).fill(REPORT);
    const send = page.getByRole('button', { name: 'Send' });
    expect(await send.isDisabled()).toBe(true);
    const note = page.locator(`[id="${await send.getAttribute('aria-describedby')}"]`);
    expect(await note.isVisible()).toBe(true);
    expect(await note.innerText()).toMatch(/needs JavaScript.*1-888-373-7888/);
    await ctx.close();
  });
});
