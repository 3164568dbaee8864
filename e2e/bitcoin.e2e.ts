import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext, photoFile, screenshots, startServer, type RunningServer, type TestPhoto } from './harness.ts';

// A Bitcoin top-up in the sandbox, end to end: a provider registers, asks for $50, pays in the
// sandbox checkout tab, watches the wallet page follow the payment live (no reload), sees the
// balance and the history, then pays an ad with the money.

let server: RunningServer;
let browser: Browser;
let upload: TestPhoto | undefined;
const stamp = Date.now().toString(36);
const provider = { email: `btc-${stamp}@e2e.test`, nickname: `btc_${stamp}`, password: 'provider-password-e2e' };
const TITLE = `Bitcoin paid ad ${stamp} in Albany`;

beforeAll(async () => {
  // A visible pause between "received" and "paid", as a confirmation takes.
  server = await startServer({ env: { SANDBOX_SETTLE_MS: '1500' } });
  browser = await launchBrowser();
  upload = await photoFile({ r: 40, g: 120, b: 200 }, { width: 400, height: 300 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  upload?.remove();
});

const shot = screenshots('bitcoin');

it('a provider tops up with Bitcoin in the sandbox, sees it live, and pays an ad with it', async () => {
  const context = await newContext(browser, server);
  await context.addCookies([{ name: 'over_18_user_confirmation', value: 'true', url: server.url }]);
  const wallet = await context.newPage();
  try {
    await wallet.goto('/auth/register?redirect=%2Fadmin%2Fdashboard%2Fmy-wallet');
    await wallet.locator('#register-email').fill(provider.email);
    await wallet.locator('#register-nickname').fill(provider.nickname);
    await wallet.locator('#register-password').fill(provider.password);
    await wallet.locator('#register-confirm').fill(provider.password);
    await wallet.getByRole('button', { name: 'Register', exact: true }).click();
    await wallet.waitForURL((u) => u.pathname === '/admin/dashboard/my-wallet');
    await wallet.getByText('Test mode: payments go to the sandbox.', { exact: false }).waitFor();

    // The amount rule is checked before anything is sent.
    await wallet.getByRole('textbox', { name: 'Amount in US dollars' }).fill('9.99');
    await wallet.getByRole('button', { name: 'Pay with Bitcoin' }).click();
    await wallet.getByText('Enter an amount from $10.00 to $1,000.00', { exact: false }).first().waitFor();

    await wallet.getByRole('button', { name: '$50', exact: true }).click();
    expect(await wallet.getByRole('textbox', { name: 'Amount in US dollars' }).inputValue()).toBe('50.00');
    const [checkout] = await Promise.all([context.waitForEvent('page'), wallet.getByRole('button', { name: 'Pay with Bitcoin' }).click()]);
    const status = wallet.getByRole('status', { name: 'Invoice status' });
    await status.filter({ hasText: 'Waiting for your payment' }).waitFor();

    await checkout.waitForURL((u) => u.pathname.startsWith('/sandbox/checkout/'));
    await checkout.getByText('SANDBOX', { exact: false }).first().waitFor();
    await shot(checkout, 'checkout');
    await checkout.getByRole('button', { name: 'Simulate payment', exact: true }).click();

    // The wallet tab follows over the socket, without a reload: received, then paid.
    await status.filter({ hasText: 'Payment received' }).waitFor();
    await status.filter({ hasText: 'Paid. The money is in your USD wallet.' }).waitFor();
    await wallet.getByText('$50.00').first().waitFor();
    const history = wallet
      .getByRole('region', { name: 'Transaction history' })
      .or(wallet.locator('section', { has: wallet.getByRole('heading', { name: 'Transaction history' }) }));
    await history.getByText('Bitcoin top-up').first().waitFor();
    await shot(wallet, 'paid');
    expect(await wallet.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);

    // The money pays an ad.
    await wallet.goto('/admin/dashboard/create-ads');
    await wallet.getByLabel('Listing type', { exact: true }).selectOption('female_esc');
    await wallet.getByText(/Price: \$\d+\.\d\d/).waitFor();
    await wallet.getByLabel('Title', { exact: true }).fill(TITLE);
    await wallet.getByLabel('Description', { exact: true }).fill('Quiet evenings, art museums and good conversation. Discreet and punctual, by appointment.');
    await wallet.getByLabel('Age', { exact: true }).selectOption('30');
    await wallet.getByLabel('State', { exact: true }).selectOption({ label: 'New York' });
    await wallet.getByRole('option', { name: 'Albany', exact: true }).waitFor({ state: 'attached' });
    await wallet.getByLabel('City', { exact: true }).selectOption({ label: 'Albany' });
    await wallet.getByLabel('Phone', { exact: true }).fill('(518) 555-0142');
    await wallet.getByLabel('Photos', { exact: true }).setInputFiles(upload!.path);
    await wallet.getByRole('list', { name: '1 photo selected' }).waitFor();
    await wallet.getByRole('button', { name: 'Post ad' }).click();
    await wallet.waitForURL((u) => u.pathname === '/admin/dashboard/my-cart');
    const item = wallet.getByRole('listitem', { name: TITLE });
    await item.getByRole('radio', { name: /USD wallet — \$50\.00/ }).check();
    await item.getByRole('button', { name: 'Pay and send to review' }).click();
    await wallet
      .getByRole('status')
      .filter({ hasText: `“${TITLE}” is paid and waiting for review.` })
      .waitFor();
    await wallet.goto('/admin/dashboard/my-wallet');
    await wallet.getByText('Ad payment').first().waitFor();
    await shot(wallet, 'after-ad');
  } catch (e) {
    await shot(wallet, 'fail');
    throw e;
  }
});
