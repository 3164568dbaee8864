// The ad form's routes take a multipart upload of up to 60 MB, but any other body sent to them is
// held to the app's 1 MB (PRODUCT §11: "Request body 1 MB (uploads 60 MB total)"): a JSON or text
// body past it is refused 413 request.too_large before it is read whole and parsed. A photo past
// 10 MB is "too large" too (PRODUCT §7: 413), as the avatar form answers it.
import http from 'node:http';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { goodFields, jpegWithGps, placeIn, postAd, postAdRaw, type Place } from './ads.testkit.ts';

let ctx: TestContext;
let owner: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => ctx.close());

const MB = 1024 * 1024;
const adRows = async () => ctx.app.deps.db.selectFrom('ads').select(['id', 'title']).execute();

describe('a body other than multipart on the ad form’s routes', () => {
  // Copied from server/test/spec-e.probe9.test.ts.
  it('refuses a JSON body over 1 MB sent to an upload route with 413', async () => {
    const u = await makeUser(ctx);
    const big = JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) });
    const got: string[] = [];
    for (const [method, url] of [
      ['POST', '/api/post-ad'],
      ['PUT', '/api/ads/abc'],
    ] as const) {
      const res = await ctx.app.inject({ method, url, payload: big, headers: { 'content-type': 'application/json', cookie: u.cookie } });
      got.push(`${method} ${url} ${res.statusCode} ${res.json().code}`);
    }
    expect(got).toEqual(['POST /api/post-ad 413 request.too_large', 'PUT /api/ads/abc 413 request.too_large']);
  });

  it('refuses 2 MB of JSON or text to post or edit an ad with 413 request.too_large, and stores nothing', async () => {
    const ad = await postAd(ctx, owner, ny);
    const before = await adRows();
    const title = 'Changed title by a JSON body';
    for (const contentType of ['application/json', 'text/plain']) {
      const payload = contentType === 'application/json' ? JSON.stringify({ ...goodFields(ny, { title }), pad: 'x'.repeat(2 * MB) }) : 'x'.repeat(2 * MB);
      for (const [method, url] of [
        ['POST', '/api/post-ad'],
        ['PUT', `/api/ads/${ad.id}`],
      ] as const) {
        const res = await ctx.app.inject({ method, url, payload, headers: { 'content-type': contentType, cookie: owner.cookie } });
        expect({ what: `${contentType} ${method}`, status: res.statusCode, code: res.json().code }).toEqual({
          what: `${contentType} ${method}`,
          status: 413,
          code: 'request.too_large',
        });
      }
    }
    expect(await adRows()).toEqual(before);
  });

  it('keeps the 400 request.multipart_expected for a JSON body under 1 MB', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/post-ad',
      payload: JSON.stringify(goodFields(ny)),
      headers: { 'content-type': 'application/json', cookie: owner.cookie },
    });
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 400, code: 'request.multipart_expected' });
    expect(await adRows()).toEqual([]);
  });

  it('answers a streamed JSON body (no Content-Length) 413 past 1 MB, without waiting for the rest of it', async () => {
    const base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const total = 24 * MB; // within the 61 MB the routes once read and parsed whole
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const { status, body, sent } = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = http.request(`${base}/api/post-ad`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', cookie: owner.cookie, 'sec-fetch-site': 'same-origin' },
      });
      req.on('response', (res) => {
        answered = true;
        const at = sent;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, sent: at }));
      });
      req.on('error', (e) => (answered ? undefined : reject(e))); // the server closes the connection after its answer
      const write = () => {
        while (!answered && sent < total) {
          const ok = req.write(sent === 0 ? Buffer.concat([Buffer.from('{"title":"'), chunk]) : chunk);
          sent += chunk.length;
          if (!ok) return void req.once('drain', write);
        }
        if (!answered) req.end('"}');
      };
      write();
    });
    expect({ status, code: JSON.parse(body).code }).toEqual({ status: 413, code: 'request.too_large' });
    expect(sent).toBeLessThan(total / 2); // answered while the upload was still going, not after reading it all
    expect(await adRows()).toEqual([]);
  });

  it('still takes a multipart post larger than 1 MB', async () => {
    const photo = await sharp({ create: { width: 1400, height: 1400, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(photo.length).toBeGreaterThan(MB);
    const res = await postAdRaw(ctx, owner, goodFields(ny), [photo]);
    expect(res.statusCode, res.body).toBe(201);
    expect(await adRows()).toHaveLength(1);
  });
});

describe('a photo past 10 MB', () => {
  // Copied from server/test/spec-d.probe9.test.ts.
  it('answers an ad photo past 10 MB with 413 (too large), as the avatar form does, not 400', async () => {
    const big = Buffer.concat([await jpegWithGps(), Buffer.alloc(10 * 1024 * 1024 + 10)]);
    const res = await postAdRaw(ctx, owner, goodFields(ny), [big]);
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 413, code: 'ad.photo_too_large' });
  });
});
