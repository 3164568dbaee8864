import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService } from '../modules/auth/auth.service.ts';
import { asAdmin, asMaster, createTestApp, makeUser, rawInject, type TestContext } from '../test/harness.ts';
import { liveAd, placeIn } from '../modules/ads/ads.testkit.ts';
import { registeredRoutes, splitRoute } from '../test/routes.ts';

// Holes found by attacking the running product (security issue): each test here failed on the
// code before its fix.

let ctx: TestContext;
let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-dist-'));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html>\n<html lang="en">\n<head>\n<!--head-->\n<title>XG</title>\n</head>\n<body><div id="root"></div></body>\n</html>\n',
  );
  ctx = await createTestApp({ distDir: dist, env: { PUBLIC_URL: 'https://xg.example' } });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const db = () => ctx.app.deps.database.sqlite;
const userColumns = () => (db().prepare('PRAGMA table_info(users)').all() as { name: string }[]).map((c) => c.name);
const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const countUsers = () => (db().prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;

describe('registration cannot choose roles or status (hole 1)', () => {
  const hostile = () => {
    const extra: Record<string, unknown> = {};
    for (const c of userColumns()) {
      extra[c] = c === 'status' ? 'approved' : c === 'token_version' ? 0 : 'x';
      extra[camel(c)] = extra[c];
    }
    return {
      ...extra,
      roles: ['MASTER_USER', 'ADMIN_USER', 'PROVIDER_USER'],
      userRoles: ['MASTER_USER'],
      role: 'MASTER_USER',
      status: 'approved',
      userStatus: 'approved',
    };
  };

  it('refuses a body with any field beyond email, password and nickname, creating nothing', async () => {
    const before = countUsers();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { ...hostile(), email: 'mallory@example.com', password: 'long enough pw', nickname: 'mallory' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^Unknown field: /);
    expect(countUsers()).toBe(before);
  });

  it('makes a plain pending PROVIDER_USER even when the service itself is handed every column', async () => {
    const auth = new AuthService(ctx.app.deps);
    const input = { ...hostile(), email: 'eve@example.com', password: 'long enough pw', nickname: 'eve' };
    const user = await auth.register(input as Parameters<AuthService['register']>[0], '203.0.113.9');
    expect(user.userRoles).toEqual(['PROVIDER_USER']);
    expect(user.userStatus).toBe('pending');
    const row = db().prepare('SELECT * FROM users WHERE id = ?').get(user.id) as Record<string, unknown>;
    expect(row).toMatchObject({
      status: 'pending',
      avatar: null,
      phone: null,
      phone_verified_at: null,
      deleted_at: null,
      token_version: 0,
      welcome_promo_sent_at: null,
    });
    expect(row.id).not.toBe('x');
  });

  it('refuses unknown fields on every JSON route, not only register', async () => {
    const master = await asMaster(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/nickname-update',
      headers: { cookie: master.cookie },
      payload: { nickname: 'fine', status: 'approved' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Unknown field: status.');
  });
});

describe('cross-site requests change nothing (hole 7)', () => {
  const crossSite: [string, Record<string, string>][] = [
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['another Origin', { origin: 'https://evil.example' }],
    ['another Referer', { referer: 'https://evil.example/page' }],
    ['a malformed Origin', { origin: 'null' }],
    ['no Sec-Fetch-Site, Origin or Referer', {}],
  ];

  it('GET /api/logout from another site leaves the session alive', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    for (const [what, headers] of crossSite) {
      const res = await rawInject(ctx.app, { method: 'GET', url: '/api/logout', headers: { ...headers, cookie: u.cookie } });
      expect(res.statusCode, what).toBe(403);
      const session = await ctx.app.inject({ url: '/api/session', headers: { cookie: u.cookie } });
      expect(session.json().isAuthenticated, what).toBe(true);
    }
    // From our own pages it works, by GET (the seed's path) and by POST (the client's).
    const own = await rawInject(ctx.app, { method: 'POST', url: '/api/logout', headers: { cookie: u.cookie, origin: 'https://xg.example' } });
    expect(own.statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/api/session', headers: { cookie: u.cookie } })).json().isAuthenticated).toBe(false);
  });

  it('GET /api/email-wallet-promo-code from another site sends nothing', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    const sent = ctx.mailer.sent.length;
    const res = await rawInject(ctx.app, { method: 'GET', url: '/api/email-wallet-promo-code', headers: { cookie: u.cookie, 'sec-fetch-site': 'cross-site' } });
    expect(res.statusCode).toBe(403);
    expect(ctx.mailer.sent.length).toBe(sent);
  });

  it('every state-changing route refuses a cross-site request before it runs', async () => {
    const master = await asMaster(ctx);
    const changesState = new Set(['GET /api/logout', 'GET /api/email-wallet-promo-code']);
    // Called by other servers and authenticated otherwise: BTCPay's signed webhook, and the signed
    // one-click unsubscribe link mail providers post to (RFC 8058). Both refuse a bad signature.
    const exempt = new Set<string>(['POST /api/webhooks/btcpay', 'POST /api/unsubscribe']);
    const targets = registeredRoutes(ctx.app)
      .filter((r) => splitRoute(r).url.startsWith('/api/'))
      .filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(splitRoute(r).method) || changesState.has(r))
      .filter((r) => !exempt.has(r));
    expect(targets.length).toBeGreaterThan(30);
    const totalChanges = () => (db().prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    const wrong: string[] = [];
    for (const route of targets) {
      const { method, url } = splitRoute(route);
      const before = totalChanges();
      const res = await rawInject(ctx.app, {
        method: method as 'POST',
        url: url.replace(/:[A-Za-z]+/g, 'x'),
        headers: { cookie: master.cookie, 'sec-fetch-site': 'cross-site' },
        payload: method === 'GET' ? undefined : {},
      });
      if (res.statusCode !== 403 || !/another site/.test(res.body) || totalChanges() !== before)
        wrong.push(`${route}: ${res.statusCode} ${res.body.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('accepts requests that say they come from our pages', async () => {
    for (const headers of [
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      { origin: 'https://xg.example' },
      { referer: 'https://xg.example/auth/login' },
    ]) {
      const res = await rawInject(ctx.app, {
        method: 'POST',
        url: '/api/login',
        headers,
        payload: { email: 'nobody@example.com', password: 'wrong password' },
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
    }
  });
});

describe('HEAD behaves as GET (hole 10)', () => {
  it('answers public routes and refuses private ones like GET does', async () => {
    for (const url of [
      '/api/home',
      '/api/session',
      '/api/listings?state=new-york',
      '/api/search?query=x',
      '/api/states-from-country',
      '/api/get-ad-pricing',
      '/faq',
      '/',
    ]) {
      const get = await ctx.app.inject({ method: 'GET', url });
      const head = await ctx.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(get.statusCode);
      expect(head.body, url).toBe('');
    }
    for (const url of ['/api/user-profile', '/api/admin/get-reports', '/api/master/get-pending-users']) {
      expect((await ctx.app.inject({ method: 'HEAD', url })).statusCode, url).toBe(401);
    }
  });

  it('never runs a GET that changes state: HEAD /api/logout keeps the session, HEAD of the promo e-mail sends nothing', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    const sent = ctx.mailer.sent.length;
    for (const url of ['/api/logout', '/api/email-wallet-promo-code']) {
      const res = await ctx.app.inject({ method: 'HEAD', url, headers: { cookie: u.cookie } });
      expect(res.statusCode, url).toBe(405);
      expect(res.headers.allow, url).toBe('GET');
    }
    expect((await ctx.app.inject({ url: '/api/session', headers: { cookie: u.cookie } })).json().isAuthenticated).toBe(true);
    expect(ctx.mailer.sent.length).toBe(sent);
    expect((await ctx.app.inject({ method: 'HEAD', url: '/api/email-wallet-promo-code' })).statusCode).toBe(401);
  });
});

describe('private answers are not cached (hole 13)', () => {
  it('says no-store on every answer to a signed-in user, and leaves guests’ public answers alone', async () => {
    const u = await makeUser(ctx, { status: 'approved' });
    const master = await asMaster(ctx);
    for (const [cookie, url] of [
      [u.cookie, '/api/user-profile'],
      [u.cookie, '/api/home'],
      [u.cookie, '/api/listings?state=new-york'],
      [master.cookie, '/api/admin/get-reports'],
      [master.cookie, '/api/master/get-approved-users'],
      [master.cookie, '/api/admin/get-audit-log'],
    ]) {
      const res = await ctx.app.inject({ url, headers: { cookie } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const guest = await ctx.app.inject({ url: '/api/home' });
    expect(guest.headers['cache-control']).toBeUndefined();
  });
});

describe('a crafted path cannot paste the page into itself (hole 8)', () => {
  it("keeps one document for paths holding $` $' $& and $1", async () => {
    for (const p of ['/$`', "/$'", '/$&', '/$1', "/listings/us/$`/$'", "/es/$`$'$&"]) {
      const res = await ctx.app.inject({ url: encodeURI(p) });
      expect(res.body.match(/<!doctype html>/gi), p).toHaveLength(1);
      expect(res.body.match(/<\/html>/gi), p).toHaveLength(1);
      expect(res.body.match(/<title>/gi), p).toHaveLength(1);
    }
  });
});

describe('a JSON body is taken as it was written, not coerced (hostile input)', () => {
  // Fastify's Ajv coerces types by default, as a query string needs: in a JSON body it turned
  // null into 0 (a price cleared by a form: every ad free), true into 1, "0x3e8" into 1000.
  it('refuses a price that is not a JSON integer, and leaves the price as it was', async () => {
    const admin = await asAdmin(ctx);
    const price = (await ctx.app.inject({ url: '/api/get-ad-pricing' })).json().pricing[0];
    for (const priceCents of [null, true, '0x3e8', ' 12 ', '1200', [500]]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/admin/set-price-by-id',
        headers: { cookie: admin.cookie },
        payload: { id: price.id, priceCents },
      });
      expect(res.statusCode, JSON.stringify(priceCents)).toBe(400);
      expect(res.json(), JSON.stringify(priceCents)).toMatchObject({ code: 'validation.invalid', params: { field: 'priceCents' } });
    }
    expect((await ctx.app.inject({ url: '/api/get-ad-pricing' })).json().pricing[0].priceCents).toBe(price.priceCents);
  });

  it('names the rule a refused value broke, with its limit, for the page to word in its language', async () => {
    const u = await makeUser(ctx);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/nickname-update', headers: { cookie: u.cookie }, payload: { nickname: 'n'.repeat(31) } });
    expect(res.json()).toEqual({
      message: 'Invalid nickname: at most 30 characters.',
      code: 'validation.invalid',
      params: { field: 'nickname', reason: 'at most 30 characters', rule: 'too_long', limit: 30 },
    });
    const typed = await ctx.app.inject({ method: 'POST', url: '/api/nickname-update', headers: { cookie: u.cookie }, payload: { nickname: 5 } });
    expect(typed.json().params).toEqual({ field: 'nickname', reason: 'must be text', rule: 'type_string' });
  });

  it('names the rule of a list with a value twice, and the whole path of a field missing below the top', async () => {
    const master = await asMaster(ctx);
    const u = await makeUser(ctx, { status: 'approved' });
    const roles = await ctx.app.inject({
      method: 'POST',
      url: '/api/master/update-user-roles',
      headers: { cookie: master.cookie },
      payload: { userId: u.id, roles: ['ADMIN_USER', 'ADMIN_USER'] },
    });
    expect(roles.json()).toMatchObject({
      code: 'validation.invalid',
      params: { field: 'roles', rule: 'unique', reason: 'must not list the same value twice' },
    });
    const admin = await asAdmin(ctx);
    const nested = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/send-public-message',
      headers: { cookie: admin.cookie },
      payload: { text: { es: 'Hola' } },
    });
    expect(nested.json()).toEqual({ message: 'text.en is required.', code: 'validation.required', params: { field: 'text.en' } });
  });

  it("refuses {online: null} and keeps the owner's ad online; a query string's numbers are still read", async () => {
    const owner = await makeUser(ctx, { status: 'approved' });
    const ad = await liveAd(ctx, owner, await asAdmin(ctx), await placeIn(ctx, 'ny'));
    for (const online of [null, 0, 'false']) {
      const res = await ctx.app.inject({ method: 'PUT', url: `/api/update-ad-online-status/${ad.id}`, headers: { cookie: owner.cookie }, payload: { online } });
      expect(res.statusCode, JSON.stringify(online)).toBe(400);
    }
    expect((await ctx.app.inject({ url: `/api/ads/${ad.id}` })).json().ad.online).toBe(true);
    const listed = await ctx.app.inject({ url: '/api/listings?state=new-york&page=1&pageSize=5' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ page: 1, pageSize: 5 });
  });
});

