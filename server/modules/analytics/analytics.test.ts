import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { PAGEVIEWS_PER_MINUTE } from './analytics.service.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://xg.example' } });
});
afterEach(async () => ctx.close());

const view = (payload: unknown, ip = '203.0.113.9') =>
  ctx.app.inject({ method: 'POST', url: '/api/analytics/pageview', payload: payload as object, remoteAddress: ip });
const rows = () => ctx.app.deps.db.selectFrom('page_views').selectAll().orderBy('id').execute();

describe('POST /api/analytics/pageview', () => {
  it('stores the path without its query, the locale and only the referrer host', async () => {
    expect((await view({ path: '/es/search?query=secret#x', locale: 'es', referrer: 'https://www.Google.com/search?q=me' })).statusCode).toBe(204);
    expect((await view({ path: '/faq', locale: 'en', referrer: 'https://xg.example/listings/us' })).statusCode).toBe(204);
    expect((await view({ path: '/', locale: 'pt', referrer: 'not a url' })).statusCode).toBe(204);
    expect((await rows()).map((r) => [r.path, r.locale, r.referrer_host, r.at])).toEqual([
      ['/es/search', 'es', 'www.google.com', '2026-01-15T12:00:00.000Z'],
      ['/faq', 'en', null, '2026-01-15T12:00:00.000Z'], // our own site is not a referral
      ['/', 'pt', null, '2026-01-15T12:00:00.000Z'],
    ]);
  });

  it('refuses bad input naming the field and stores nothing', async () => {
    const cases: Array<[unknown, { code: string; params: Record<string, unknown> }]> = [
      [{ locale: 'en' }, { code: 'validation.required', params: { field: 'path' } }],
      [
        { path: 'faq', locale: 'en' },
        { code: 'analytics.path_invalid', params: { field: 'path' } },
      ],
      [
        { path: '//evil.example/x', locale: 'en' },
        { code: 'analytics.path_invalid', params: { field: 'path' } },
      ],
      [
        { path: '/faq', locale: 'fr' },
        { code: 'validation.invalid', params: { field: 'locale' } },
      ],
    ];
    for (const [payload, want] of cases) {
      const res = await view(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject(want);
    }
    expect((await view({ path: 'faq', locale: 'en' })).json().message).toBe('Path must start with /.');
    expect(await rows()).toHaveLength(0);
  });

  it('is rate limited per IP per minute', async () => {
    for (let i = 0; i < PAGEVIEWS_PER_MINUTE; i++) expect((await view({ path: '/', locale: 'en' })).statusCode).toBe(204);
    const over = await view({ path: '/', locale: 'en' });
    expect([over.statusCode, over.json().code]).toEqual([429, 'request.rate_limited']);
    expect((await view({ path: '/', locale: 'en' }, '198.51.100.2')).statusCode).toBe(204);
    ctx.clock.advance(60_001);
    expect((await view({ path: '/', locale: 'en' })).statusCode).toBe(204);
    expect(await rows()).toHaveLength(PAGEVIEWS_PER_MINUTE + 2);
  });

  it('counts an IPv6 subscriber by its /64, as every per-IP limit does', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PAGEVIEWS_PER_MINUTE + 5; i++)
      statuses.push((await view({ path: '/', locale: 'en' }, `2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode);
    expect(statuses.filter((x) => x === 429)).toHaveLength(5);
    expect((await view({ path: '/', locale: 'en' }, '2001:db8:1:3::1')).statusCode).toBe(204); // the next /64
  });

  it('records the public site only: a dashboard, sign-in, checkout or unsubscribe path (in any language) is not kept', async () => {
    for (const path of [
      '/admin/dashboard/admin/users/u123',
      '/es/admin/dashboard',
      '/auth/reset-password',
      '/pt/sandbox/checkout/inv1',
      '/unsubscribe',
      '/ad/abc',
      '/administrators',
    ]) {
      expect((await view({ path, locale: 'en' })).statusCode, path).toBe(204);
    }
    expect((await rows()).map((r) => r.path)).toEqual(['/ad/abc', '/administrators']);
  });
});

describe('GET /api/admin/get-page-views', () => {
  it('summarizes the last days for staff only', async () => {
    await view({ path: '/faq', locale: 'en' });
    ctx.clock.advance(24 * 60 * 60 * 1000);
    await view({ path: '/faq', locale: 'es' });
    await view({ path: '/', locale: 'es' });
    const admin = await asAdmin(ctx);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/get-page-views?days=7', headers: { cookie: admin.cookie } });
    expect(res.json()).toEqual({
      days: 7,
      total: 3,
      byDay: [
        { day: '2026-01-15', count: 1 },
        { day: '2026-01-16', count: 2 },
      ],
      topPaths: [
        { path: '/faq', count: 2 },
        { path: '/', count: 1 },
      ],
      byLocale: [
        { locale: 'en', count: 1 },
        { locale: 'es', count: 2 },
      ],
      topAds: [],
    });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/get-page-views?days=0', headers: { cookie: admin.cookie } })).statusCode).toBe(400);
    const provider = await makeUser(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/get-page-views', headers: { cookie: provider.cookie } })).statusCode).toBe(403);
  });

  it('N days are the last N whole UTC days, today the last: a view on the day before them counts nowhere', async () => {
    ctx.clock.set('2026-01-08T18:00:00.000Z'); // within "168 hours ago" but on the 8th day back
    await view({ path: '/faq', locale: 'en' });
    ctx.clock.set('2026-01-09T00:00:00.000Z'); // the first of the 7 days
    await view({ path: '/faq', locale: 'en' });
    ctx.clock.set('2026-01-15T12:00:00.000Z');
    const admin = await asAdmin(ctx);
    const res = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-page-views?days=7', headers: { cookie: admin.cookie } })).json();
    expect([res.total, res.byDay]).toEqual([1, [{ day: '2026-01-09', count: 1 }]]);
  });

  it('top ads are ad pages only, whatever the case of a mistyped path', async () => {
    for (const path of ['/AD/abc123', '/Es/Ad/abc123', '/es/ad/abc123', '/ad/abc123']) await view({ path, locale: 'en' });
    const admin = await asAdmin(ctx);
    const res = (await ctx.app.inject({ method: 'GET', url: '/api/admin/get-page-views', headers: { cookie: admin.cookie } })).json();
    expect(res.topAds).toEqual([{ adId: 'abc123', title: null, count: 2 }]);
  });
});
