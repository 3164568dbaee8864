import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, startServer, SCREENSHOTS, type RunningServer } from './harness.ts';

// A Spanish or Portuguese user sees the server's refusals in their language: the server answers
// a stable code, the page shows the code's translation (contract/errors → locales/{lng}/errors).
// Three refusals only the server can make: a wrong password, an insufficient balance, and a form
// the server refuses (a well-formed promo code that does not exist).

const LOCALES = path.resolve(import.meta.dirname, '../src/i18n/locales');
// A locale file is nested objects with strings at the leaves; the test names keys it knows are
// there, so each step is typed as both (a wrong key fails at run time, on the page).
type Texts = { readonly [key: string]: string & Texts };
const read = (lng: string, file: string) => JSON.parse(fs.readFileSync(path.join(LOCALES, lng, file), 'utf8')) as Texts;
const errorText = (lng: string, code: string) => {
  for (const f of fs.readdirSync(path.join(LOCALES, lng, 'errors'))) {
    const t = read(lng, `errors/${f}`)[code];
    if (t) return t as string;
  }
  throw new Error(`no ${lng} translation for ${code}`);
};

let server: RunningServer;
let browser: Browser;
let photo: Buffer;
beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 120, b: 90 } } })
    .jpeg()
    .toBuffer();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Page requests from our own origin, as the app's own scripts make them (state changes refuse others). */
const own = () => ({ origin: server.url });

async function cartAd(page: Page): Promise<void> {
  const cities = (await (await page.request.get('/api/cities-from-state/ny')).json()) as { cities: { id: string; name: string }[] };
  const city = cities.cities.find((c) => c.name === 'Buffalo')!;
  const res = await page.request.post('/api/post-ad', {
    headers: own(),
    multipart: {
      listingType: 'female_esc',
      title: 'Quiet dinners and good talks',
      description: 'Calm company for dinners and long walks by the lake. Friendly, discreet and punctual.',
      age: '30',
      stateId: 'ny',
      cityId: city.id,
      phone: '(716) 555-0142',
      photos: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

describe('server errors in the page’s language', () => {
  for (const lng of ['es', 'pt']) {
    it(`${lng}: wrong password, insufficient balance, a refused promo code`, async () => {
      const auth = read(lng, 'auth.json');
      const market = read(lng, 'market.json');
      const context = await newContext(browser, server, { locale: lng === 'es' ? 'es-CO' : 'pt-BR' });
      const page = await context.newPage();
      const email = `${lng}-${Date.now()}@example.com`;
      const reg = await page.request.post('/api/register', { headers: own(), data: { email, password: 'correct horse battery', nickname: `user_${lng}` } });
      expect(reg.status()).toBe(201);
      await page.request.post('/api/logout', { headers: own() });

      // 1. A wrong password.
      await page.goto(`/${lng}/auth/login`);
      await page.getByLabel(auth.email, { exact: true }).fill(email);
      await page.getByLabel(auth.password, { exact: true }).fill('not the password');
      await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: errorText(lng, 'auth.invalid_credentials') })
        .waitFor();

      await page.getByLabel(auth.password, { exact: true }).fill('correct horse battery');
      await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
      await page.waitForURL(`**/${lng}/admin/dashboard**`);

      // 2. Paying for an ad from an empty USD wallet.
      await cartAd(page);
      await page.goto(`/${lng}/admin/dashboard/my-cart`);
      await page.getByRole('radio', { name: new RegExp(market.wallet.usd) }).check();
      await page.getByRole('button', { name: market.cart.pay, exact: true }).click();
      // The cart answers the code wallet.insufficient_funds with its own advice (choose another
      // wallet or add funds), in the page's language.
      await page.getByRole('alert').filter({ hasText: market.cart.notEnoughMoney }).waitFor();

      // 3. A promo code the server refuses.
      await page.goto(`/${lng}/admin/dashboard/my-wallet`);
      const create = page.getByRole('button', { name: market.wallet.createPromo, exact: true });
      if (await create.count()) await create.click();
      await page.getByLabel(market.wallet.promoCode, { exact: true }).fill('NO-SUCH-CODE');
      await page.getByRole('button', { name: market.wallet.redeem, exact: true }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: errorText(lng, 'wallet.promo_code_not_valid') })
        .waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, `errors-${lng}.png`), fullPage: true });
      // Nothing English leaked.
      expect(await page.getByText('This promo code is not valid.').count()).toBe(0);
      await context.close();
    });
  }
});
