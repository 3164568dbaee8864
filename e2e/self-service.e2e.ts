import { afterAll, beforeAll, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, photoFile, screenshots, startServer, type RunningServer, type TestPhoto } from './harness.ts';

// Providers manage their own ads and account (issue #13), through the real screens: an ad with
// rates, outcall and hours is rejected, edited from the link in the rejection e-mail, paid again
// from "my ads" and approved, and its page shows the rates and the call / text buttons; a live ad
// is edited and staff approve the edit beside the live ad; a provider resets a forgotten password
// through the link in the e-mail. Without SMTP the server writes its e-mails into DATA_DIR/outbox.

let server: RunningServer;
let browser: Browser;
let upload: TestPhoto | undefined;

const stamp = Date.now().toString(36);
const PROMO = `SELF-${stamp.toUpperCase()}`.slice(0, 32);
const TITLE = `Quiet evenings ${stamp} by the lake`;
const TITLE2 = `Quiet evenings ${stamp} by the river`;
const TITLE3 = `Quiet evenings ${stamp} and weekends`;
const provider = { email: `self-${stamp}@e2e.test`, nickname: `self_${stamp}`, password: 'provider-password-e2e' };

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  upload = await photoFile({ r: 60, g: 120, b: 170 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  upload?.remove();
});

const shot = screenshots('self-service');

async function page(): Promise<Page> {
  return (await newContext(browser, server)).newPage();
}

