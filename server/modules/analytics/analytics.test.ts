import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAdmin, createTestApp, makeUser, type TestContext } from '../../test/harness.ts';
import { DAY_MS } from '../../core/clock.ts';
import { openDatabase } from '../../core/db.ts';
import { migrate, readMigrations } from '../../core/migrate.ts';
import { Rng } from '../../test/fuzz/rng.ts';
import { placeIn, postAd } from '../ads/ads.testkit.ts';
import { PAGEVIEWS_PER_IP_PER_MINUTE, PAGEVIEWS_PER_MINUTE } from './analytics.service.ts';
import { PageViewCounts, topByBound } from './analytics.repository.ts';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://xg.example' } });
});
afterEach(async () => ctx.close());

const view = (payload: unknown, ip = '203.0.113.9', ua?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/analytics/pageview',
    payload: payload as object,
    remoteAddress: ip,
    ...(ua ? { headers: { 'user-agent': ua } } : {}),
  });
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

  it('is rate limited per viewer per minute; the others behind the same address are not held back', async () => {
    // A path each: a repeat of one path within the window is answered but not kept (analytics.counting.test.ts).
    for (let i = 0; i < PAGEVIEWS_PER_MINUTE; i++) expect((await view({ path: `/p${i}`, locale: 'en' })).statusCode).toBe(204);
    const over = await view({ path: '/over', locale: 'en' });
    expect([over.statusCode, over.json().code]).toEqual([429, 'request.rate_limited']);
    expect((await view({ path: '/', locale: 'en' }, '198.51.100.2')).statusCode).toBe(204);
    expect((await view({ path: '/', locale: 'en' }, '203.0.113.9', 'Another browser/1.0')).statusCode).toBe(204); // another phone, the same NAT
    ctx.clock.advance(60_001);
    expect((await view({ path: '/', locale: 'en' })).statusCode).toBe(204);
    expect(await rows()).toHaveLength(PAGEVIEWS_PER_MINUTE + 3);
  });

  it('holds an address at 600 a minute, whatever user agents its beacons name', async () => {
    expect(PAGEVIEWS_PER_IP_PER_MINUTE).toBe(600);
    for (let i = 0; i < PAGEVIEWS_PER_IP_PER_MINUTE; i++) {
      // A path each: of one path, an address counts VIEWERS_PER_ADDRESS viewers (analytics.counting.test.ts).
      const res = await view({ path: `/p${i}`, locale: 'en' }, '203.0.113.9', `Browser/${i}`);
      expect(res.statusCode).toBe(204);
    }
    const over = await view({ path: '/', locale: 'en' }, '203.0.113.9', 'Yet another browser/1.0');
    expect([over.statusCode, over.json().code]).toEqual([429, 'request.rate_limited']);
    expect((await view({ path: '/', locale: 'en' }, '198.51.100.2')).statusCode).toBe(204);
    expect(await rows()).toHaveLength(PAGEVIEWS_PER_IP_PER_MINUTE + 1); // each kept
    ctx.clock.advance(60_001);
    expect((await view({ path: '/', locale: 'en' }, '203.0.113.9', 'Yet another browser/1.0')).statusCode).toBe(204);
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
      today: '2026-01-16', // the server's UTC day the days end on
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

type View = { path: string; locale: 'en' | 'es' | 'pt'; at: string };

/** The staff's figures for the last `days` UTC days up to `now`, counted from the views themselves. */
function model(views: View[], now: Date, days: number, titles: Map<string, string>, top = 20) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS).toISOString();
  const inside = views.filter((v) => v.at >= since);
  const tally = (key: (v: View) => string | null) => {
    const m = new Map<string, number>();
    for (const v of inside) {
      const k = key(v);
      if (k !== null) m.set(k, (m.get(k) ?? 0) + 1);
    }
    return [...m];
  };
  const ranked = (rows: [string, number][]) => rows.sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).slice(0, top);
  const byKey = (rows: [string, number][]) => rows.sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    total: inside.length,
    byDay: byKey(tally((v) => v.at.slice(0, 10))).map(([day, count]) => ({ day, count })),
    topPaths: ranked(tally((v) => v.path)).map(([path, count]) => ({ path, count })),
    byLocale: byKey(tally((v) => v.locale)).map(([locale, count]) => ({ locale, count })),
    topAds: ranked(tally((v) => (/^(\/es|\/pt)?\/ad\//.test(v.path) ? v.path.slice(v.path.indexOf('/ad/') + 4) : null))).map(([adId, count]) => ({
      adId,
      title: titles.get(adId) ?? null,
      count,
    })),
  };
}

