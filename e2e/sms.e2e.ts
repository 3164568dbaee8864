import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import type { APIRequestContext, Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshots, startServer, type RunningServer } from './harness.ts';
import { startFakeTextbelt, type FakeTextbelt } from '../server/test/fakes/textbelt.ts';

// Text messages end to end, against a Textbelt faked on 127.0.0.1 (TEXTBELT_URL): an admin sets the
// key on the SMS screen, sees its balance, sends a test message and reads its delivery status; a
// provider verifies the phone of their live ad with the texted code, and a guest then sees the
// "Phone verified" badge on the ad's card and page (the server's caches follow at once).

const KEY = 'e2e_textbelt_key_4321';
const stamp = Date.now().toString(36);
const TITLE = `Lakeside evenings ${stamp} in Buffalo`;
const provider = { email: `sms-${stamp}@e2e.test`, nickname: `sms_${stamp}`, password: 'provider-password-e2e' };

let fake: FakeTextbelt;
let server: RunningServer;
let browser: Browser;
let photo: Buffer;

beforeAll(async () => {
  fake = await startFakeTextbelt({ keys: { [KEY]: 25 } });
  server = await startServer({ env: { TEXTBELT_URL: fake.url } });
  browser = await launchBrowser();
  photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 60, g: 120, b: 170 } } })
    .jpeg()
    .toBuffer();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.stop();
});

const shot = screenshots('sms');

async function page(): Promise<Page> {
  return (await newContext(browser, server)).newPage();
}

async function signIn(p: Page, email: string, password: string, to: string) {
  await p.goto(`/auth/login?redirect=${encodeURIComponent(to)}`);
  await p.locator('#login-email').fill(email);
  await p.locator('#login-password').fill(password);
  await p.getByRole('button', { name: 'Sign in', exact: true }).click();
  await p.waitForURL((u) => u.pathname === to);
}

/** A JSON call from a signed-in page (state changes carry our Origin, as the app's own calls do). */
async function api(request: APIRequestContext, method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown, status = 200) {
  const res = await request.fetch(url, { method, headers: { origin: server.url }, ...(data === undefined ? {} : { data }) });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(status);
  return res.json();
}

it('an admin sets the Textbelt key, sees the balance, sends a test message and follows its delivery', async () => {
  const staff = await page();
  try {
    await signIn(staff, server.master.email, server.master.password, '/admin/dashboard/admin/sms');
    await staff.getByText('No key set: messages go to the outbox.').waitFor();

    await staff.getByLabel('New key', { exact: true }).fill(KEY);
    await staff.getByRole('button', { name: 'Save key' }).click();
    await staff.getByRole('status').filter({ hasText: 'The key is saved.' }).waitFor();
    expect(await staff.getByTestId('sms-key-current').textContent()).toBe('••••4321');
    expect(await staff.content()).not.toContain(KEY); // the key never comes back to the page

    await staff.getByRole('button', { name: 'Check balance' }).click();
    await staff.getByText('Messages left: 25').waitFor();
    expect(fake.requests).toContain(`GET /quota/${KEY}`);

    await staff.getByLabel('Phone (US)', { exact: true }).fill('(212) 555-0100');
    await staff.getByLabel('Message (optional)', { exact: true }).fill(`Hello from the e2e suite ${stamp}`);
    await staff.getByRole('button', { name: 'Send test message' }).click();
    await staff.getByRole('status').filter({ hasText: 'Test message to +12125550100: Accepted by Textbelt.' }).waitFor();
    expect(fake.textsTo('+12125550100')).toEqual([`Hello from the e2e suite ${stamp}`]);
    const sent = fake.received.at(-1)!;
    const row = staff.getByRole('row').filter({ hasText: `Hello from the e2e suite ${stamp}` });
    await row.getByText('Accepted by Textbelt').waitFor();
    await row.getByText(String(sent.answer.textId)).waitFor();

    fake.setStatus(String(sent.answer.textId), 'DELIVERED');
    await staff.getByRole('button', { name: 'Refresh delivery statuses' }).click();
    await staff.getByRole('status').filter({ hasText: 'Messages checked: 1; changed: 1; could not be asked: 0.' }).waitFor();
    await row.getByText('Delivered', { exact: true }).waitFor();
    await staff.getByRole('button', { name: 'Check balance' }).click();
    await staff.getByText('Messages left: 24').waitFor();
    await shot(staff, 'admin');
  } catch (e) {
    await shot(staff, 'admin-fail');
    throw e;
  } finally {
    await staff.context().close();
  }
});

