import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES } from '../core/access.ts';
import { createTestApp, type TestContext } from './harness.ts';
import { MATRIX_WEBHOOK_SECRET } from './matrix/payments.ts';
import { registeredRoutes, splitRoute } from './routes.ts';
import { Fixture, mirrorOwner, ownerOf, ownsKind } from './matrix/fixture.ts';
import { matrixRows } from './matrix/index.ts';
import { diff, snapshot } from './matrix/snapshot.ts';
import { askPolicies, everyPolicyAction, linksOf, policyActor } from './matrix/policies.ts';
import { ACTORS, OWNER, SESSIONLESS, outcomeOf, type Actor, type MatrixRow, type Outcome, type Owner } from './matrix/vocabulary.ts';

// The authorization matrix: every route the app registers must have a row in
// server/test/matrix/<module>.ts, every row must name a registered route, and every row runs for
// every actor over real HTTP (app.inject) against the real objects of one fixture (matrix/fixture.ts):
// two approved providers, each with an unpaid ad in the cart, a paid ad in review, a live ad, a
// funded USD and promo wallet, a personal promo code and a report; a pending provider (an ad in
// the cart, an approved ad hidden until they are approved); a suspended provider (session dead,
// their approved ad hidden); an admin; a master. A row that acts on provider's objects for their
// owner runs twice: on provider's objects, then mirrored on otherProvider's.
// Before each request the fixture puts back whatever an allowed request changed; after a refused
// one, nothing in the database, the mail or the stored files may have changed. Every GET is sent
// again as HEAD, which must meet the same authorization.
//
// What is left out of "every route": the HEAD twins Fastify adds beside each GET (checked through
// their GET's rows), and the per-file GET routes @fastify/static registers for the built client
// (public by nature, different on every build). The app is built with a throw-away dist holding
// only index.html, so the site module's SPA fallback `GET /*` is registered and checked.
//
// The policies (core/policy.ts, <module>.policy.ts) are the one place each rule is written: a row
// that acts on an object names the policy actions it exercises, and for every actor the request
// must get past authorization exactly when those policies say yes about the fixture's objects as
// they are just before it (matrix/policies.ts). A rule changed in a policy but not followed by the
// routes, or the reverse, fails here.

type Row = MatrixRow & { file: string };
const OWNERS: Owner[] = ['provider', 'otherProvider', 'pendingProvider', 'suspendedProvider'];
const rows: Row[] = matrixRows;
const isApi = (route: string) => {
  const u = splitRoute(route).url;
  return u === '/api' || u.startsWith('/api/');
};
const guestPasses = (row: Row) => outcomeOf(row.expect, 'guest', row.target ? ownerOf(row.target) : null) !== 'deny';

let ctx: TestContext;
let fixture: Fixture;
let distDir: string;
let staticFileRoutes: Set<string>;

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-dist-'));
  fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>XG</title><div id="root"></div>');
  staticFileRoutes = new Set(
    fs
      .readdirSync(distDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => `GET /${path.relative(distDir, path.join(e.parentPath, e.name)).split(path.sep).join('/')}`),
  );
  ctx = await createTestApp({ distDir, env: { BTCPAY_WEBHOOK_SECRET: MATRIX_WEBHOOK_SECRET } });
  fixture = await Fixture.build(ctx);
});
afterAll(async () => {
  await ctx?.close();
  fs.rmSync(distDir, { recursive: true, force: true });
});

/** How far a request got: the part of its status the matrix judges. */
const stage = (status: number) => (status >= 500 ? '5xx' : status === 401 || status === 403 || status === 404 ? String(status) : 'passed');

/** notYours: the statuses that refuse an object that is not the actor's (none: the row names no owned object). */
function judge(actor: Actor, outcome: Outcome, status: number, notYours: number[] | null): string | null {
  if (status >= 500) return `got ${status}: a server error (a request must never cause one)`;
  if (outcome === 'allow') return status === 401 || status === 403 || status === 404 ? `expected to get past authorization, got ${status}` : null;
  if (outcome === 'hidden') return status === 404 ? null : `expected 404 (the object is not confirmed), got ${status}`;
  if (SESSIONLESS.has(actor)) return status === 401 ? null : `expected 401, got ${status}`;
  if (notYours) return status === 403 || notYours.includes(status) ? null : `expected 403 or ${notYours.join('/')} (not their object), got ${status}`;
  return status === 403 ? null : `expected 403, got ${status}`;
}

