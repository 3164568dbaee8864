import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, startServer, SCREENSHOTS, type RunningServer } from './harness.ts';

// The operator's walk: the master opens the health check screen, runs the checks and sees one
// result per check, on top and in the history; opens the cron jobs, runs a job now and sees its
// run; deletes a result; the public health probe answers ok.

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

async function signIn(page: Page, to: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(to)}`);
  await page.locator('#login-email').fill(server.master.email);
  await page.locator('#login-password').fill(server.master.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((u) => u.pathname === to);
}

it('staff run the health checks and a cron job, and delete a result', async () => {
  const context = await newContext(browser, server);
  const page = await context.newPage();
  try {
    await signIn(page, '/admin/dashboard/admin/health-check');
    await page.getByText('No check has run yet. Run the checks to see how the server is doing.').waitFor();
    await page.getByRole('button', { name: 'Run the checks now' }).click();
    await page.getByRole('status').filter({ hasText: 'The checks ran at' }).waitFor();
    const latest = page.getByRole('table', { name: 'Latest status' });
    await expect.poll(() => latest.getByRole('row').count()).toBe(7); // a header and six checks
    for (const check of ['Database', 'Disk space', 'Memory and caches', 'E-mail (SMTP)', 'Payment server', 'SMS (Textbelt)']) {
      expect(await latest.getByRole('rowheader', { name: check }).count()).toBe(1);
    }
    expect(
      await latest.getByRole('row', { name: /^Payment server OK Sandbox mode: BTCPay Server is not configured, no real payments are taken\./ }).count(),
    ).toBe(1);
    const history = page.getByRole('table', { name: 'History' });
    expect(await latest.getByRole('row', { name: /^Memory and caches OK RSS \d+ MB, JavaScript heap / }).count()).toBe(1);
    await expect.poll(() => history.getByRole('row').count()).toBe(7);
    await page.screenshot({ path: `${SCREENSHOTS}/ops-health-check-1280.png`, fullPage: true });

    // The newest result of a check is its current state: not offered for deletion. An older one goes.
    const smsResults = history.getByRole('button', { name: /^Delete the SMS \(Textbelt\) result of / });
    expect(await smsResults.count()).toBe(0);
    expect(await history.getByText('Current result').count()).toBe(6);
    await page.getByRole('button', { name: 'Run the checks now' }).click();
    await expect.poll(() => history.getByRole('row').count()).toBe(13); // two runs of six checks
    await expect.poll(() => smsResults.count()).toBe(1);
    await smsResults.click();
    await page.getByRole('dialog', { name: 'Delete this result?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').filter({ hasText: 'Result of SMS (Textbelt) deleted.' }).waitFor();
    await expect.poll(() => history.getByRole('row').count()).toBe(12);

    await page.goto('/admin/dashboard/admin/cron-jobs');
    const schedules = page.getByRole('table', { name: 'Schedules' });
    await schedules.getByRole('row', { name: /^purge-old-runs 45 3 \* \* \* Not scheduled/ }).waitFor();
    await schedules.getByRole('button', { name: 'Run now: purge-old-runs' }).click();
    await page.getByRole('status').filter({ hasText: 'Run of purge-old-runs finished: OK.' }).waitFor();
    const runs = page.getByRole('table', { name: 'Runs' });
    await expect
      .poll(() => runs.getByRole('row', { name: /^purge-old-runs .* OK Deleted, as older than 30 days: 0 job runs; 0 health check results\./ }).count())
      .toBe(1);
    expect(await schedules.getByRole('row', { name: /^purge-old-runs .* OK Run now: purge-old-runs$/ }).count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}/ops-cron-jobs-1280.png`, fullPage: true });

    const probe = await page.request.get('/api/health');
    expect(probe.status()).toBe(200);
    expect(await probe.json()).toEqual({ status: 'ok' });
  } finally {
    await context.close();
  }
});
