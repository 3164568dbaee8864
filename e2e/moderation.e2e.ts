import { afterAll, beforeAll, expect, it } from 'vitest';
import fs from 'node:fs';
import sharp from 'sharp';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, newContext, screenshots, startServer, type RunningServer } from './harness.ts';
import { readZip } from '../server/modules/moderation/moderation.testkit.ts';

// The moderators' tools end to end (issue #14): a provider's ad is live and reported; the master
// finds it by its phone written another way, opens its owner's user screen (ads, money, sign-ins),
// disables the ad from the report, and exports the owner's evidence file.

let server: RunningServer;
let browser: Browser;

const stamp = Date.now().toString(36);
const TITLE = `Harbour lights ${stamp} companion`;
const PROMO = `MOD-${stamp.toUpperCase()}`.slice(0, 32);
const provider = { email: `owner-${stamp}@e2e.test`, nickname: `owner_${stamp}`, password: 'provider-password-e2e' };

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const shot = screenshots('moderation');

async function step(name: string, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (e) {
    throw new Error(`step "${name}" failed: ${(e as Error).message}`, { cause: e });
  }
}

/** A JSON request from a context's own cookies, as our pages send it (same origin). */
async function api(context: BrowserContext, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown) {
  const res = await context.request.fetch(url, { method, data: data as object, headers: { origin: server.url } });
  const body = await res.text();
  if (res.status() >= 300) throw new Error(`${method} ${url}: ${res.status()} ${body}`);
  return JSON.parse(body) as Record<string, never>;
}