describe('an /api path written with percent-escapes is an /api path (hostile input)', () => {
  // The router decodes the path (`/%61pi/health` is GET /api/health) but the per-IP limit and the
  // header set read the raw URL: such requests were never counted, and got the pages' headers.
  it('counts it against the per-IP ceiling and gives it the API headers', async () => {
    const limited = await createTestApp({ limits: { apiPerMinute: 3 } });
    try {
      const statuses: number[] = [];
      for (const url of ['/%61pi/health', '/a%70i/health', '/api%2Fhealth', '/%61pi/health', '/%61pi/health']) {
        statuses.push((await limited.app.inject({ url })).statusCode);
      }
      expect(statuses[0]).toBe(200);
      expect(statuses).toContain(429);
      const plain = await ctx.app.inject({ url: '/api/health' });
      const escaped = await ctx.app.inject({ url: '/%61pi/health' });
      expect(escaped.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
    } finally {
      await limited.close();
    }
  });

  it('answers an unknown /api path 404 with its code, by GET as by POST, however it is written', async () => {
    for (const url of ['/api/no-such-route', '/%61pi/no-such-route', '/assets/nope.js', '/.env']) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await ctx.app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json(), `${method} ${url}`).toMatchObject({ code: 'request.not_found', message: 'Not found.' });
      }
    }
  });
});