/** What migration 0026's counters must hold: the views per (day, locale), per (day, path) and per path. */
function counters(sqlite: import('better-sqlite3').Database) {
  const q = (sql: string) => sqlite.prepare(sql).all();
  return {
    days: q('SELECT day, locale, n FROM page_view_days ORDER BY day, locale'),
    paths: q('SELECT day, path, n FROM page_view_paths ORDER BY day, path'),
    totals: q('SELECT path, n FROM page_view_path_totals ORDER BY path'),
  };
}
function countersOf(sqlite: import('better-sqlite3').Database) {
  const q = (sql: string) => sqlite.prepare(sql).all();
  return {
    days: q('SELECT substr(at, 1, 10) AS day, locale, count(*) AS n FROM page_views GROUP BY day, locale ORDER BY day, locale'),
    paths: q('SELECT substr(at, 1, 10) AS day, path, count(*) AS n FROM page_views GROUP BY day, path ORDER BY day, path'),
    totals: q('SELECT path, count(*) AS n FROM page_views GROUP BY path ORDER BY path'),
  };
}

describe('the page-view figures (per-day counters, migration 0026)', () => {
  it('equal the figures counted from the views themselves, for any window, whichever way the top is found', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
    const rng = new Rng(seed);
    const owner = await makeUser(ctx, { status: 'approved' });
    const ny = await placeIn(ctx, 'ny');
    const ads = [await postAd(ctx, owner, ny, { title: 'First ad title' }), await postAd(ctx, owner, ny, { title: 'Second ad title' })];
    const titles = new Map(ads.map((a, i) => [a.id, i ? 'Second ad title' : 'First ad title']));
    const now = new Date('2026-03-10T15:30:00.000Z');
    const today = Date.UTC(2026, 2, 10);
    // Paths with a skew (the first ones far more often), ad pages of real and gone ads in every
    // language, a page that looks like an ad page but is not (case), and more paths than the top.
    const base = ['/', '/faq', '/listings/us', '/listings/us/new-york', '/search', '/terms', '/about-us'];
    for (let i = 0; i < 18; i++) base.push(`/listings/us/new-york/city-${i}/female-escorts`);
    for (const id of [...ads.map((a) => a.id), 'gone1', 'gone2']) base.push(`/ad/${id}`, `/es/ad/${id}`, `/pt/ad/${id}`);
    base.push('/AD/gone1', '/es/Ad/gone1');
    const at = (): string => {
      const day = today - rng.pick([0, 0, 0, 1, 1, 2, 5, 6, 7, 8, 29, 30, 31, 100, 363, 364, 365, 370]) * DAY_MS;
      // The first and last moments of a UTC day, and any moment between.
      const ms = rng.pick([0, DAY_MS - 1, rng.int(DAY_MS), rng.int(DAY_MS)]);
      return new Date(Math.min(day + ms, now.getTime())).toISOString();
    };
    const views: View[] = [];
    for (let i = 0; i < 600; i++) {
      const path = base[Math.min(base.length - 1, Math.floor(base.length * rng.next() ** 2.5))];
      const locale = rng.pick(['en', 'es', 'pt'] as const);
      const when = at();
      ctx.clock.set(when);
      const res = await view({ path, locale }, `10.0.${i >> 8}.${i & 255}`);
      expect(res.statusCode, `seed ${seed}`).toBe(204);
      views.push({ path, locale, at: when });
    }
    ctx.clock.set(now);
    const sqlite = ctx.app.deps.database.sqlite;
    expect(counters(sqlite), `seed ${seed}`).toEqual(countersOf(sqlite));

    const admin = await asAdmin(ctx);
    // Every way of finding the top: all the window's rows; the most viewed overall counted first,
    // with (firstRead 5, a top of 3 or 20) and without (64) a second read of those that can reach it.
    const forced = [
      new PageViewCounts(ctx.app.deps.database.reader, { allRowsMaxViews: 0, firstRead: 5 }),
      new PageViewCounts(ctx.app.deps.database.reader, { allRowsMaxViews: 0 }),
      new PageViewCounts(ctx.app.deps.database.reader, { allRowsMaxViews: 1e9 }),
    ];
    for (const days of [1, 2, 7, 8, 30, 31, 90, 364, 365]) {
      const want = model(views, now, days, titles);
      const res = await ctx.app.inject({ method: 'GET', url: `/api/admin/get-page-views?days=${days}`, headers: { cookie: admin.cookie } });
      expect(res.json(), `seed ${seed}, ${days} days`).toEqual({ days, today: new Date(today).toISOString().slice(0, 10), ...want });
      const sinceDay = new Date(today - (days - 1) * DAY_MS).toISOString().slice(0, 10);
      for (const counts of forced) {
        expect(counts.summarize(sinceDay, 20), `seed ${seed}, ${days} days`).toEqual(want);
        expect(counts.summarize(sinceDay, 3), `seed ${seed}, ${days} days, top 3`).toEqual(model(views, now, days, titles, 3));
      }
    }
    expect(model(views, now, 365, titles).topAds.filter((a) => a.title).length, 'the real ads were viewed').toBe(2);

    // None of the figures' statements reads page_views (one view of a year is millions of rows).
    for (const counts of forced)
      for (const source of counts.prepared()) {
        const args = source.includes('@') ? [{ since: null, n: null }] : Array.from(source.matchAll(/\?/g), () => null);
        const plan = (sqlite.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...args) as { detail: string }[]).map((r) => r.detail).join('; ');
        expect(plan, source).not.toMatch(/page_views/);
      }
  });

  it('the top found from the most viewed overall is the top of all, ties at its edge included', () => {
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
    const rng = new Rng(seed);
    for (let round = 0; round < 2000; round++) {
      // Few distinct counts, so that ties (and keys with all their views in the window) are common.
      const keys = Array.from({ length: 1 + rng.int(30) }, (_, i) => {
        const bound = 1 + rng.int(8);
        return { key: `k${rng.int(100)}-${i}`, bound, count: rng.chance(0.4) ? bound : rng.int(bound + 1) };
      });
      const byBound = [...keys].sort((a, b) => b.bound - a.bound);
      const top = 1 + rng.int(6);
      const firstRead = 1 + rng.int(10);
      const want = keys
        .filter((k) => k.count > 0)
        .map(({ key, count }) => ({ key, count }))
        .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1))
        .slice(0, top);
      const got = topByBound(
        (limit) => byBound.slice(0, limit),
        (least) => keys.filter((k) => k.bound >= least),
        top,
        firstRead,
      );
      expect(got, `seed ${seed}, round ${round}`).toEqual(want);
    }
  });

  it('migration 0026 counts the views recorded before it, and the views after it', () => {
    const all = readMigrations();
    const d = openDatabase(':memory:');
    try {
      migrate(
        d.sqlite,
        all.filter((m) => m.version < 26),
      );
      const rng = new Rng(26);
      const insert = d.sqlite.prepare('INSERT INTO page_views (path, locale, referrer_host, at) VALUES (?, ?, NULL, ?)');
      for (let i = 0; i < 500; i++)
        insert.run(
          rng.pick(['/', '/faq', '/ad/x', '/es/ad/x', '/pt/ad/y']),
          rng.pick(['en', 'es', 'pt']),
          new Date(Date.UTC(2026, 0, 1) + rng.int(40 * DAY_MS)).toISOString(),
        );
      expect(migrate(d.sqlite, all)[0]).toBe('0026_page_view_days.sql'); // and the later ones
      expect(counters(d.sqlite)).toEqual(countersOf(d.sqlite));
      insert.run('/faq', 'pt', '2026-02-09T23:59:59.999Z');
      insert.run('/new', 'en', '2026-02-10T00:00:00.000Z');
      expect(counters(d.sqlite)).toEqual(countersOf(d.sqlite));
    } finally {
      d.sqlite.close();
    }
  });
});
