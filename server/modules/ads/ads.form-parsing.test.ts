// How the ad form's text parts are read (readAdForm, core/multipart.ts textField): a known field is
// taken as the text it was sent, or refused naming it; never stored cut short, with U+FFFD in place
// of its letters, or dropped because the client marked it JSON.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { goodFields, jpegWithGps, placeIn, postAd, type Place } from './ads.testkit.ts';

let ctx: TestContext;
let owner: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => ctx.close());

const BOUNDARY = 'ADFORMBOUNDARY';
type Part = { name: string; value: Buffer | string; headers?: string; filename?: string };
/** A multipart body written by hand, so a part can carry bytes and headers a FormData cannot. */
function multipart(parts: Part[]) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disp}\r\n${p.headers ?? ''}\r\n`), Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(chunks), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
}

/** The good ad form with some fields replaced or added (a Part gives one its own headers), and one photo. */
async function adParts(over: Record<string, Buffer | string | Part> = {}): Promise<Part[]> {
  const fields: Record<string, Buffer | string | Part> = { ...goodFields(ny), ...over };
  return [
    ...Object.entries(fields).map(([name, value]) => (typeof value === 'object' && 'name' in value ? value : { name, value })),
    { name: 'photos', value: await jpegWithGps(), filename: 'a.jpg', headers: 'Content-Type: image/jpeg\r\n' },
  ];
}

async function send(method: 'POST' | 'PUT', url: string, parts: Part[]) {
  const { payload, 'content-type': contentType } = multipart(parts);
  return ctx.app.inject({ method, url, headers: { cookie: owner.cookie, 'content-type': contentType }, payload });
}
const postForm = async (over: Record<string, Buffer | string | Part> = {}) => send('POST', '/api/post-ad', await adParts(over));
const countAds = async () => (await ctx.app.deps.db.selectFrom('ads').select('id').execute()).length;
const outcome = (res: { statusCode: number; json: () => { code?: string; params?: unknown } }) => ({
  status: res.statusCode,
  code: res.json().code,
  params: res.json().params,
});
const NOT_TEXT = (field: string) => ({ status: 400, code: 'validation.invalid', params: { field, rule: 'format', reason: 'is not in the expected form' } });
const NOT_STRING = (field: string) => ({ status: 400, code: 'validation.invalid', params: { field, rule: 'type_string', reason: 'must be text' } });

describe('a text field that is not UTF-8', () => {
  // Copied from server/test/probe7-parsing.test.ts.
  it('is refused naming the field when its part declared no charset, and no ad is stored', async () => {
    const res = await postForm({ title: Buffer.from('Elegant se\xf1orita downtown', 'latin1') });
    expect(outcome(res)).toEqual(NOT_TEXT('title'));
    expect(await countAds()).toBe(0);
  });

  it('is refused naming the field when its part declared UTF-8', async () => {
    const description = Buffer.from('Friendly se\xf1orita, discreet and punctual. Dinner dates and travel by appointment.', 'latin1');
    const res = await postForm({ description: { name: 'description', value: description, headers: 'Content-Type: text/plain; charset=UTF-8\r\n' } });
    expect(outcome(res)).toEqual(NOT_TEXT('description'));
    expect(await countAds()).toBe(0);
  });

  it('is taken as declared when its part names another charset, and UTF-8 is taken as sent', async () => {
    const latin1 = await postForm({
      title: { name: 'title', value: Buffer.from('Elegant se\xf1orita downtown', 'latin1'), headers: 'Content-Type: text/plain; charset=iso-8859-1\r\n' },
    });
    expect(latin1.statusCode, latin1.body).toBe(201);
    expect(latin1.json().ad.title).toBe('Elegant señorita downtown');
    const utf8 = await postForm({ title: 'Elegant señorita 💋 downtown' });
    expect(utf8.statusCode, utf8.body).toBe(201);
    expect(utf8.json().ad.title).toBe('Elegant señorita 💋 downtown');
  });
});

describe('a field sent as application/json', () => {
  // Copied from server/test/probe7-parsing.test.ts.
  it('is refused naming the field when it is not text (rates as a JSON list), not silently dropped', async () => {
    const rates = JSON.stringify([{ minutes: 60, priceCents: 25000 }]);
    const res = await postForm({ rates: { name: 'rates', value: rates, headers: 'Content-Type: application/json\r\n' } });
    expect(outcome(res)).toEqual(NOT_STRING('rates'));
    expect(await countAds()).toBe(0);
  });

  // JSON can write half of a UTF-16 pair ("\ud83d"), which UTF-8 cannot hold: SQLite stored it as
  // U+FFFD, and the ad page, its <title> and the cards showed "�" where the provider wrote
  // something else. Refused as U+FFFD itself is; so is one in a UTF-16 part.
  it('is refused naming the field when its string holds a lone surrogate, and no ad is stored', async () => {
    const json = await postForm({ title: { name: 'title', value: '"Lovely evenings \\ud83d in town"', headers: 'Content-Type: application/json\r\n' } });
    expect(outcome(json)).toEqual(NOT_TEXT('title'));
    const utf16 = await postForm({
      title: { name: 'title', value: Buffer.from('Lovely evenings \ud83d in town', 'utf16le'), headers: 'Content-Type: text/plain; charset=utf-16le\r\n' },
    });
    expect(outcome(utf16)).toEqual(NOT_TEXT('title'));
    expect(await countAds()).toBe(0);
    const whole = await postForm({
      title: { name: 'title', value: '"Lovely evenings \\ud83d\\udc8b in town"', headers: 'Content-Type: application/json\r\n' },
    });
    expect(whole.statusCode, whole.body).toBe(201);
    expect(whole.json().ad.title).toBe('Lovely evenings 💋 in town');
  });

  it('on an edit, a keepPhotos sent as JSON is refused, and the ad keeps its title and photos', async () => {
    const ad = (await postAd(ctx, owner, ny)) as unknown as { id: string; title: string; photos: { url: string }[] };
    const keepPhotos = JSON.stringify(ad.photos.map((p) => p.url));
    const res = await send(
      'PUT',
      `/api/ads/${ad.id}`,
      await adParts({
        title: 'A brand new title for this ad',
        keepPhotos: { name: 'keepPhotos', value: keepPhotos, headers: 'Content-Type: application/json\r\n' },
      }),
    );
    expect(outcome(res)).toEqual(NOT_STRING('keepPhotos'));
    const mine = (await ctx.app.inject({ method: 'GET', url: `/api/all-ads-by-user?adId=${ad.id}`, headers: { cookie: owner.cookie } })).json();
    const now = [...mine.approvedAds, ...mine.pendingAds] as (typeof ad)[];
    expect(now.map((a) => ({ title: a.title, photos: a.photos.map((p) => p.url) }))).toEqual([{ title: ad.title, photos: ad.photos.map((p) => p.url) }]);
  });
});

describe('a field past the multipart field size limit (64 KB)', () => {
  // Copied from server/test/probe7-parsing.test.ts.
  it('is refused 413 naming the field, not stored cut short', async () => {
    const description = `Friendly, discreet and punctual. ${'\n'.repeat(70_000)}Rates on request, call after 6pm.`;
    const res = await postForm({ description });
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 413,
      body: { message: 'The request is too large.', code: 'request.too_large', params: { field: 'description' } },
    });
    expect(await countAds()).toBe(0);
  });
});
