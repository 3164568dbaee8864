import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext, startServer, type RunningServer } from './harness.ts';

// My profile on a phone (375 × 740), in Spanish (the same happens in Portuguese and English).

let server: RunningServer;
let browser: Browser;
const stamp = Date.now().toString(36);
beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

// The profile page fits a 375 px phone screen, as every dashboard screen must (providers work on
// phones): its grid's one column took the narrowest width of its widest card, the profile-picture
// form with its native file picker, and the page scrolled sideways.
it('es 375: my profile fits a phone screen (no sideways scrolling)', async () => {
  const ctx = await newContext(browser, server, { viewport: { width: 375, height: 740 }, locale: 'es-MX' });
  const p = await ctx.newPage();
  const email = `pf-es-${stamp}@e2e.test`;
  const r = await p.request.post('/api/register', {
    headers: { origin: server.url },
    data: { email, password: 'provider-password-e2e', nickname: `pf_es_${stamp}` },
  });
  expect(r.status()).toBe(201);
  await p.goto('/es/admin/dashboard/my-profile');
  await p.getByRole('heading', { level: 1, name: 'Mi perfil' }).waitFor();
  await p.getByRole('heading', { name: 'Eliminar cuenta' }).waitFor();
  const res = await p.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('main h1, main .card')]
      .filter((el) => el.getBoundingClientRect().right > vw + 0.5)
      .map((el) => `${el.tagName.toLowerCase()} right=${Math.round(el.getBoundingClientRect().right)} "${(el as HTMLElement).innerText.split('\n')[0]}"`);
    return { vw, scrollWidth: document.documentElement.scrollWidth, wide };
  });
  expect(res, JSON.stringify(res)).toEqual({ vw: 375, scrollWidth: 375, wide: [] });
  await ctx.close();
});
