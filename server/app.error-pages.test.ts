// A page address the router refuses (a link a chat app cut mid-escape, one past the router's
// length limit) answers a page in the address's language; the API and files keep the coded JSON.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './test/harness.ts';
import { ERRORS } from '../contract/errors/index.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp();
});
afterEach(async () => ctx.close());

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

describe('a page address the router refuses answers a page', () => {
  it('a cut percent-escape: 400, an HTML page in the address’s language, never cached, with the pages’ headers', async () => {
    const cases = [
      { url: '/es/ad/%E0%A4%A', lang: 'es', says: 'Esta dirección está mal formada', home: '/es', link: 'Ir al inicio' },
      { url: '/pt/ad/%E0%A4%A?utm_source=chat', lang: 'pt', says: 'Este endereço está malformado', home: '/pt', link: 'Ir para o início' },
      { url: '/ad/%E0%A4%A', lang: 'en', says: ERRORS['request.malformed_url'], home: '/', link: 'Go to the home page' },
      { url: '/es/listings/us/new-york/%E0%A4', lang: 'es', says: 'Esta dirección está mal formada', home: '/es', link: 'Ir al inicio' },
      { url: '/%E0%A4%A', lang: 'en', says: ERRORS['request.malformed_url'], home: '/', link: 'Go to the home page' },
    ];
    for (const c of cases) {
      const res = await get(c.url);
      expect({ url: c.url, status: res.statusCode, type: res.headers['content-type'], cache: res.headers['cache-control'] }).toEqual({
        url: c.url,
        status: 400,
        type: 'text/html; charset=utf-8',
        cache: 'no-store',
      });
      expect(res.body).toContain(`<html lang="${c.lang}">`);
      expect(res.body).toContain(c.says);
      expect(res.body).toContain(`<a href="${c.home}">${c.link}</a>`);
      if (c.lang !== 'en') expect(res.body).not.toContain(ERRORS['request.malformed_url']);
      // The pages' set (a CSP for documents, COOP), not the API's short one.
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-opener-policy']).toBeDefined();
    }
  });

  it('a path parameter past the router’s limit outside the API: 414, the page saying so', async () => {
    const res = await get(`/sitemaps/${'a'.repeat(101)}.xml`);
    expect({ status: res.statusCode, type: res.headers['content-type'], cache: res.headers['cache-control'] }).toEqual({
      status: 414,
      type: 'text/html; charset=utf-8',
      cache: 'no-store',
    });
    expect(res.body).toContain(ERRORS['request.url_too_long']);
  });

  it('the page is the same for HEAD, without a body', async () => {
    const res = await ctx.app.inject({ method: 'HEAD', url: '/es/ad/%E0%A4%A' });
    expect({ status: res.statusCode, type: res.headers['content-type'], body: res.body }).toEqual({ status: 400, type: 'text/html; charset=utf-8', body: '' });
  });

  it('the API (also spelled with an escape) and the files keep the coded JSON body', async () => {
    for (const url of ['/api/ads/%E0%A4%A', '/%61pi/ads/%E0%A4%A', '/assets/%E0%A4%A.js', '/uploads/%E0%A4%A.webp', '/.well-known/%E0%A4%A']) {
      const res = await get(url);
      expect({ url, status: res.statusCode, type: res.headers['content-type'], body: res.json() }).toEqual({
        url,
        status: 400,
        type: 'application/json; charset=utf-8',
        body: { code: 'request.malformed_url', message: ERRORS['request.malformed_url'] },
      });
    }
    const long = await get(`/api/ads/${'a'.repeat(101)}`);
    expect({ status: long.statusCode, body: long.json() }).toEqual({
      status: 414,
      body: { code: 'request.url_too_long', message: ERRORS['request.url_too_long'] },
    });
  });
});
