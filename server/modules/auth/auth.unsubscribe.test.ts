import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, rawInject, type TestContext, type TestUser } from '../../test/harness.ts';
import { unsubscribeApiUrl, unsubscribePageUrl } from '../../core/unsubscribe.ts';

// The address of a reminder's List-Unsubscribe header (/api/unsubscribe?u=…&t=…), as mail
// providers and mail clients use it: a one-click POST (RFC 8058) in either form encoding it
// allows, and a GET from clients without one-click (RFC 2369), which only leads to the page.

let ctx: TestContext;
let ann: TestUser;
beforeEach(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://xg.example' } });
  ann = await makeUser(ctx, { status: 'approved' });
});
afterEach(async () => ctx.close());

const SITE = 'https://xg.example';
/** The header's address as a path of ours. */
const oneClick = (userId: string) => unsubscribeApiUrl(ctx.app.deps.config, userId).slice(SITE.length);
const optedOut = async (id: string) =>
  (await ctx.app.deps.db.selectFrom('users').select('reminders_opt_out').where('id', '=', id).executeTakeFirstOrThrow()).reminders_opt_out;

describe('one-click unsubscribe', () => {
  // RFC 8058 §3.1: the POST "SHOULD be sent as multipart/form-data" (and MAY be urlencoded).
  it('a POST sent as multipart/form-data from a mail provider unsubscribes', async () => {
    const form = new FormData();
    form.append('List-Unsubscribe', 'One-Click');
    const req = new Request('https://mail-provider.example/', { method: 'POST', body: form });
    const res = await rawInject(ctx.app, {
      method: 'POST',
      url: oneClick(ann.id),
      headers: { 'content-type': req.headers.get('content-type')!, 'sec-fetch-site': 'cross-site' },
      payload: Buffer.from(await req.arrayBuffer()),
    });
    expect([res.statusCode, res.json()]).toEqual([200, { unsubscribed: true }]);
    expect(await optedOut(ann.id)).toBe(1);
  });

  it('a multipart body larger than a one-click form is refused, and unsubscribes no one', async () => {
    const res = await rawInject(ctx.app, {
      method: 'POST',
      url: oneClick(ann.id),
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'sec-fetch-site': 'cross-site' },
      payload: `--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\n${'a'.repeat(5000)}\r\n--x--\r\n`,
    });
    expect(res.statusCode).toBe(413);
    expect(await optedOut(ann.id)).toBe(0);
  });
});

describe('the unsubscribe address opened in a browser', () => {
  it('leads (303) to the page that asks to confirm, in the browser’s language, and unsubscribes no one', async () => {
    for (const [lang, locale] of [
      ['en-US,en;q=0.9', 'en'],
      ['pt-BR,pt;q=0.9', 'pt'],
    ] as const) {
      const res = await rawInject(ctx.app, {
        method: 'GET',
        url: oneClick(ann.id),
        headers: { accept: 'text/html', 'accept-language': lang, 'sec-fetch-site': 'none' },
      });
      expect([res.statusCode, res.headers.location], lang).toEqual([303, unsubscribePageUrl(ctx.app.deps.config, ann.id, locale)]);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(await optedOut(ann.id)).toBe(0);
  });

  it('passes the link on as it came: a forged token stays forged (the page’s POST refuses it)', async () => {
    const res = await rawInject(ctx.app, { method: 'GET', url: `/api/unsubscribe?u=${ann.id}&t=forged%26u%3Dx`, headers: { 'sec-fetch-site': 'none' } });
    expect([res.statusCode, res.headers.location]).toEqual([303, `${SITE}/unsubscribe?u=${ann.id}&t=forged%26u%3Dx`]);
    const confirm = await ctx.app.inject({ method: 'POST', url: `/api/unsubscribe?u=${ann.id}&t=forged`, payload: {} });
    expect([confirm.statusCode, confirm.json().code]).toEqual([400, 'auth.unsubscribe_link_invalid']);
    expect(await optedOut(ann.id)).toBe(0);
  });
});
