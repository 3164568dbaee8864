import { afterAll, beforeAll, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, startServer, type RunningServer } from './harness.ts';

// Keyboard and screen-reader use of the signed-in screens in real Chromium: what happens after an
// action (where focus goes when the control it came from goes away or is busy, and which field a
// server's refusal is about). WCAG 2.4.3 Focus Order, 3.3.1 Error Identification.

let server: RunningServer;
let browser: Browser;

const stamp = Date.now().toString(36);
const PROMO = `KEYS-${stamp.toUpperCase()}`.slice(0, 32);
const provider = { email: `keys-${stamp}@e2e.test`, nickname: `keys_${stamp}`, password: 'provider-password-e2e' };
let staffCtx: BrowserContext;
let provCtx: BrowserContext;
let adId = '';
let pendingId = '';
let ownerId = '';

async function api(context: BrowserContext, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown) {
  const res = await context.request.fetch(url, { method, data: data as object, headers: { origin: server.url } });
  const body = await res.text();
  if (res.status() >= 300) throw new Error(`${method} ${url}: ${res.status()} ${body}`);
  return JSON.parse(body) as Record<string, never>;
}

async function postAd(ctx: BrowserContext, title: string): Promise<string> {
  const states = (await api(ctx, 'GET', '/api/states-from-country')) as unknown as { states: { id: string; slug: string }[] };
  const ny = states.states.find((s) => s.slug === 'new-york')!;
  const cities = (await api(ctx, 'GET', `/api/cities-from-state/${ny.id}`)) as unknown as { cities: { id: string; slug: string }[] };
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 120, b: 180 } } })
    .jpeg()
    .toBuffer();
  const posted = await ctx.request.post('/api/post-ad', {
    headers: { origin: server.url },
    multipart: {
      listingType: 'female_esc',
      title,
      description: 'Calm, discreet company for dinners and gallery openings, by appointment only.',
      age: '29',
      stateId: ny.id,
      cityId: cities.cities.find((c) => c.slug === 'buffalo')!.id,
      phone: '(716) 555-0199',
      photos: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo },
    },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  return ((await posted.json()) as { ad: { id: string } }).ad.id;
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  staffCtx = await newContext(browser, server);
  provCtx = await newContext(browser, server);
  await api(staffCtx, 'POST', '/api/login', { email: server.master.email, password: server.master.password });
  await api(staffCtx, 'POST', '/api/admin/set-promo-code-by-id', { code: PROMO, amountCents: 5000, maxUses: 5, active: true });
  ownerId = (await api(provCtx, 'POST', '/api/register', provider)).id;
  await api(provCtx, 'POST', '/api/login', { email: provider.email, password: provider.password });
  adId = await postAd(provCtx, `Harbour lights ${stamp} companion`);
  pendingId = await postAd(provCtx, `Quiet evenings ${stamp} by the lake`);
  const wallet = (await api(provCtx, 'POST', '/api/create-promo-wallet', {})) as unknown as { wallet: { id: string } };
  await api(provCtx, 'POST', '/api/add-promo-code-to-promo-wallet', { code: PROMO });
  await api(provCtx, 'PUT', `/api/ad-payment-in-cart/${adId}`, { walletId: wallet.wallet.id });
  await api(provCtx, 'PUT', `/api/ad-payment-in-cart/${pendingId}`, { walletId: wallet.wallet.id });
  await api(staffCtx, 'POST', '/api/admin/approve-pending-ads', { adIds: [adId], decision: 'approve' });
  await api(staffCtx, 'POST', '/api/master/update-user-status', { userId: ownerId, status: 'approved' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** What has keyboard focus: 'BODY' when focus was lost to the document. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    if (!a || a === document.body) return 'BODY';
    return `${a.tagName} ${a.getAttribute('aria-label') ?? a.id ?? ''} "${(a.textContent ?? '').trim().slice(0, 40)}"`.trim();
  });

// A rate line's "Remove" leaves with its line: focus goes to the next line's Remove, else the
// previous one's, else to "Add a rate", not to <body> (which would throw a keyboard or
// screen-reader user back to the top of the page).
it('removing the only rate line of the ad form moves focus to "Add a rate"', async () => {
  const page = await provCtx.newPage();
  try {
    await page.goto('/admin/dashboard/create-ads');
    await page.getByRole('button', { name: 'Add a rate' }).click();
    await page.getByRole('button', { name: 'Remove rate 1' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Remove rate 1' }).count()).toBe(0);
    expect(await focused(page), 'focus after removing the only rate line').toBe('BUTTON  "Add a rate"');
  } finally {
    await page.close();
  }
});

// Same for a picked photo: focus goes to the next photo's Remove, else the previous one's, else to
// the file input.
it('removing the only picked photo from the ad form moves focus to the file input', async () => {
  const page = await provCtx.newPage();
  const file = path.join(os.tmpdir(), `keys-${stamp}-one.jpg`);
  fs.writeFileSync(
    file,
    await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 120, b: 180 } } })
      .jpeg()
      .toBuffer(),
  );
  try {
    await page.goto('/admin/dashboard/create-ads');
    await page.getByLabel('Photos', { exact: true }).setInputFiles(file);
    const remove = page.getByRole('button', { name: /one\.jpg/ });
    await remove.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => remove.count()).toBe(0);
    expect(await focused(page), 'focus after removing the only picked photo').toMatch(/^INPUT /);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe('file');
  } finally {
    fs.rmSync(file, { force: true });
    await page.close();
  }
});