it('a provider verifies the phone of their ad, and guests see the badge on the card and the ad page', async () => {
  const staff = await page();
  const prov = await page();
  const guest = await page();
  try {
    // Set up through the API: the key, a funded promo wallet, a live ad with the phone, an approved provider.
    await signIn(staff, server.master.email, server.master.password, '/admin/dashboard/admin/sms');
    await api(staff.request, 'PUT', '/api/admin/update-textbelt-token-by-id/1', { token: KEY });
    const promo = `SMS-${stamp.toUpperCase()}`;
    await api(staff.request, 'POST', '/api/admin/set-promo-code-by-id', { code: promo, amountCents: 5000, maxUses: 1, active: true, expiresAt: null }, 201);
    const me = await api(prov.request, 'POST', '/api/register', provider, 201);
    const wallet = (await api(prov.request, 'POST', '/api/create-promo-wallet', {})).wallet;
    await api(prov.request, 'POST', '/api/add-promo-code-to-promo-wallet', { code: promo });
    const buffalo = (await api(prov.request, 'GET', '/api/cities-from-state/ny')).cities.find((c: { name: string }) => c.name === 'Buffalo');
    const posted = await prov.request.post('/api/post-ad', {
      headers: { origin: server.url },
      multipart: {
        listingType: 'female_esc',
        title: TITLE,
        description: 'Quiet dinners, long walks along the lake and good conversation. Friendly and discreet.',
        age: '31',
        stateId: 'ny',
        cityId: buffalo.id,
        phone: '(716) 555-0142',
        photos: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo },
      },
    });
    expect(posted.status(), await posted.text()).toBe(201);
    const adId = (await posted.json()).ad.id as string;
    await api(prov.request, 'PUT', `/api/ad-payment-in-cart/${adId}`, { walletId: wallet.id });
    await api(staff.request, 'POST', '/api/admin/approve-pending-ads', { adIds: [adId], decision: 'approve' });
    await api(staff.request, 'POST', '/api/master/update-user-status', { userId: me.id, status: 'approved' });

    // Before: no badge (and the public answers are now cached).
    await guest.goto(`/ad/${adId}`);
    await guest.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    expect(await guest.getByText('Phone verified').count()).toBe(0);

    // The provider verifies the number on their profile with the texted code.
    await prov.goto('/admin/dashboard/my-profile');
    const phone = prov.getByRole('region', { name: 'Phone number' });
    await phone.getByText('No verified phone yet.').waitFor();
    await phone.getByLabel('Mobile phone (US)', { exact: true }).fill('(716) 555-0142');
    await phone.getByRole('button', { name: 'Text me a code' }).click();
    await phone.getByRole('status').filter({ hasText: 'We texted a 6-digit code to (716) 555-0142. It works for 10 minutes.' }).waitFor();
    const text = fake.textsTo('+17165550142').at(-1) ?? '';
    const code = /\b(\d{6})\b/.exec(text)?.[1];
    expect(code, `the texted message: ${text}`).toMatch(/^\d{6}$/);
    await phone.getByLabel('Code from the text message', { exact: true }).fill(code!);
    await phone.getByRole('button', { name: 'Verify', exact: true }).click();
    await phone.getByRole('status').filter({ hasText: 'Your phone number (716) 555-0142 is verified.' }).waitFor();
    await phone.getByText('Verified phone: (716) 555-0142').waitFor();
    await shot(prov, 'profile');

    // A guest sees the badge beside the phone on the ad page, and on the card in the city listing.
    await guest.goto(`/ad/${adId}`);
    await guest.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    const dd = guest.locator('dd').filter({ has: guest.getByRole('link', { name: '(716) 555-0142' }) });
    await dd.getByText('Phone verified').waitFor();
    await shot(guest, 'ad');
    await guest.goto('/listings/us/new-york/buffalo/female-escorts');
    const card = guest.getByRole('listitem').filter({ has: guest.getByRole('heading', { level: 3, name: TITLE }) });
    await card.getByText('Phone verified').waitFor();
    await shot(guest, 'listing');
  } catch (e) {
    await Promise.all([shot(staff, 'fail-staff'), shot(prov, 'fail-provider'), shot(guest, 'fail-guest')]);
    throw e;
  } finally {
    await Promise.all([staff.context().close(), prov.context().close(), guest.context().close()]);
  }
});