/** One request of one actor, judged; returns its status and what was wrong with it. */
async function attempt(row: Row, actor: Actor, method: string, mirrored: boolean): Promise<{ status: number; problems: string[] }> {
  await fixture.refresh();
  const c = fixture.context(actor, mirrored);
  const spec = row.request?.(c) ?? {};
  const pattern = splitRoute(row.route).url;
  const url = spec.url ?? (row.target ? pattern.replace(/:[A-Za-z0-9_]+/, c.id(row.target)) : pattern);
  const owner: Owner | null = row.target ? (mirrored ? mirrorOwner(ownerOf(row.target)) : ownerOf(row.target)) : null;
  const outcome = outcomeOf(row.expect, actor, owner);
  const before = outcome === 'allow' ? null : snapshot(ctx);
  const cookie = fixture.cookie(actor);
  const payload = 'payload' in spec ? spec.payload : method === 'GET' || method === 'HEAD' ? undefined : {};
  const asked = askPolicies(row, await policyActor(ctx.app.deps.db, fixture.userId(actor)), c, spec);
  const res = await ctx.app.inject({
    method: method as 'GET',
    url,
    headers: { ...spec.headers, ...(cookie ? { cookie } : {}) },
    ...(payload === undefined || method === 'HEAD' ? {} : { payload: payload as object }),
  });
  const problems: string[] = [];
  const say = (p: string) => problems.push(`${actor} (${outcome}) ${method} ${url}: ${p} — ${res.body.slice(0, 160)}`);
  // A row that names an owned object may refuse with 404 ("not yours" is "not found"), the owner
  // too when the request also names someone else's object (a wallet).
  const verdict = judge(actor, outcome, res.statusCode, row.target ? [row.notYours ?? 404] : null);
  if (verdict) say(verdict);
  else if (outcome === 'allow' && row.allowed && method !== 'HEAD' && res.statusCode !== row.allowed) {
    say(`expected ${row.allowed} (the row's request succeeds for those allowed), got ${res.statusCode}`);
  }
  if (asked && res.statusCode < 500) {
    const s = res.statusCode;
    const refused = s === 401 || s === 403 || s === 404 || s === row.notYours;
    if (refused === asked.allows) say(`${asked.said}, but the request was ${refused ? 'refused' : 'let through'} (${s})`);
  }
  if (before) {
    const changed = diff(before, snapshot(ctx));
    if (changed.length) say(`a refused request changed things:\n      ${changed.join('\n      ')}`);
  }
  if (row.lists && outcome === 'allow' && method !== 'HEAD') {
    // Lists of "my" objects: an owner sees their own, and nobody sees anybody else's.
    const own = fixture.context(actor, false); // lists rows name no target: never mirrored
    for (const owner of OWNERS) {
      for (const kind of row.lists.filter((k) => ownsKind(owner, k))) {
        const shown = res.body.includes(own.id(`${owner}.${kind}`));
        if (owner === actor && !shown) say(`their own ${kind} is missing from the answer`);
        if (owner !== actor && shown) say(`the answer shows ${owner}'s ${kind}`);
      }
    }
  }
  if (row.self && outcome === 'allow' && method !== 'HEAD' && !SESSIONLESS.has(actor)) {
    if (!res.body.includes(fixture.userId(actor)!)) say('the answer does not name the actor');
    for (const other of ACTORS) if (other !== actor && other !== 'guest' && res.body.includes(fixture.userId(other)!)) say(`the answer names ${other}`);
  }
  return { status: res.statusCode, problems };
}