it('a moderator finds an ad by phone, opens its owner, disables the ad from a report and exports evidence', async () => {
  const staffContext = await newContext(browser, server);
  const providerContext = await newContext(browser, server);
  const guestContext = await newContext(browser, server);
  const staff = await staffContext.newPage();
  let adId = '';
  let ownerId = '';
  try {
    await step('a provider’s ad is paid, approved, live, and reported by a visitor', async () => {
      await staff.goto(`/auth/login?redirect=${encodeURIComponent('/admin/dashboard/admin/search-ads')}`);
      await staff.locator('#login-email').fill(server.master.email);
      await staff.locator('#login-password').fill(server.master.password);
      await staff.getByRole('button', { name: 'Sign in', exact: true }).click();
      await staff.waitForURL((u) => u.pathname === '/admin/dashboard/admin/search-ads');
      await api(staffContext, 'POST', '/api/admin/set-promo-code-by-id', { code: PROMO, amountCents: 5000, maxUses: 5, active: true });

      ownerId = (await api(providerContext, 'POST', '/api/register', provider)).id;
      await api(providerContext, 'POST', '/api/login', { email: provider.email, password: provider.password }); // a sign-in the user screen shows
      const states = (await api(providerContext, 'GET', '/api/states-from-country')) as unknown as { states: { id: string; slug: string }[] };
      const ny = states.states.find((s) => s.slug === 'new-york')!;
      const cities = (await api(providerContext, 'GET', `/api/cities-from-state/${ny.id}`)) as unknown as { cities: { id: string; slug: string }[] };
      const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 120, b: 180 } } })
        .jpeg()
        .toBuffer();
      const posted = await providerContext.request.post('/api/post-ad', {
        headers: { origin: server.url },
        multipart: {
          listingType: 'female_esc',
          title: TITLE,
          description: 'Calm, discreet company for dinners and gallery openings, by appointment only.',
          age: '29',
          stateId: ny.id,
          cityId: cities.cities.find((c) => c.slug === 'buffalo')!.id,
          phone: '(716) 555-0199',
          photos: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo },
        },
      });
      expect(posted.status(), await posted.text()).toBe(201);
      adId = ((await posted.json()) as { ad: { id: string } }).ad.id;
      const wallet = (await api(providerContext, 'POST', '/api/create-promo-wallet', {})) as unknown as { wallet: { id: string } };
      await api(providerContext, 'POST', '/api/add-promo-code-to-promo-wallet', { code: PROMO });
      await api(providerContext, 'PUT', `/api/ad-payment-in-cart/${adId}`, { walletId: wallet.wallet.id });
      await api(staffContext, 'POST', '/api/admin/approve-pending-ads', { adIds: [adId], decision: 'approve' });
      await api(staffContext, 'POST', '/api/master/update-user-status', { userId: ownerId, status: 'approved' });
      await api(guestContext, 'POST', `/api/report-ad/${adId}`, { message: 'This advert looks suspicious to me, please check it.' });
    });

    await step('the moderator finds the ad by its phone, written another way', async () => {
      await staff.goto('/admin/dashboard/admin/search-ads');
      await staff.getByLabel('Ad id, words, phone, e-mail or nickname').fill('716.555.0199');
      await staff.getByRole('button', { name: 'Search', exact: true }).click();
      await staff.getByText('1 ad found').waitFor();
      const row = staff.getByRole('row').filter({ hasText: TITLE });
      await row.getByText('Approved', { exact: true }).waitFor();
      await shot(staff, 'search');
      await row.getByRole('link', { name: `Open the user screen of ${provider.email}` }).click();
      await staff.waitForURL((u) => u.pathname === `/admin/dashboard/admin/users/${ownerId}`);
    });

    await step('the user screen shows who posted it, what else they have, what they paid, where they signed in from', async () => {
      await staff.getByRole('heading', { level: 1, name: new RegExp(provider.nickname) }).waitFor();
      await staff.getByRole('region', { name: 'Ads (1)' }).getByRole('link', { name: TITLE }).waitFor();
      await staff
        .getByRole('region', { name: /^Money/ })
        .getByText('Ad payment', { exact: true })
        .waitFor();
      await staff
        .getByRole('region', { name: /^Sign-ins/ })
        .getByText('127.0.0.1')
        .first()
        .waitFor();
      await staff.getByRole('region', { name: 'Reports about their ads (1)' }).getByText('This advert looks suspicious to me, please check it.').waitFor();
      await shot(staff, 'user');
    });

    await step('the moderator disables the ad from its report', async () => {
      await staff.goto('/admin/dashboard/admin/reports');
      const row = staff.getByRole('row').filter({ hasText: 'This advert looks suspicious to me' });
      await row.getByRole('link', { name: TITLE }).waitFor();
      await row.getByRole('button', { name: 'Disable ad' }).click();
      await staff
        .getByRole('dialog', { name: `Disable the ad “${TITLE}”?` })
        .getByRole('button', { name: 'Disable the ad' })
        .click();
      await staff.getByText(`“${TITLE}” is disabled.`).waitFor();
      await row.getByText('Disabled', { exact: true }).waitFor();
      await shot(staff, 'report');
      const pub = await guestContext.request.get(`/api/ads/${adId}`);
      expect(pub.status(), 'a disabled ad is no longer public').toBe(404);
    });

    await step('the moderator exports the owner’s evidence file', async () => {
      await staff.goto(`/admin/dashboard/admin/users/${ownerId}`);
      const [download] = await Promise.all([staff.waitForEvent('download'), staff.getByRole('link', { name: 'Export evidence file' }).click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^evidence-user-${ownerId}-\\d{8}T\\d{6}Z\\.zip$`));
      const file = await download.path();
      const files = readZip(fs.readFileSync(file));
      const manifest = JSON.parse(files.get('manifest.json')!.toString()) as { subject: { type: string; id: string }; exportedBy: { email: string } };
      expect(manifest.subject).toMatchObject({ type: 'user', id: ownerId });
      expect(manifest.exportedBy.email).toBe(server.master.email);
      // Every version: as posted (stored), then the ad as it is now, disabled.
      const versions = JSON.parse(files.get(`ads/${adId}/versions.json`)!.toString()) as { version: string; source?: string; status?: string }[];
      expect(versions.map((v) => [v.version, v.source ?? v.status])).toEqual([
        ['stored', 'posted'],
        ['current', 'disabled'],
      ]);
      expect([...files.keys()].some((n) => n.startsWith(`ads/${adId}/photos/`) && n.endsWith('.webp'))).toBe(true);
      expect(JSON.parse(files.get('sign-ins.json')!.toString())).toHaveLength(2); // registering and signing in
      // The export is in the audit log, for the chain of custody.
      await staff.goto('/admin/dashboard/admin/audit-log');
      await staff.getByLabel('Action', { exact: true }).fill('evidence.export');
      await staff.getByRole('button', { name: 'Filter', exact: true }).click();
      await staff.getByRole('cell', { name: 'evidence.export' }).waitFor();
    });
  } catch (e) {
    await shot(staff, 'fail');
    throw e;
  } finally {
    await Promise.all([staffContext.close(), providerContext.close(), guestContext.close()]);
  }
});