// A submit button refuses clicks while its request runs (aria-disabled) instead of being disabled:
// a focused button that becomes disabled drops focus to <body>, and the next Tab would start from
// the top of the page. Shown with the wallet's promo-code form, refused.
it('submitting a form from its submit button keeps keyboard focus on the button', async () => {
  const page = await provCtx.newPage();
  try {
    await page.goto('/admin/dashboard/my-wallet');
    await page.getByLabel('Promo code', { exact: true }).fill('NO-SUCH-CODE');
    await page.getByRole('button', { name: 'Add promo code' }).focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('alert')
      .filter({ hasText: /promo code/i })
      .waitFor();
    expect(await focused(page), 'focus after the refusal').toBe('BUTTON  "Add promo code"');
  } finally {
    await page.close();
  }
});

// The server's "The password is wrong." is about the Current password field: that field is marked
// invalid, described by the message (TextField refusedBy), and takes focus.
it('a wrong current password marks the Current password field invalid, describes it and focuses it', async () => {
  const page = await provCtx.newPage();
  try {
    await page.goto('/admin/dashboard/my-profile');
    await page.getByLabel('Current password').fill('not my password 123');
    await page.getByLabel('New password', { exact: true }).fill('second password 2x');
    await page.getByLabel('Confirm new password').fill('second password 2x');
    await page.getByLabel('Confirm new password').press('Enter');
    await page.getByRole('alert').filter({ hasText: 'The password is wrong.' }).waitFor();
    const field = page.getByLabel('Current password');
    expect(await field.getAttribute('aria-invalid'), 'Current password aria-invalid').toBe('true');
    const description = await field.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
    expect(description).toContain('The password is wrong.');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
  } finally {
    await page.close();
  }
});

// A promo code that already exists is refused by the server about the Code field: the field is
// marked invalid, described by the refusal, and takes focus.
it('a duplicate promo code marks the Code field invalid, describes it and focuses it', async () => {
  const page = await staffCtx.newPage();
  try {
    await page.goto('/admin/dashboard/admin/promo-codes');
    await page.getByLabel('Code', { exact: true }).fill(PROMO);
    await page.getByLabel('Code', { exact: true }).press('Enter');
    await page.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
    const field = page.getByLabel('Code', { exact: true });
    expect(await field.getAttribute('aria-invalid'), 'Code aria-invalid').toBe('true');
    const description = await field.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
    expect(description).toContain('already exists');
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
  } finally {
    await page.close();
  }
});

// Sending the reject dialog without a reason moves focus to the Reason field, invalid and described
// by its rule: a screen-reader user hears why nothing happened.
it('rejecting an ad without a reason moves focus to the reason field', async () => {
  const page = await staffCtx.newPage();
  try {
    await page.goto('/admin/dashboard/admin/pending-ads');
    await page.getByRole('button', { name: 'Reject', exact: true }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Reject and refund' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByLabel('Reason (the owner sees it)').getAttribute('aria-invalid')).toBe('true');
    expect(await focused(page)).toMatch(/^TEXTAREA reject-reason /);
  } finally {
    await page.close();
  }
});

// Turning an ad online/offline from the keyboard (Space on the switch) keeps focus on the switch:
// while its request runs it is aria-disabled (ignores changes), not disabled.
it('toggling an ad online with the keyboard keeps focus on the switch', async () => {
  const page = await provCtx.newPage();
  try {
    await page.goto('/admin/dashboard/my-ads');
    const sw = page.getByRole('switch', { name: 'Online' }).first();
    await sw.focus();
    const before = await sw.isChecked();
    await page.keyboard.press('Space');
    await expect.poll(() => sw.isChecked()).toBe(!before);
    await expect.poll(() => sw.isDisabled()).toBe(false);
    expect(await sw.evaluate((el) => el === document.activeElement), `focus after toggling: ${await focused(page)}`).toBe(true);
  } finally {
    await page.close();
  }
});

// Paying for an ad in the cart removes its row (and the Pay button with it): focus goes to the
// outcome ("… is paid"), as on the pending-ads screen.
it('paying for an ad in the cart moves focus to the outcome', async () => {
  const title = `Cart focus ${stamp} evenings`;
  await postAd(provCtx, title);
  const page = await provCtx.newPage();
  try {
    await page.goto('/admin/dashboard/my-cart');
    const item = page.getByRole('listitem', { name: title });
    await item.getByRole('radio', { name: /Promo wallet/ }).check();
    await item.getByRole('button', { name: 'Pay and send to review' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => item.count()).toBe(0);
    const note = page.getByRole('status').filter({ hasText: 'is paid' });
    await note.waitFor();
    await expect.poll(() => note.evaluate((el) => el === document.activeElement)).toBe(true);
  } finally {
    await page.close();
  }
});
