import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, startServer, type RunningServer } from './harness.ts';

// The wallet page in Spanish writes its amounts the Spanish way, the top-up's quick amounts too.

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

/** A signed-in provider's page in Spanish (registered through the API, same cookie jar as the page). */
async function spanishProvider(): Promise<Page> {
  const context = await newContext(browser, server, { locale: 'es-ES' });
  const page = await context.newPage();
  const res = await page.request.post('/api/register', {
    headers: { origin: server.url },
    data: { email: `wallet-es-${stamp}@e2e.test`, password: 'provider-password-e2e', nickname: `wallet_es_${stamp}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  return page;
}

// The top-up's quick amounts read "$20 $50 $100" on the Spanish wallet page, right under a hint
// that writes "De 10,00 US$ a 1000,00 US$" and a balance "0,00 US$". Expected: no English-written
// amount on a Spanish page.
it('es: the top-up quick amounts are written the Spanish way', async () => {
  const page = await spanishProvider();
  await page.goto('/es/admin/dashboard/my-wallet');
  const presets = page.getByRole('group', { name: 'Montos rápidos' }).getByRole('button');
  await presets.first().waitFor();
  const texts = await presets.allInnerTexts();
  expect(texts.filter((t) => /^\$/.test(t.trim()))).toEqual([]);
  expect(texts.map((t) => t.trim())).toEqual(
    [20, 50, 100].map((n) => new Intl.NumberFormat('es', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(n)),
  );
  await page.context().close();
});
