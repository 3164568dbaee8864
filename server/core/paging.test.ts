import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMaster, createTestApp, type TestContext } from '../test/harness.ts';
import { registeredRoutes, splitRoute } from '../test/routes.ts';

// One paging schema for every list (contract/api/paging.ts Paging): whole numbers, page 1–10,000,
// pageSize 1–100, anything else a 400 naming the field. These inputs answered 500 on nine lists.
const BAD: [string, string][] = [
  ['page', 'Infinity'],
  ['page', '-Infinity'],
  ['page', '1e400'],
  ['page', 'NaN'],
  ['page', '-1'],
  ['page', '0'],
  ['page', '1.5'],
  ['page', '10001'],
  ['pageSize', '1e9'],
  ['pageSize', '0'],
  ['pageSize', '101'],
  ['pageSize', 'Infinity'],
];

let ctx: TestContext;
let cookie: string;
let lists: string[];
beforeAll(async () => {
  ctx = await createTestApp();
  cookie = (await asMaster(ctx)).cookie;
  // Every GET route that takes `page`, found by asking each one: a list answers `page=x` with
  // "Invalid page…", any other route refuses `page` as an unknown field.
  lists = [];
  const changesState = new Set(['/api/logout', '/api/email-wallet-promo-code', '/api/ws']);
  for (const route of registeredRoutes(ctx.app)) {
    const { method, url } = splitRoute(route);
    if (method !== 'GET' || !url.startsWith('/api/') || url.includes(':') || changesState.has(url)) continue;
    const res = await ctx.app.inject({ url: `${url}?page=x`, headers: { cookie } });
    if (res.statusCode === 400 && /^Invalid page\b/.test((res.json() as { message: string }).message)) lists.push(url);
  }
});
afterAll(() => ctx.close());

describe('paging on every list', () => {
  it('finds the lists', () => {
    expect(lists).toEqual(
      expect.arrayContaining([
        '/api/admin/get-reports',
        '/api/admin/get-cron-jobs',
        '/api/admin/get-pending-ads',
        '/api/admin/get-approved-ads',
        '/api/admin/get-all-promo-codes',
        '/api/admin/get-audit-log',
        '/api/master/get-approved-users',
        '/api/master/get-pending-users',
      ]),
    );
  });

  it('answers 400 naming the field for every bad page and pageSize, never 500', async () => {
    const wrong: string[] = [];
    for (const url of lists) {
      for (const [field, value] of BAD) {
        const sep = url.includes('?') ? '&' : '?';
        const res = await ctx.app.inject({ url: `${url}${sep}${field}=${encodeURIComponent(value)}`, headers: { cookie } });
        const message = (res.json() as { message?: string }).message ?? '';
        if (res.statusCode !== 400 || !message.includes(field)) wrong.push(`${url} ${field}=${value}: ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('accepts the bounds', async () => {
    for (const url of lists) {
      const res = await ctx.app.inject({ url: `${url}?page=10000&pageSize=100`, headers: { cookie } });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 120)}`).toBeLessThan(500);
      // Public lists stop deeper than a person pages (listings.service maxOffset) with their own message.
      expect(res.json().message ?? '', `${url}: ${res.body.slice(0, 120)}`).not.toMatch(/^Invalid|Unknown field/);
    }
  });
});
