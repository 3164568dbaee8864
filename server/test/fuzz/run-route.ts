import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { generate, type FuzzInput, type Seed, type Target } from './inputs.ts';
import { Rng, hashSeed } from './rng.ts';
import { REFUSAL_WRITES, actorOf, resolveSeed, type SeedParts } from './targets.ts';
import type { World } from './world.ts';
import type { Change } from './db-watch.ts';

// One route's run: inputs in batches from the route's own seeded generator, each sent through
// app.inject and judged: no 5xx, no answer missing, and for every refused request (status >= 400)
// an unchanged database (and, on upload routes, no file left behind).

export const SEED = Number(process.env.FUZZ_SEED ?? 20_260_115);
export const PER_ROUTE = Math.max(1, Number(process.env.FUZZ_INPUTS ?? 1000));
/**
 * The HEAD twin Fastify adds beside each GET (exposeHeadRoutes) runs the GET's hooks, schema and
 * handler; routes.ts and the authorization matrix do not count it as a route of its own. It gets
 * its own, smaller run, for what HEAD alone changes (no body, the same status).
 */
export const PER_HEAD_TWIN = Math.max(1, Number(process.env.FUZZ_HEAD_INPUTS ?? 300));
const BATCH = 100; // the clock moves an hour between batches, so hourly limits do not end a route's run in 429s
const HANG_MS = 15_000;

type Kind = '5xx' | 'refused-but-changed' | 'refused-but-wrote-files' | 'threw' | 'hang' | 'unreachable';

export interface Failure {
  kind: Kind;
  route: string;
  family: string;
  detail: string;
  actor: string;
  status?: number;
  request: string;
  response?: string;
  error?: string;
  tables?: string;
}

