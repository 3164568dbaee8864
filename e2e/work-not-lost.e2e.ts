import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, photoFile, startServer, type RunningServer, type TestPhoto } from './harness.ts';

let server: RunningServer;
let browser: Browser;
let upload: TestPhoto | undefined;
const stamp = Date.now().toString(36);
let n = 0;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  upload = await photoFile({ r: 150, g: 60, b: 170 });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  upload?.remove();
});

const own = () => ({ origin: server.url });
const TITLE = 'Sunset walks by the lake in Buffalo';
const DESCRIPTION = 'Calm company for dinners and long walks by the lake. Friendly, discreet and always on time for you.';

async function provider(context: BrowserContext) {
  const email = `p${stamp}-${++n}@e2e.test`;
  const password = 'provider-password-e2e';
  const page = await context.newPage();
  const res = await page.request.post('/api/register', { headers: own(), data: { email, password, nickname: `prov_${stamp}_${n}` } });
  expect(res.status()).toBe(201);
  return { page, email, password };
}

async function fillAd(page: Page) {
  await page.getByLabel('Listing type', { exact: true }).selectOption('female_esc');
  await page.getByLabel('Title', { exact: true }).fill(TITLE);
  await page.getByLabel('Description', { exact: true }).fill(DESCRIPTION);
  await page.getByLabel('Age', { exact: true }).selectOption('30');
  await page.getByLabel('State', { exact: true }).selectOption({ label: 'New York' });
  await page.getByRole('option', { name: 'Buffalo', exact: true }).waitFor({ state: 'attached' });
  await page.getByLabel('City', { exact: true }).selectOption({ label: 'Buffalo' });
  await page.getByLabel('Phone', { exact: true }).fill('(716) 555-0142');
  await page.getByLabel('Photos', { exact: true }).setInputFiles(upload!.path);
  await page.getByRole('list', { name: '1 photo selected' }).waitFor();
}

async function signInHere(page: Page, email: string, password: string) {
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

// The session ends while a provider writes an ad (signed out in another tab or device, expired):
// the tab goes to sign in (told by the socket, or by the post's 401). After signing in again as the
// same user, the form gives back what was typed (photos aside): neither the visitor's session the
// tab reads on the way (state/session.ts loadSession) nor the sign-in throws the draft away.
it('an ad typed while the session ended comes back after signing in again', async () => {
  const context = await newContext(browser, server);
  const { page, email, password } = await provider(context);
  await page.goto('/admin/dashboard/create-ads');
  await fillAd(page);
  // The session ends elsewhere (no message to this tab): the server forgets it, the cookie goes.
  const other = await context.newPage();
  expect((await other.request.post('/api/logout', { headers: own() })).ok()).toBe(true);
  await other.close();
  await page.bringToFront();
  // The tab may find out by itself (it re-reads the session when shown again) or at the post.
  if (new URL(page.url()).pathname !== '/auth/login')
    await page
      .getByRole('button', { name: 'Post ad' })
      .click({ timeout: 5000 })
      .catch(() => {});
  await page.waitForURL((u) => u.pathname === '/auth/login');
  await signInHere(page, email, password);
  await page.waitForURL((u) => u.pathname === '/admin/dashboard/create-ads');
  await page.getByLabel('Title', { exact: true }).waitFor();
  expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe(TITLE);
  expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe(DESCRIPTION);
  await context.close();
}, 15_000);
