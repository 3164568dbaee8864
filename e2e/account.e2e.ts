import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext, startServer, SCREENSHOTS, type RunningServer } from './harness.ts';

// The foundation's walk: register → sign out → sign in → change nickname and password → sign
// out → the old password no longer works, the new one does.

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('account', () => {
  it('registers, signs in, changes nickname and password, signs out', async () => {
    const context = await newContext(browser, server);
    const page = await context.newPage();
    const email = `ann-${Date.now()}@example.com`;

    await page.goto('/auth/register');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Nickname').fill('ann_e2e');
    await page.getByLabel('Password', { exact: true }).fill('first password 1');
    const confirm = page.getByLabel('Confirm password');
    if (await confirm.count()) await confirm.fill('first password 1');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL('**/admin/dashboard**');
    // The session cookie is HttpOnly: script cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('XG.TOKEN');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'XG.TOKEN')?.httpOnly).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.waitForURL((u) => !u.pathname.startsWith('/admin'));
    expect((await (await page.request.get('/api/session')).json()).isAuthenticated).toBe(false);

    await page.goto('/admin/dashboard/my-profile');
    await page.waitForURL('**/auth/login?redirect=**');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('first password 1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/admin/dashboard/my-profile');

    await page.getByLabel('Nickname', { exact: true }).fill('ann_renamed');
    await page.getByRole('button', { name: 'Save nickname' }).click();
    await expect.poll(() => page.getByText('Your nickname has been saved.').count()).toBe(1);
    await page.reload();
    await expect.poll(() => page.getByText('ann_renamed').count()).toBeGreaterThan(0);

    await page.getByLabel('Current password').fill('first password 1');
    await page.getByLabel('New password', { exact: true }).fill('second password 2');
    await page.getByLabel('Confirm new password').fill('second password 2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByText(/Your password has been changed/).count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}/account-profile-1280.png`, fullPage: true });

    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.waitForURL((u) => !u.pathname.startsWith('/admin'));

    await page.goto('/auth/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('first password 1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' }).count()).toBe(1);

    await page.getByLabel('Password', { exact: true }).fill('second password 2');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/admin/dashboard**');
    await context.close();
  });

  it('a guest opening a dashboard page is sent to sign-in and back after it', async () => {
    const context = await newContext(browser, server);
    const page = await context.newPage();
    await page.goto('/es/admin/dashboard/my-wallet');
    await page.waitForURL('**/es/auth/login?redirect=**');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await page.getByLabel('Correo electrónico').or(page.getByLabel('Correo')).first().fill(server.master.email);
    await page.locator('input[type=password]').first().fill(server.master.password);
    await page.locator('form button[type=submit]').first().click();
    await page.waitForURL('**/es/admin/dashboard/my-wallet');
    await context.close();
  });
});
