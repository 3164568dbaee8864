import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessRow, Actor, Outcome } from './access.ts';
import { asAdmin, asMaster, createTestApp, makeUser, type TestContext } from './harness.ts';
import type { App } from '../app.ts';

// The authorization matrix: every route the app registers must have a row in some
// server/modules/<m>/<m>.access.ts, every row must name a registered route, and every row is
// checked for every actor over real HTTP (app.inject) against a real database.
//
// What is left out of "every route", and why:
// - HEAD routes Fastify adds beside each GET (exposeHeadRoutes): they run the GET's hooks.
// - The per-file GET routes @fastify/static registers for the built client (one per file of
//   dist/, public by nature and different on every build). The app is built here with a
//   throw-away dist holding only index.html, so the site module's SPA fallback `GET /*`
//   is registered and checked like any other route.

type Row = AccessRow & { file: string };
const modules = import.meta.glob<{ accessRows?: AccessRow[] }>('../modules/*/*.access.ts', { eager: true });
const rows: Row[] = Object.entries(modules).flatMap(([file, mod]) =>
  (mod.accessRows ?? []).map((row) => ({ ...row, file: file.replace(/^\.\.\//, 'server/') })),
);
const ACTORS: Actor[] = ['guest', 'provider', 'otherProvider', 'admin', 'master'];

/**
 * Every "METHOD /pattern" the app registers, read from Fastify's route tree (printRoutes prints
 * the radix tree: a route's pattern is the concatenation of its ancestors' labels).
 */
function registeredRoutes(app: App): string[] {
  const found = new Set<string>();
  const stack: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.+)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    const label = /^(.*?)(?: \(([A-Z]+(?:, [A-Z]+)*)\))?$/.exec(m[2])!;
    stack.length = depth;
    stack[depth] = label[1];
    if (label[2]) for (const method of label[2].split(', ')) found.add(`${method} ${stack.join('')}`);
  }
  return [...found].filter((r) => !(r.startsWith('HEAD ') && found.has(`GET ${r.slice(5)}`))).sort();
}

function splitRoute(route: string): { method: string; url: string } {
  const i = route.indexOf(' ');
  return { method: route.slice(0, i), url: route.slice(i + 1) };
}

let ctx: TestContext;
let distDir: string;
let staticFileRoutes: Set<string>;
const cookies: Record<Actor, string | null> = { guest: null, provider: null, otherProvider: null, admin: null, master: null };
const expectedRoles: Record<Exclude<Actor, 'guest'>, number> = { provider: 1, otherProvider: 1, admin: 2, master: 3 };

async function makeActor(actor: Exclude<Actor, 'guest'>): Promise<string> {
  if (actor === 'admin') return (await asAdmin(ctx)).cookie;
  if (actor === 'master') return (await asMaster(ctx)).cookie;
  return (await makeUser(ctx, { status: 'approved' })).cookie;
}

/** A row may end a session (logout) or change a role: each row starts with live, unchanged actors. */
async function ensureActors(): Promise<void> {
  for (const actor of ['provider', 'otherProvider', 'admin', 'master'] as const) {
    const cookie = cookies[actor];
    if (cookie) {
      const s = (await ctx.app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).json();
      if (s.isAuthenticated && s.userStatus === 'approved' && s.userRoles.length === expectedRoles[actor]) continue;
    }
    cookies[actor] = await makeActor(actor);
  }
}

function judge(actor: Actor, outcome: Outcome, status: number): string | null {
  if (status >= 500 && status !== 503) return `got ${status}: a server error (bad or empty input must be a 4xx)`;
  if (outcome === 'allow') return status === 401 || status === 403 ? `expected to get past authorization, got ${status}` : null;
  if (actor === 'guest') return status === 401 ? null : `expected 401, got ${status}`;
  if (actor === 'otherProvider') return status === 403 || status === 404 ? null : `expected 403 or 404, got ${status}`;
  return status === 403 ? null : `expected 403, got ${status}`;
}

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-dist-'));
  fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>XG</title><div id="root"></div>');
  staticFileRoutes = new Set(fs.readdirSync(distDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => `GET /${path.relative(distDir, path.join(e.parentPath, e.name)).split(path.sep).join('/')}`));
  ctx = await createTestApp({ distDir });
});
afterAll(async () => {
  await ctx?.close();
  fs.rmSync(distDir, { recursive: true, force: true });
});

describe('authorization matrix', () => {
  it('has a row for every registered route, and a registered route for every row', () => {
    const routes = registeredRoutes(ctx.app);
    // The tree reading is checked against the router itself, so a misread cannot hide a route.
    const misread = routes.filter((r) => !ctx.app.hasRoute(splitRoute(r) as { method: 'GET'; url: string }));
    expect(misread, 'authorization-matrix.test.ts misread printRoutes()').toEqual([]);
    expect(routes.length).toBeGreaterThan(5);

    const covered = new Set(rows.map((r) => r.route));
    const missing = routes.filter((r) => !covered.has(r) && !staticFileRoutes.has(r));
    const registered = new Set(routes);
    const orphans = rows.filter((r) => !registered.has(r.route)).map((r) => `${r.route}   (${r.file})`);
    const malformed = rows.filter((r) => !/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \/\S*$/.test(r.route) || ACTORS.some((a) => !r.expect?.[a])).map((r) => `${r.route}   (${r.file})`);
    const report = [
      missing.length ? `Routes with no row — add them to the module's <module>.access.ts as { route, expect }:\n  ${missing.join('\n  ')}` : '',
      orphans.length ? `Rows naming a route the app does not register (typo, or the route was removed):\n  ${[...new Set(orphans)].join('\n  ')}` : '',
      malformed.length ? `Malformed rows (route must be "METHOD /pattern", expect must name every actor):\n  ${malformed.join('\n  ')}` : '',
    ].filter(Boolean).join('\n\n');
    expect(report, `\n${report}\n`).toBe('');
  });

  for (const row of rows) {
    const { method, url: pattern } = splitRoute(row.route);
    const url = row.request?.url ?? pattern.replace(/:[A-Za-z0-9_]+/g, 'x').replace(/\*/g, 'x');
    const title = `${row.route}${row.request?.url && row.request.url !== pattern ? ` as ${row.request.url}` : ''}${row.note ? ` — ${row.note}` : ''} (${row.file})`;
    it(title, async () => {
      await ensureActors();
      const failures: string[] = [];
      for (const actor of ACTORS) {
        const cookie = cookies[actor];
        const payload = row.request && 'payload' in row.request ? row.request.payload : method === 'GET' || method === 'HEAD' ? undefined : {};
        const res = await ctx.app.inject({
          method: method as 'GET',
          url,
          headers: { ...row.request?.headers, ...(cookie ? { cookie } : {}) },
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        const problem = judge(actor, row.expect[actor], res.statusCode);
        if (problem) failures.push(`${actor} (${row.expect[actor]}): ${problem} — ${res.body.slice(0, 160)}`);
      }
      expect(failures, `${method} ${url}\n  ${failures.join('\n  ')}`).toEqual([]);
    });
  }
});
