import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, startServer, type RunningServer } from './harness.ts';

// Posting an ad in Spanish and Portuguese, through the real screens: prices typed the way those
// languages write them, the rate rule's limits written their way, and a photo the server refuses
// named in its refusal.

let server: RunningServer;
let browser: Browser;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-provider-locale-'));
const files: Record<string, string> = {};
const stamp = Date.now().toString(36);
let n = 0;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  for (const [name, c] of [
    ['red.jpg', { r: 200, g: 10, b: 10 }],
    ['green.jpg', { r: 10, g: 200, b: 10 }],
  ] as const) {
    await sharp({ create: { width: 640, height: 480, channels: 3, background: c } })
      .jpeg()
      .toFile((files[name] = path.join(dir, name)));
  }
  // Named .jpg (so the browser and the form take it as image/jpeg) but bytes of no known kind: the
  // picker cannot tell what it is and leaves it to the server, which refuses it (one that starts
  // like a JPEG and is damaged the picker refuses itself: PhotoPicker.megapixels.test.tsx).
  fs.writeFileSync((files['broken.jpg'] = path.join(dir, 'broken.jpg')), Buffer.alloc(2000, 7));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A signed-in provider's page in `lng` (registered through the API, same cookie jar as the page). */
async function provider(lng: 'es' | 'pt'): Promise<Page> {
  const context = await newContext(browser, server, { locale: lng === 'es' ? 'es-ES' : 'pt-BR' });
  const page = await context.newPage();
  const res = await page.request.post('/api/register', {
    headers: { origin: server.url },
    data: { email: `locale-${lng}-${stamp}-${++n}@e2e.test`, password: 'provider-password-e2e', nickname: `loc_${lng}_${stamp}_${n}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  return page;
}

/** Fills the post-ad form (labels in `lng`) with a valid ad, photos and rates left to the caller. */
async function fillAd(page: Page, lng: 'es' | 'pt') {
  const L =
    lng === 'es'
      ? { type: 'Tipo de anuncio', title: 'Título', desc: 'Descripción', age: 'Edad', state: 'Estado', city: 'Ciudad', phone: 'Teléfono' }
      : { type: 'Tipo de anúncio', title: 'Título', desc: 'Descrição', age: 'Idade', state: 'Estado', city: 'Cidade', phone: 'Telefone' };
  await page.goto(`/${lng}/admin/dashboard/create-ads`);
  await page.getByLabel(L.type, { exact: true }).selectOption('female_esc');
  await page.getByLabel(L.title, { exact: true }).fill(`Tardes tranquilas ${stamp} ${lng}`);
  await page.getByLabel(L.desc, { exact: true }).fill('Compañía tranquila para cenas y largos paseos junto al lago. Amable, discreta y puntual.');
  await page.getByLabel(L.age, { exact: true }).selectOption('30');
  await page.getByLabel(L.state, { exact: true }).selectOption({ label: 'New York' });
  await page.getByRole('option', { name: 'Buffalo', exact: true }).waitFor({ state: 'attached' });
  await page.getByLabel(L.city, { exact: true }).selectOption({ label: 'Buffalo' });
  await page.getByLabel(L.phone, { exact: true }).fill('(716) 555-0142');
}

/** Every field error and alert the post form shows. */
const formErrors = (page: Page) => page.locator('.field-error, [role=alert]').allInnerTexts();

// "150,00" is a hundred and fifty in Portuguese (and Spanish), as the wallet's top-up field reads it.
it('pt: a rate price typed the Portuguese way ("150,00") is taken, and the ad goes to the cart', async () => {
  const page = await provider('pt');
  await fillAd(page, 'pt');
  await page.getByRole('button', { name: 'Adicionar um valor' }).click();
  await page.getByLabel('Preço do valor 1 em dólares').fill('150,00');
  await page.getByLabel('Fotos', { exact: true }).setInputFiles(files['red.jpg']);
  const posted = page.waitForResponse((r) => r.url().endsWith('/api/post-ad') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Publicar anúncio' }).click();
  await Promise.race([page.waitForURL((u) => u.pathname.endsWith('/my-cart')), page.getByText('Corrija os campos marcados abaixo.').waitFor()]);
  expect({ path: new URL(page.url()).pathname, errors: await formErrors(page) }).toEqual({ path: '/pt/admin/dashboard/my-cart', errors: [] });
  // What the server stored: cents, as from "150.00" (the first duration offered is 15 minutes).
  const ad = ((await (await posted).json()) as { ad: { details?: { rates: unknown[] } } }).ad;
  expect(ad.details?.rates).toEqual([{ minutes: 15, priceCents: 15000 }]);
  await page.context().close();
});

// A Spanish reader takes "$1.00 a $10,000.00" for one dollar and ten dollars: the limits are
// written as every other amount of the page is ("1,00 US$"), and the sign beside the field too.
it('es: the rate price rule and the rate field write dollars the Spanish way', async () => {
  const page = await provider('es');
  await fillAd(page, 'es');
  await page.getByRole('button', { name: 'Añadir una tarifa' }).click();
  await page.getByLabel('Fotos', { exact: true }).setInputFiles(files['red.jpg']);
  await page.getByRole('button', { name: 'Publicar anuncio' }).click();
  const rule = page.getByText(/^Cada tarifa necesita/);
  await rule.waitFor();
  const es = new Intl.NumberFormat('es', { style: 'currency', currency: 'USD' });
  expect(await rule.innerText()).toBe(`Cada tarifa necesita una duración y un precio de ${es.format(1)} a ${es.format(10000)}.`);
  const price = page.getByLabel('Precio de la tarifa 1 en dólares');
  expect(await price.evaluate((input) => [input.previousElementSibling?.textContent ?? null, input.nextElementSibling?.textContent ?? null])).toEqual([
    null,
    'US$',
  ]);
  await page.context().close();
});

// Three photos picked, one of them not an image: the refusal names the file, as the form's own
// checks do ("broken.jpg no es una imagen…"), so the provider knows which one to remove.
it('es: a photo the server refuses is named in the error', async () => {
  const page = await provider('es');
  await fillAd(page, 'es');
  await page.getByLabel('Fotos', { exact: true }).setInputFiles([files['red.jpg'], files['broken.jpg'], files['green.jpg']]);
  await page.getByRole('list', { name: '3 fotos seleccionadas' }).waitFor();
  await page.getByRole('button', { name: 'Publicar anuncio' }).click();
  const error = page.getByText('debe ser una imagen JPEG, PNG o WebP');
  await error.waitFor();
  expect(await error.innerText()).toContain('«broken.jpg» (fotos, n.º 2)');
  await page.context().close();
});