describe('authorization matrix', () => {
  it('has a row for every registered route, and a registered route for every row', () => {
    const routes = registeredRoutes(ctx.app);
    // The tree reading is checked against the router itself, so a misread cannot hide a route.
    const misread = routes.filter((r) => !ctx.app.hasRoute(splitRoute(r) as { method: 'GET'; url: string }));
    expect(misread, 'routes.ts misread printRoutes()').toEqual([]);
    expect(routes.length).toBeGreaterThan(5);

    const covered = new Set(rows.map((r) => r.route));
    const missing = routes.filter((r) => !covered.has(r) && !staticFileRoutes.has(r));
    const registered = new Set(routes);
    const orphans = rows.filter((r) => !registered.has(r.route)).map((r) => `${r.route}   (${r.file})`);
    const malformed = rows
      .filter(
        (r) =>
          !/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \/\S*$/.test(r.route) ||
          (typeof r.expect !== 'function' && ACTORS.some((a) => !(r.expect as Record<Actor, Outcome>)[a])) ||
          (r.target && !ownsKind(ownerOf(r.target), r.target.split('.')[1] as never)) ||
          (r.mirror && !r.target) ||
          (r.target && !linksOf(r).length),
      )
      .map((r) => `${r.route}   (${r.file})`);
    const withHead = new Set(registeredRoutes(ctx.app, { withHead: true }));
    const headless = routes.filter((r) => r.startsWith('GET ') && !withHead.has(`HEAD ${r.slice(4)}`));
    const report = [
      missing.length
        ? `Routes with no row — add each to server/test/matrix/<module>.ts, <module> being the folder of server/modules/ that registers it, as { route, expect, target?, request? } (a new module file goes into server/test/matrix/index.ts):\n  ${missing.join('\n  ')}`
        : '',
      orphans.length ? `Rows naming a route the app does not register (typo, or the route was removed):\n  ${[...new Set(orphans)].join('\n  ')}` : '',
      malformed.length
        ? `Malformed rows (route must be "METHOD /pattern", expect must name every actor, target an object the fixture has, mirror needs a target, a target needs a policy link):\n  ${malformed.join('\n  ')}`
        : '',
      headless.length ? `GET routes without a HEAD twin (HEAD must answer like GET):\n  ${headless.join('\n  ')}` : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    expect(report, `\n${report}\n`).toBe('');
  });

  it('PUBLIC_ROUTES (server/core/access.ts) is exactly the /api routes whose rows let guests in', () => {
    const registered = new Set(registeredRoutes(ctx.app));
    const listed = [...PUBLIC_ROUTES];
    const orphans = listed.filter((r) => !registered.has(r));
    const notApi = listed.filter((r) => !isApi(r));
    const publicByRows = new Set(rows.filter((r) => isApi(r.route) && guestPasses(r)).map((r) => r.route));
    const unlisted = [...publicByRows].filter((r) => !PUBLIC_ROUTES.has(r));
    const noGuestRow = listed.filter((r) => registered.has(r) && !publicByRows.has(r));
    const report = [
      orphans.length ? `Entries naming no registered route (a future route with that path would start public):\n  ${orphans.join('\n  ')}` : '',
      notApi.length ? `Entries outside /api (the list only opens /api routes):\n  ${notApi.join('\n  ')}` : '',
      unlisted.length ? `Rows let guests in, but the route is not in PUBLIC_ROUTES:\n  ${unlisted.join('\n  ')}` : '',
      noGuestRow.length
        ? `In PUBLIC_ROUTES, but no row lets guests in (make the row say so, or take the route off the list):\n  ${noGuestRow.join('\n  ')}`
        : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    expect(report, `\n${report}\n`).toBe('');
  });

  it('every action of every policy is exercised by a row, or says here why not', () => {
    const exercised = new Set(rows.flatMap((r) => linksOf(r).map(([module, action]) => `${module}.${action}`)));
    const elsewhere: Record<string, string> = {
      'ads.preview': 'asked by listings.view for an ad that is not public (the GET /api/ads/:id rows)',
      'profile.delete':
        "its last-master rule answers 409, past authorization: the matrix never erases an actor (profile.delete.test.ts); DELETE /api/delete-my-profile's row exercises profile.manage",
    };
    const missing = everyPolicyAction().filter((a) => !exercised.has(a) && !(a in elsewhere));
    const stale = Object.keys(elsewhere).filter((a) => exercised.has(a) || !everyPolicyAction().includes(a));
    expect({ missing, stale }, "name each action in a row's policy (server/test/matrix/<module>.ts), or say above where it is checked").toEqual({
      missing: [],
      stale: [],
    });
  });

  const runs = rows.flatMap((row) => {
    const mirror = row.mirror ?? (row.target !== undefined && row.expect === OWNER && ownerOf(row.target) === 'provider');
    return mirror
      ? [
          { row, mirrored: false },
          { row, mirrored: true },
        ]
      : [{ row, mirrored: false }];
  });
  for (const { row, mirrored } of runs) {
    const { method } = splitRoute(row.route);
    const on = row.target ? ` on ${mirrored ? `${mirrorOwner(ownerOf(row.target))}.${row.target.split('.')[1]}` : row.target}` : '';
    it(`${row.route}${on}${row.note ? ` — ${row.note}` : ''} (${row.file})`, async () => {
      const problems: string[] = [];
      for (const actor of ACTORS) {
        const main = await attempt(row, actor, method, mirrored);
        problems.push(...main.problems);
        if (method !== 'GET') continue;
        const head = await attempt(row, actor, 'HEAD', mirrored);
        problems.push(...head.problems);
        if (stage(head.status) !== stage(main.status)) problems.push(`${actor}: HEAD answered ${head.status} where GET answered ${main.status}`);
      }
      expect(problems, `\n  ${problems.join('\n  ')}`).toEqual([]);
    });
  }
});