export interface RouteStats {
  route: string;
  actor: string;
  inputs: number;
  byClass: Record<string, number>;
  seedsOk: number;
  seeds: number;
  changedOnAccept: number;
  allowedWrites: number;
  /** Answers other than 401, 403 and 404: inputs that got past routing, sessions and lookups (a 405 is the route's own answer). */
  pastGate: number;
  failures: Failure[];
  ms: number;
  /** Time spent per input family (ms), and the slowest inputs: where a route's run goes. */
  msByFamily: Record<string, number>;
  /** Answers per input family: family → status → count. */
  statusByFamily: Record<string, Record<number, number>>;
  slowest: { ms: number; input: string; status: number }[];
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

function describeRequest(o: InjectOptions): string {
  const h = (o.headers ?? {}) as Record<string, string>;
  const p = o.payload;
  const body = p === undefined ? '' : Buffer.isBuffer(p) ? p.toString('latin1') : typeof p === 'string' ? p : JSON.stringify(p);
  const notable = Object.entries(h)
    .filter(([k]) => k !== 'cookie' && k !== 'content-type')
    .map(([k, v]) => `${k}: ${clip(String(v), 60)}`);
  return [
    `${o.method} ${clip(typeof o.url === 'string' ? o.url : JSON.stringify(o.url), 200)}`,
    h['content-type'] !== undefined ? `content-type: ${clip(h['content-type'], 80)}` : '',
    h.cookie ? `cookie: ${clip(h.cookie, 40)}` : '',
    ...notable,
    body ? `body: ${JSON.stringify(clip(body, 240))}` : '',
  ]
    .filter(Boolean)
    .join(' | ');
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function allowedWrite(t: Target, res: LightMyRequestResponse, changes: Change[]): boolean {
  return REFUSAL_WRITES.some((a) => a.route === t.route && a.status === res.statusCode && changes.every((c) => a.tables.includes(c.table)));
}

/** Sends `total` inputs to one route and judges every answer. */
export async function fuzzRoute(w: World, t: Target, total: number): Promise<RouteStats> {
  const started = performance.now();
  const rng = new Rng(hashSeed(SEED, t.route));
  const stats: RouteStats = {
    route: t.route,
    actor: actorOf(t),
    inputs: 0,
    byClass: {},
    seedsOk: 0,
    seeds: 0,
    changedOnAccept: 0,
    allowedWrites: 0,
    pastGate: 0,
    failures: [],
    ms: 0,
    msByFamily: {},
    statusByFamily: {},
    slowest: [],
  };
  let seed: Seed | null = null;
  let parts: SeedParts | undefined;
  // Upload routes: a refused upload must leave no file behind either (a disk filled by refused
  // requests is a denial of service). Counted after each request; accepted ones move the count.
  let files = t.form ? w.uploadFiles() : 0;
  for (let i = 0; i < total; i++) {
    if (i % BATCH === 0) {
      w.ctx.clock.advance(61 * 60_000);
      seed = null;
      parts = undefined;
    }
    if (!seed) {
      ({ seed, parts } = await resolveSeed(t, w, parts));
      w.watch.sync(); // rows made for the seed are the new baseline
      if (t.form) files = w.uploadFiles();
    }
    if (i % 40 === 0) w.ctx.clock.advance(2 * 60_000); // the seed input follows: past one-per-minute limits (bumps)
    const input: FuzzInput = generate(t, seed, rng, i);
    const fail = (kind: Kind, extra: Partial<Failure>) =>
      stats.failures.push({
        kind,
        route: t.route,
        family: input.family,
        detail: input.detail,
        actor: input.actor,
        request: describeRequest(input.opts),
        ...extra,
      });
    w.logged = [];
    w.watch.mark();
    let res: LightMyRequestResponse | null = null;
    const t0 = performance.now();
    try {
      res = await withTimeout(w.inject(input.opts), HANG_MS);
    } catch (err) {
      fail(/no answer/.test(String(err)) ? 'hang' : 'threw', { error: String(err).slice(0, 300) });
    }
    const took = performance.now() - t0;
    stats.msByFamily[input.family] = (stats.msByFamily[input.family] ?? 0) + took;
    if (stats.slowest.length < 5 || took > stats.slowest[4].ms) {
      stats.slowest = [...stats.slowest, { ms: Math.round(took), input: `${input.family}:${input.detail}`, status: res?.statusCode ?? 0 }]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5);
    }
    const changes = w.watch.changes();
    stats.inputs++;
    if (res) {
      const byStatus = (stats.statusByFamily[input.family] ??= {});
      byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
      const cls = `${Math.floor(res.statusCode / 100)}xx`;
      stats.byClass[cls] = (stats.byClass[cls] ?? 0) + 1;
      if (![401, 403, 404].includes(res.statusCode)) stats.pastGate++;
      if (input.family === 'seed') {
        stats.seeds++;
        if (res.statusCode < 400) stats.seedsOk++;
      }
      const logged = w.logged.map((e) => `${e.message}${e.code ? ` [${e.code}]` : ''}${e.at ? ` at ${e.at}` : ''}`).join('; ');
      if (res.statusCode >= 500) fail('5xx', { status: res.statusCode, response: clip(res.body, 200), error: logged || undefined });
      if (res.statusCode >= 400 && changes.length) {
        if (allowedWrite(t, res, changes)) stats.allowedWrites++;
        else
          fail('refused-but-changed', {
            status: res.statusCode,
            response: clip(res.body, 200),
            tables: changes.map((c) => `${c.table} (${c.detail})`).join(', '),
          });
      }
      if (res.statusCode < 400 && changes.length) stats.changedOnAccept++;
      if (t.form) {
        const now = w.uploadFiles();
        if (res.statusCode >= 400 && now > files)
          fail('refused-but-wrote-files', { status: res.statusCode, response: clip(res.body, 200), tables: `uploads: +${now - files} file(s)` });
        files = now;
      }
    }
    if (changes.length || !res) seed = null; // rows or sessions the seed names may be gone
  }
  if (!stats.pastGate) {
    stats.failures.push({
      kind: 'unreachable',
      route: t.route,
      family: '',
      detail: '',
      actor: stats.actor,
      request: '',
      error: 'every answer was 401, 403 or 404: no input reached validation or the service (fix the seed in server/test/fuzz/targets.ts)',
    });
  }
  stats.ms = performance.now() - started;
  return stats;
}