async function signIn(page: Page, email: string, password: string, to: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(to)}`);
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((u) => u.pathname === to);
}

async function register(page: Page, user: { email: string; nickname: string; password: string }, to: string) {
  await page.goto(`/auth/register?redirect=${encodeURIComponent(to)}`);
  await page.locator('#register-email').fill(user.email);
  await page.locator('#register-nickname').fill(user.nickname);
  await page.locator('#register-password').fill(user.password);
  await page.locator('#register-confirm').fill(user.password);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await page.waitForURL((u) => u.pathname === to);
}

async function step(name: string, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (e) {
    throw new Error(`step "${name}" failed: ${(e as Error).message}`, { cause: e });
  }
}

/** The text of an .eml: every part's body decoded (quoted-printable or base64), headers as they are. */
function decodeMail(raw: string): string {
  const text = raw.replace(/\r\n/g, '\n');
  const out: string[] = [text];
  const part = /Content-Transfer-Encoding: *([\w-]+)\n(?:[^\n]+\n)*\n([\s\S]*?)(?=\n--|$)/gi;
  for (const m of text.matchAll(part)) {
    const enc = m[1].toLowerCase();
    const body = m[2];
    if (enc === 'quoted-printable') {
      const bytes = body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      out.push(Buffer.from(bytes, 'latin1').toString('utf8'));
    } else if (enc === 'base64') out.push(Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8'));
    else out.push(body);
  }
  return out.join('\n');
}

/** The newest e-mail to `to` in the server's outbox whose text matches `pattern` (waits up to 10 s): the first match. */
async function linkFromMail(to: string, pattern: RegExp): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
    for (const f of files.sort().reverse()) {
      const raw = fs.readFileSync(path.join(outbox, f), 'utf8');
      if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw)) continue;
      const m = pattern.exec(decodeMail(raw));
      if (m) return m[0].replace(/&amp;/g, '&');
    }
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} matching ${pattern} in ${outbox} (${files.length} files)`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('a provider’s ad is rejected, edited from the e-mail, paid again and approved; a live ad’s edit is reviewed beside it', async () => {
  const staff = await page();
  const prov = await page();
  const guest = await page();
  let adId = '';
  try {
    await step('the master creates a promo code worth $50.00', async () => {
      await signIn(staff, server.master.email, server.master.password, '/admin/dashboard/admin/promo-codes');
      await staff.getByLabel('Code', { exact: true }).fill(PROMO);
      await staff.getByLabel('Amount (USD)', { exact: true }).fill('50');
      await staff.getByLabel('Maximum uses', { exact: true }).fill('5');
      await staff.getByRole('button', { name: 'Create promo code' }).click();
      await staff.getByRole('cell', { name: PROMO, exact: true }).waitFor();
    });

    await step('the provider registers and redeems the code', async () => {
      await register(prov, provider, '/admin/dashboard/my-wallet');
      await prov.getByRole('button', { name: 'Create my promo wallet' }).click();
      await prov.getByText('Your promo wallet is ready.').waitFor();
      await prov.getByLabel('Promo code', { exact: true }).fill(PROMO);
      await prov.getByRole('button', { name: 'Add promo code' }).click();
      await prov.getByText('Promo code added. Your promo balance is $50.00.').waitFor();
    });

    await step('the provider posts an ad with rates, outcall and hours, and pays it', async () => {
      await prov.goto('/admin/dashboard/create-ads');
      await prov.getByLabel('Listing type', { exact: true }).selectOption('female_esc');
      await prov.getByLabel('Title', { exact: true }).fill(TITLE);
      await prov.getByLabel('Description', { exact: true }).fill('Calm company for dinners and long walks by the water. Friendly, discreet and punctual.');
      await prov.getByLabel('Age', { exact: true }).selectOption('30');
      await prov.getByLabel('State', { exact: true }).selectOption({ label: 'New York' });
      await prov.getByRole('option', { name: 'Buffalo', exact: true }).waitFor({ state: 'attached' });
      await prov.getByLabel('City', { exact: true }).selectOption({ label: 'Buffalo' });
      await prov.getByLabel('Phone', { exact: true }).fill('(716) 555-0142');
      await prov.getByRole('button', { name: 'Add a rate' }).click();
      await prov.getByLabel('Duration of rate 1').selectOption('60');
      await prov.getByLabel('Price of rate 1 in US dollars').fill('200');
      await prov.getByLabel('Outcall: you go to your clients').check();
      await prov.getByLabel('Friday', { exact: true }).check();
      await prov.getByLabel('Friday from').fill('20:00');
      await prov.getByLabel('Friday until').fill('02:00');
      await prov.getByLabel('Photos', { exact: true }).setInputFiles(upload!.path);
      await prov.getByRole('list', { name: '1 photo selected' }).waitFor();
      await shot(prov, 'create');
      await prov.getByRole('button', { name: 'Post ad' }).click();
      await prov.waitForURL((u) => u.pathname === '/admin/dashboard/my-cart');
      const item = prov.getByRole('listitem', { name: TITLE });
      await item.getByRole('radio', { name: /Promo wallet — \$50\.00/ }).check();
      await item.getByRole('button', { name: 'Pay and send to review' }).click();
      await prov
        .getByRole('status')
        .filter({ hasText: `“${TITLE}” is paid and waiting for review.` })
        .waitFor();
    });

    await step('the master rejects the ad with a reason', async () => {
      await staff.goto('/admin/dashboard/admin/pending-ads');
      const item = staff.getByRole('listitem', { name: TITLE });
      await item.getByText(/1 hour \$200\.00 · Outcall only/).waitFor();
      await item.getByRole('button', { name: 'Reject', exact: true }).click();
      const dialog = staff.getByRole('dialog');
      await dialog.getByLabel('Reason (the owner sees it)').fill('The title does not match the photos.');
      await dialog.getByRole('button', { name: 'Reject and refund' }).click();
      await staff.getByRole('status').filter({ hasText: '1 ad rejected and refunded.' }).waitFor();
    });

    await step('the provider follows the e-mail’s link to the edit screen, edits the ad and pays again from my ads', async () => {
      const link = await linkFromMail(provider.email, /https?:\/\/[^\s"<>]+\/admin\/dashboard\/my-ads\?edit=[\w-]+/);
      adId = new URL(link).searchParams.get('edit')!;
      await prov.goto(link);
      await prov.waitForURL((u) => u.pathname === `/admin/dashboard/edit-ad/${adId}`);
      await prov.getByText(/This ad was rejected\. .*Reason: The title does not match the photos\./).waitFor();
      expect(await prov.getByLabel('Price of rate 1 in US dollars').inputValue()).toBe('200.00');
      expect(await prov.getByLabel('Friday until').inputValue()).toBe('02:00');
      await prov.getByLabel('Title', { exact: true }).fill(TITLE2);
      await shot(prov, 'edit');
      await prov.getByRole('button', { name: 'Save changes' }).click();
      await prov.waitForURL((u) => u.pathname === '/admin/dashboard/my-ads');
      await prov
        .getByRole('status')
        .filter({ hasText: `“${TITLE2}” is saved and back in your cart: pay for it to send it to review again.` })
        .waitFor();

      await prov.getByRole('tab', { name: /^Pending/ }).click();
      const item = prov.getByRole('listitem', { name: TITLE2 });
      await item.getByText('Waiting in your cart: pay for it to send it to review.').waitFor();
      await item.getByRole('button', { name: 'Pay', exact: true }).click();
      const dialog = prov.getByRole('dialog', { name: `Pay for “${TITLE2}”` });
      await dialog.getByRole('radio', { name: /Promo wallet — \$50\.00/ }).check(); // the first payment came back
      await dialog.getByRole('button', { name: 'Pay and send to review' }).click();
      await prov
        .getByRole('status')
        .filter({ hasText: `“${TITLE2}” is paid and waiting for review.` })
        .waitFor();
      await item.getByText('Our staff are reviewing this ad.').waitFor();
    });

    await step('the master approves the ad and the provider', async () => {
      await staff.goto('/admin/dashboard/admin/pending-ads');
      await staff.getByRole('listitem', { name: TITLE2 }).getByRole('button', { name: 'Approve', exact: true }).click();
      await staff.getByRole('status').filter({ hasText: '1 ad approved.' }).waitFor();
      await staff.goto('/admin/dashboard/master/pending-users');
      await staff.getByRole('button', { name: `Approve ${provider.email}` }).click();
      await staff
        .getByRole('dialog', { name: `Change ${provider.email} (${provider.nickname})?` })
        .getByRole('button', { name: 'Approve', exact: true })
        .click();
      await staff.getByText(`${provider.email} is approved.`).waitFor();
    });

    await step('a guest sees the rates, hours and the call and text buttons on the ad page', async () => {
      await guest.goto(`/ad/${adId}`);
      await guest.getByRole('heading', { level: 1, name: TITLE2 }).waitFor();
      const details = guest.getByRole('region', { name: 'Rates and hours' });
      await details.getByRole('row', { name: '1 hour $200.00' }).waitFor();
      await details.getByText('Outcall only').waitFor();
      await details.getByText('20:00–02:00').waitFor();
      expect(await guest.getByRole('link', { name: 'Call', exact: true }).getAttribute('href')).toBe('tel:+17165550142');
      expect(await guest.getByRole('link', { name: 'Text', exact: true }).getAttribute('href')).toBe('sms:+17165550142');
      await shot(guest, 'ad');
    });

    await step('the provider edits the live ad: staff see the edit beside it and approve it', async () => {
      await prov.goto('/admin/dashboard/my-ads');
      const item = prov.getByRole('listitem', { name: TITLE2 });
      await item.getByText('Approved and visible on the site.').waitFor();
      await item.getByText(/^Views: \d+ in the last 7 days, \d+ in the last 30 days$/).waitFor();
      await shot(prov, 'my-ads');
      // The mini sidebar: icons, each link's name a tooltip on hover.
      await prov.getByRole('button', { name: 'Collapse or expand the sidebar' }).click();
      const nav = prov.getByRole('navigation', { name: 'Dashboard navigation' });
      expect((await nav.boundingBox())!.width).toBe(80);
      const myAds = nav.getByRole('link', { name: 'My ads' });
      const label = myAds.getByText('My ads', { exact: true });
      expect((await label.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1); // hidden until asked for
      await myAds.hover();
      await prov.waitForFunction(() =>
        [...document.querySelectorAll('nav a span')].some((s) => s.textContent === 'My ads' && s.getBoundingClientRect().width > 20),
      );
      await shot(prov, 'mini-sidebar');
      await prov.getByRole('button', { name: 'Collapse or expand the sidebar' }).click();
      await item.getByRole('link', { name: 'Edit', exact: true }).click();
      await prov.waitForURL((u) => u.pathname === `/admin/dashboard/edit-ad/${adId}`);
      await prov.getByLabel('Title', { exact: true }).fill(TITLE3);
      await prov.getByRole('button', { name: 'Send changes for review' }).click();
      await prov.waitForURL((u) => u.pathname === '/admin/dashboard/my-ads');
      await prov
        .getByRole('status')
        .filter({ hasText: `Your changes to “${TITLE3}” are sent for review.` })
        .waitFor();
      await prov
        .getByRole('listitem', { name: TITLE2 })
        .getByText(/are waiting for review\. Until staff approve them, the ad shows as it was\./)
        .waitFor();

      await staff.goto('/admin/dashboard/admin/pending-ads');
      const edit = staff.getByRole('listitem', { name: TITLE3 });
      await edit.getByText('Edit of a live ad').waitFor();
      const row = edit.getByRole('row', { name: /^Title/ });
      expect(await row.getAttribute('data-changed')).toBe('true');
      expect(await row.getByRole('cell').allTextContents()).toEqual([TITLE2, TITLE3]);
      await shot(staff, 'revision');
      await edit.getByRole('button', { name: 'Approve', exact: true }).click();
      await staff.getByRole('status').filter({ hasText: '1 ad approved.' }).waitFor();

      await guest.goto(`/ad/${adId}`);
      await guest.getByRole('heading', { level: 1, name: TITLE3 }).waitFor();
    });
  } catch (e) {
    await Promise.all([shot(staff, 'fail-staff'), shot(prov, 'fail-provider'), shot(guest, 'fail-guest')]);
    throw e;
  }
});

it('a provider resets a forgotten password through the link in the e-mail', async () => {
  const who = { email: `reset-${stamp}@e2e.test`, nickname: `reset_${stamp}`, password: 'old-password-e2e-1' };
  const newPassword = 'new-password-e2e-2';
  const setup = await page();
  const p = await page();
  try {
    await step('the provider has an account', async () => {
      await register(setup, who, '/admin/dashboard');
    });

    await step('from sign-in, the provider asks for a reset link', async () => {
      await p.goto('/auth/login');
      await p.getByRole('link', { name: 'Forgot password?' }).click();
      await p.waitForURL((u) => u.pathname === '/auth/forgot-password');
      await p.getByLabel('E-mail', { exact: true }).fill(who.email);
      await p.getByRole('button', { name: 'Send the link' }).click();
      await p
        .getByRole('status')
        .filter({ hasText: `If ${who.email} belongs to an account, a link to reset its password is on its way.` })
        .waitFor();
    });

    await step('the link in the e-mail sets a new password', async () => {
      const link = await linkFromMail(who.email, /https?:\/\/[^\s"<>]+\/auth\/reset-password\?token=[\w-]+/);
      await p.goto(link);
      await p.getByLabel('New password', { exact: true }).fill(newPassword);
      await p.getByLabel('Repeat the new password', { exact: true }).fill(newPassword);
      await p.getByRole('button', { name: 'Save the new password' }).click();
      await p.getByText('Your password was changed and every session was signed out. Sign in with the new password.').waitFor();
    });

    await step('the old password no longer works; the new one does', async () => {
      await p.goto('/auth/login');
      await p.locator('#login-email').fill(who.email);
      await p.locator('#login-password').fill(who.password);
      await p.getByRole('button', { name: 'Sign in', exact: true }).click();
      await p.getByRole('alert').waitFor();
      expect(new URL(p.url()).pathname).toBe('/auth/login');
      await signIn(p, who.email, newPassword, '/admin/dashboard/my-ads');
      await p.getByRole('heading', { level: 1, name: 'My ads' }).waitFor();
    });
  } catch (e) {
    await shot(p, 'fail-reset');
    throw e;
  }
});
