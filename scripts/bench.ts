import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createPasswordHasher } from '../server/core/passwords.ts';
import { openDatabase } from '../server/core/db.ts';
import { compactSearchIndex } from '../server/modules/listings/listings.jobs.ts';
import { SEO_LISTING_TYPES } from '../contract/seo.ts';
import type { AggregateLocation } from '../contract/api/listings.ts';
import type { OwnerAd } from '../contract/api/ads.ts';
import { makeRng } from './bench-text.ts';
import { ROOT, ensureSeeded, freePort, serverEnv, startCommand, startProcess, stop } from './bench-server.ts';
import {
  Histogram,
  apportion,
  buildSearches,
  shuffle,
  weightedOrder,
  zipfWeights,
  type AdText,
  type LoadKind,
  type LoadResult,
  type LoadSpec,
} from './bench-lib.ts';
import type { ProbeReport } from './bench-probe.ts';
import type { WriterSpec } from './bench-writer.ts';

const HELP = `Usage: node scripts/bench.ts [--count N] [--data-dir DIR] [--seconds S] [options]

Realistic read traffic against the real server (server/main.ts, serving the built dist/), with bare
Fastify hello-world measured in the same run as the yardstick:

  - the URL sets are discovered through the public API only: cities and their ad counts from
    /api/users-ads-aggregate/us/{type}, ad ids and their text from listing pages across the
    cities (in proportion to their counts), searches built from the words of those ads;
  - ad detail: --ads ids (default 20,000) with a Zipf(--zipf, default 1) popularity;
    city listings: every city and listing type, weighted by its ad count, pages 1–3 (those that
    exist, equally likely); search: --searches distinct queries (default 10,000: single words,
    two words of one ad, a word within the ad's state), equally likely (--search-zipf S skews them);
    the mix: 60 % ad detail, 25 % listings, 15 % search (--mix); every request picks its URL at
    random by those weights, so the server's caches see the hits and misses such traffic gives;
  - phases (S seconds each after a 1 s warm-up, --seconds/--warmup): hello-world; the JSON API per
    kind and mixed, read-only; an uncached listing page; the same with --flips online/offline flips
    a second (default 5) from a writer process; the served pages (the same visits as first page
    loads: HTML, no cookies) read-only and with flips; hello-world between and at the end;
  - each phase: req/s, p50/p99 latency, the ratio to the hello-world runs around it, the
    server's event-loop delay p50/p99/max and its resident memory (a preload module,
    scripts/bench-probe.ts, reports them over IPC: no server code changes), a markdown table per
    phase, then a summary against the targets.

"Uncached listing page": the listing visits (same city weights, pages 1–3) with a pageSize of
15–25 other than the app's 20, each URL requested once and never before in the run, so no cache
can answer whatever its key; the cost of a page is about that of a 20-ad page.
Flips: PUT /api/update-ad-online-status/{id} as the owner, through the API (signed in with a
session cookie, Origin = PUBLIC_URL). Four seeded owners (e-mail @seed.invalid) are given a
known password in the data dir before the server starts, so the writer can sign in. The server
runs without its cron; the nightly compact-search-index job runs once before it starts, as it does
every night in service (else a reused data dir's search index keeps every earlier run's flips).

Without --data-dir, N ads (default 1,000,000) are seeded into a temporary directory, removed at
the end; with --data-dir, an existing seeded database is reused (seeded first if empty).
Needs dist/ (npm run build). The load generator (scripts/bench-load.ts), the writer
(scripts/bench-writer.ts) and each server run in their own processes. A run takes about
20 × (S + W + 1) s after seeding and discovery.

Targets (from issue #15): JSON API mix with writes ≥ 30 % of hello-world and p99 ≤ 25 ms; per
kind with writes: ad detail ≥ 70 %, city listings ≥ 40 %, search ≥ 25 %; uncached listing page
≥ 15 %; event-loop delay p99 ≤ 20 ms (API mix with writes); served pages mix with writes ≥ 15 %
and p99 ≤ 50 ms; server RSS ≤ 250 MB at 1M ads; no connection errors, 5xx or failed flips.

Options:
  --count N            ads to seed when the data dir has none (default 1000000)
  --data-dir DIR       reuse (or seed) this data dir
  --seconds S          measured seconds a phase (default 10); --warmup W (default 1)
  --connections C      keep-alive connections (default 32), over --load-processes P (default 1)
  --ads K --zipf S     ad-detail popularity (default 20000, 1)
  --searches Q         distinct searches (default 10000); --search-zipf S (default 0: uniform)
  --mix A,L,S          the mix's shares in % (default 60,25,15)
  --flips F            flips a second in the "with writes" phases (default 5)
  --only REGEX         run only the phases whose id matches (hello-world always runs)
  --seed S             random seed (default 1)
  --strict             exit 1 when a target is missed (otherwise 0 whatever the figures)
  --profile DIR        run the server with --cpu-prof, its profile written to DIR at the end
Phase ids: api-ad api-listing api-search api-mix api-uncached-listing api-*-writes page-ad
page-listing page-search page-mix page-*-writes.`;

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    'data-dir': { type: 'string' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '32' },
    'load-processes': { type: 'string', default: '1' },
    ads: { type: 'string', default: '20000' },
    zipf: { type: 'string', default: '1' },
    searches: { type: 'string', default: '10000' },
    'search-zipf': { type: 'string', default: '0' },
    mix: { type: 'string', default: '60,25,15' },
    flips: { type: 'string', default: '5' },
    only: { type: 'string' },
    seed: { type: 'string', default: '1' },
    strict: { type: 'boolean', default: false },
    profile: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const num = (name: keyof typeof args, min: number) => {
  const n = Number(args[name]);
  if (!Number.isFinite(n) || n < min) {
    console.error(`--${name} must be a number ≥ ${min}\n\n${HELP}`);
    process.exit(2);
  }
  return n;
};
const SECONDS = num('seconds', 0.1);
const WARMUP = num('warmup', 0);
const CONNECTIONS = num('connections', 1);
const LOAD_PROCESSES = Math.min(CONNECTIONS, num('load-processes', 1));
const AD_POOL = num('ads', 1);
const ZIPF = num('zipf', 0);
const SEARCHES = num('searches', 1);
const SEARCH_ZIPF = num('search-zipf', 0);
const FLIPS = num('flips', 0.1);
const SEED = num('seed', 0);
const MIX = args.mix.split(',').map(Number);
if (MIX.length !== 3 || MIX.some((x) => !(x >= 0)) || !(MIX[0] + MIX[1] + MIX[2] > 0)) {
  console.error(`--mix takes three shares, e.g. 60,25,15\n\n${HELP}`);
  process.exit(2);
}
const only = args.only ? new RegExp(args.only) : null;

const NODE = process.execPath;
if (!fs.existsSync(path.join(ROOT, 'dist', 'index.html'))) {
  console.error('No dist/index.html: run "npm run build" first (the served pages are part of the benchmark).');
  process.exit(2);
}
const tempDir = args['data-dir'] ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'xg-bench-'));
const dataDir = path.resolve(args['data-dir'] ?? tempDir!);
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-bench-run-'));
const dbFile = path.join(dataDir, 'xg.sqlite');
const children: ChildProcess[] = [];
const cleanup = () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  fs.rmSync(runDir, { recursive: true, force: true });
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
const rand = makeRng(SEED);

// ---------------------------------------------------------------------------------------------
// Data: seed when empty; give the flip owners a known password.

ensureSeeded(dataDir, args.count);

// Seeded owners cannot sign in (an unusable hash). The writer flips ads through the API as their
// owner, so a few seeded owners (never a real account: their e-mail is @seed.invalid) get a known
// password, made afresh for each run (never a constant anyone can read); the rest of the data is untouched.
const FLIP_PASSWORD = randomBytes(18).toString('base64url');
const FLIP_OWNERS = 4;
async function prepareFlipOwners(): Promise<string[]> {
  const db = new Database(dbFile);
  try {
    const owners = db
      .prepare(
        `SELECT u.id, u.email FROM users u WHERE u.email LIKE 'seed-%@seed.invalid' AND u.status = 'approved'
         AND EXISTS (SELECT 1 FROM ads a WHERE a.owner_id = u.id AND a.visible = 1) ORDER BY u.id LIMIT ?`,
      )
      .all(FLIP_OWNERS) as { id: string; email: string }[];
    const hasher = createPasswordHasher();
    const hash = await hasher.hash(FLIP_PASSWORD);
    for (const o of owners) db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hash, o.id);
    return owners.map((o) => o.email);
  } finally {
    db.close();
  }
}
const flipOwners = await prepareFlipOwners();

// The server runs here without its cron (CRON=0: no job may change what a phase measures), so the
// nightly compact-search-index job, which merges the segments every change of a public ad adds to
// the search index, never runs on a reused data dir: after days of runs' flips a search took about
// twice as long as on the merged index a server in service has each morning. It runs here, as it
// does every night in service.
async function compactSearch(): Promise<void> {
  const started = performance.now();
  const store = openDatabase(dbFile, { readConnection: false });
  try {
    const done = await compactSearchIndex(store, new AbortController().signal);
    console.error(`compact-search-index (the nightly job): ${done.message}, ${Math.round(performance.now() - started)} ms`);
  } finally {
    await store.close();
  }
}
await compactSearch();

// ---------------------------------------------------------------------------------------------
// Servers: bare Fastify hello-world and the real server (with the probe preloaded), both up for
// the whole run (an idle one costs nothing).

const hello = await startProcess(['scripts/bench-hello.ts'], {}, /^READY \d+/, { children });
const helloOrigin = `http://127.0.0.1:${Number(hello.line.split(' ')[1])}`;
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const app = await startProcess(
  [
    ...startCommand().nodeArgs,
    ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : []),
    '--import',
    pathToFileURL(path.join(ROOT, 'scripts', 'bench-probe.ts')).href,
    'server/main.ts',
  ],
  serverEnv(dataDir, port),
  /is serving on/,
  { ipc: true, children },
);

function probe(cmd: 'reset'): void;
function probe(cmd: 'report'): Promise<ProbeReport>;
function probe(cmd: 'reset' | 'report'): void | Promise<ProbeReport> {
  if (cmd === 'reset') return void app.child.send({ probe: 'reset' });
  return new Promise((resolve) => {
    const on = (m: ProbeReport) => {
      if (m?.probe !== 'report') return;
      app.child.off('message', on);
      resolve(m);
    };
    app.child.on('message', on);
    app.child.send({ probe: 'report' });
  });
}

// ---------------------------------------------------------------------------------------------
// Discovery, through the public API only.

async function getJson<T>(p: string, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(origin + p, { headers });
  if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function inPool<T, R>(items: T[], concurrency: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

console.log('Discovering the URL sets through the public API …');
const t0 = performance.now();
interface Combo {
  state: string;
  city: string;
  code: string;
  slug: string;
  count: number;
}
const combos: Combo[] = [];
for (const t of SEO_LISTING_TYPES) {
  const { locations } = await getJson<{ locations: AggregateLocation[] }>(`/api/users-ads-aggregate/us/${t.code}`);
  for (const l of locations) if (l.count > 0) combos.push({ state: l.stateSlug, city: l.citySlug, code: t.code, slug: t.slug, count: l.count });
}
const visible = combos.reduce((a, c) => a + c.count, 0);
if (!combos.length) throw new Error('no city has visible ads');

// Ad ids (and their text) from listing pages across the cities, in proportion to their counts.
const PAGE_SIZE = 20; // the app's listing page
const LISTING_CAP = 10_000; // listings total is capped there
const quotas = apportion(
  combos.map((c) => c.count),
  AD_POOL,
  combos.map((c) => Math.min(c.count, LISTING_CAP)),
);
const pageRequests = combos.flatMap((c, i) => {
  const q = quotas[i];
  if (!q) return [];
  const size = Math.min(100, q);
  return Array.from({ length: Math.ceil(q / size) }, (_, p) => ({ c, page: p + 1, size, take: Math.min(size, q - p * size) }));
});
// Only the fields every form of a listing item has (a card or a full ad).
type ListedAd = { id: string; title: string; description?: string; state: { slug: string } };
const found = await inPool(pageRequests, 4, async ({ c, page, size, take }) => {
  const q = new URLSearchParams({ state: c.state, city: c.city, type: c.code, page: String(page), pageSize: String(size) });
  return (await getJson<{ ads: ListedAd[] }>(`/api/listings?${q}`)).ads.slice(0, take);
});
const adById = new Map<string, AdText & { id: string }>();
for (const ad of found.flat()) adById.set(ad.id, { id: ad.id, title: ad.title, description: ad.description ?? '', stateSlug: ad.state.slug });
// Popularity: a random order of the ids, rank r weighing 1/r^s.
const pool = shuffle([...adById.values()], rand);
const adWeights = Array.from(zipfWeights(pool.length, ZIPF));
// Listing cards may carry no description: the words of descriptions come from a sample of ad pages.
const TEXT_SAMPLE = 2000;
const withoutText = pool.filter((a) => !a.description).slice(0, TEXT_SAMPLE);
await inPool(withoutText, 4, async (a) => {
  a.description = (await getJson<{ ad: { description: string } }>(`/api/ads/${a.id}`)).ad.description;
});

// City listings: every city and type with ads, pages 1–3 that exist, equally likely within a city.
const listings = combos.flatMap((c) => {
  const pages = Math.min(3, Math.ceil(c.count / PAGE_SIZE));
  return Array.from({ length: pages }, (_, i) => ({ c, page: i + 1, weight: c.count / pages }));
});

// Searches from the words of the ads found.
const searches = buildSearches(pool, SEARCHES, rand);
const searchWeights = Array.from(zipfWeights(searches.length, SEARCH_ZIPF));

// Uncached listing pages: the same visits with a pageSize of 15–25 other than 20, in a weighted
// random order without repeats (each URL is asked once, and none was asked before).
const UNCACHED_CAP = 200_000;
const uncachedAll: { c: Combo; page: number; size: number }[] = [];
const uncachedWeights: number[] = [];
for (const c of combos) {
  const from = uncachedAll.length;
  for (let size = 15; size <= 25; size++)
    for (let page = 1; page <= 3; page++) if (size !== PAGE_SIZE && (page - 1) * size < c.count) uncachedAll.push({ c, page, size });
  for (let i = from; i < uncachedAll.length; i++) uncachedWeights.push(c.count / (uncachedAll.length - from));
}
const uncached = weightedOrder(uncachedWeights, rand)
  .slice(0, UNCACHED_CAP)
  .map((i) => uncachedAll[i]);

// The flip owners' live ads, through the API as each owner.
const flipAds: WriterSpec['ads'] = [];
for (const email of flipOwners) {
  const res = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: FLIP_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in as ${email}: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const mine = await getJson<{ approvedAds: OwnerAd[] }>('/api/all-ads-by-user?list=approved&pageSize=100', { cookie }); // the newest hundred are plenty
  for (const ad of mine.approvedAds.filter((a) => a.status === 'approved' && a.online).slice(0, 25)) flipAds.push({ id: ad.id, cookie });
}
if (!flipAds.length) throw new Error('the flip owners have no live ads');
console.log(`  done in ${((performance.now() - t0) / 1000).toFixed(1)} s (${pageRequests.length} listing pages read for the ad ids).`);

// URL forms: the JSON API as the app's client asks it (the same parameter order, so the same
// cache keys), and the served pages a visitor opens.
const qs = (o: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(o).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString();
const apiPaths = {
  ad: pool.map((a) => `/api/ads/${a.id}`),
  listing: listings.map(({ c, page }) => `/api/listings?${qs({ state: c.state, city: c.city, type: c.code, page })}`),
  search: searches.map((s) => `/api/search?${qs({ query: s.query, state: s.state, page: 1 })}`),
  uncached: uncached.map(({ c, page, size }) => `/api/listings?${qs({ state: c.state, city: c.city, type: c.code, page, pageSize: size })}`),
};
const pagePaths = {
  ad: pool.map((a) => `/ad/${a.id}`),
  listing: listings.map(({ c, page }) => `/listings/us/${c.state}/${c.city}/${c.slug}${page > 1 ? `?page=${page}` : ''}`),
  search: searches.map((s) => `/search?${qs({ query: s.query, state: s.state })}`),
};

// Requests carry a browser's headers (compression accepted: a server that compresses pays for it).
const BROWSER = {
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36',
  'Accept-Encoding': 'gzip, deflate, br, zstd',
  'Accept-Language': 'en-US,en;q=0.9',
};
const API_HEADERS = { ...BROWSER, Accept: '*/*', 'X-Locale': 'en' };
const PAGE_HEADERS = { ...BROWSER, Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

// ---------------------------------------------------------------------------------------------
// Phases.

type Surface = 'hello' | 'api' | 'page';
interface Phase {
  id: string;
  title: string;
  surface: Surface;
  flips: boolean;
  kinds: LoadKind[];
}
const KIND_NAMES = { ad: 'ad detail', listing: 'city listing', search: 'search' } as const;
type KindKey = keyof typeof KIND_NAMES;
const kindsOf = (paths: Record<KindKey, string[]>, which: KindKey[], shares: number[]): LoadKind[] =>
  which.map((k, i) => ({
    name: KIND_NAMES[k],
    share: shares[i],
    paths: paths[k],
    weights: k === 'ad' ? adWeights : k === 'listing' ? listings.map((l) => l.weight) : searchWeights,
  }));
const ALL: KindKey[] = ['ad', 'listing', 'search'];
const writesLabel = `${FLIPS} flips/s`;
function surfacePhases(surface: 'api' | 'page', flips: boolean): Phase[] {
  const paths = surface === 'api' ? apiPaths : pagePaths;
  const what = surface === 'api' ? 'JSON API' : 'served pages';
  const suffix = flips ? '-writes' : '';
  const tail = flips ? `, ${writesLabel}` : ', read-only';
  return [
    ...ALL.map((k) => ({ id: `${surface}-${k}${suffix}`, title: `${what}: ${KIND_NAMES[k]}${tail}`, surface, flips, kinds: kindsOf(paths, [k], [1]) })),
    { id: `${surface}-mix${suffix}`, title: `${what}: mix ${MIX.join('/')}${tail}`, surface, flips, kinds: kindsOf(paths, ALL, MIX) },
  ];
}
const helloPhase = (id: string): Phase => ({
  id,
  title: 'hello-world (bare Fastify)',
  surface: 'hello',
  flips: false,
  kinds: [{ name: 'hello-world', share: 1, paths: ['/'] }],
});
const phases: Phase[] = [
  helloPhase('hello-start'),
  ...surfacePhases('api', false),
  {
    id: 'api-uncached-listing',
    title: 'JSON API: uncached listing page',
    surface: 'api' as const,
    flips: false,
    kinds: [{ name: 'uncached listing', share: 1, paths: apiPaths.uncached, once: true }],
  },
  ...surfacePhases('api', true),
  helloPhase('hello-middle'),
  ...surfacePhases('page', false),
  ...surfacePhases('page', true),
  helloPhase('hello-end'),
].filter((p) => p.surface === 'hello' || !only || only.test(p.id));

interface KindStats {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  bytes: number;
}
interface WriterSummary {
  flips: number;
  failed: number;
  statuses: Record<string, number>;
  seconds: number;
  p50: number;
  p99: number;
}
interface PhaseResult {
  phase: Phase;
  seconds: number;
  errors: number;
  repeats: number;
  all: KindStats;
  kinds: { name: string; share: number; stats: KindStats }[];
  probe: ProbeReport | null;
  writer: WriterSummary | null;
  /** req/s of the hello-world runs around this phase (their mean). */
  base: number;
}

function runLoad(spec: LoadSpec, onCounting: () => void): Promise<LoadResult> {
  const file = path.join(runDir, `load-${spec.seed}.json`);
  fs.writeFileSync(file, JSON.stringify(spec));
  const child = spawn(NODE, ['scripts/bench-load.ts', '--spec', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let counting = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!counting && out.includes('COUNTING\n')) {
        counting = true;
        onCounting();
      }
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult) : reject(new Error(`load generator failed: ${code}`)),
    );
  });
}

function startWriter(): { stop: () => Promise<WriterSummary> } {
  const file = path.join(runDir, 'writer.json');
  const spec: WriterSpec = { origin, publicUrl: origin, rate: FLIPS, ads: flipAds };
  fs.writeFileSync(file, JSON.stringify(spec));
  const child = spawn(NODE, ['scripts/bench-writer.ts', '--spec', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
      return JSON.parse(out.trim().split('\n').pop()!) as WriterSummary;
    },
  };
}

function stats(requests: number, hist: Histogram, statuses: Record<string, number>, bytes: number, seconds: number): KindStats {
  return { requests, rps: requests / seconds, p50: hist.quantile(0.5), p99: hist.quantile(0.99), statuses, bytes };
}

async function runPhase(phase: Phase): Promise<Omit<PhaseResult, 'base'>> {
  const target = phase.surface === 'hello' ? helloOrigin : origin;
  const headers = phase.surface === 'page' ? PAGE_HEADERS : API_HEADERS;
  const writer = phase.flips ? startWriter() : null;
  let counting = 0;
  const results = await Promise.all(
    Array.from({ length: LOAD_PROCESSES }, (_, i) =>
      runLoad(
        {
          origin: target,
          headers,
          connections: Math.floor(CONNECTIONS / LOAD_PROCESSES) + (i < CONNECTIONS % LOAD_PROCESSES ? 1 : 0),
          seconds: SECONDS,
          warmup: WARMUP,
          seed: SEED * 1000 + phases.indexOf(phase) * 10 + i + 1,
          // Each process its own share of a `once` kind's URLs, so none is asked twice.
          kinds: phase.kinds.map((k) => (k.once ? { ...k, paths: k.paths.filter((_, j) => j % LOAD_PROCESSES === i) } : k)),
        },
        () => {
          if (++counting === 1 && phase.surface !== 'hello') probe('reset');
        },
      ),
    ),
  );
  const probeReport = phase.surface === 'hello' ? null : await probe('report');
  const writerSummary = writer ? await writer.stop() : null;
  const seconds = results.reduce((a, r) => a + r.seconds, 0) / results.length;
  const allHist = new Histogram();
  const allStatuses: Record<string, number> = {};
  let allBytes = 0;
  const kinds = phase.kinds.map((k) => {
    const hist = new Histogram();
    const statuses: Record<string, number> = {};
    let requests = 0;
    let bytes = 0;
    for (const r of results) {
      const kr = r.kinds[k.name];
      hist.add(kr.hist);
      allHist.add(kr.hist);
      requests += kr.requests;
      bytes += kr.bytes;
      for (const [s, n] of Object.entries(kr.statuses)) {
        statuses[s] = (statuses[s] ?? 0) + n;
        allStatuses[s] = (allStatuses[s] ?? 0) + n;
      }
    }
    allBytes += bytes;
    return { name: k.name, share: k.share, stats: stats(requests, hist, statuses, bytes, seconds) };
  });
  return {
    phase,
    seconds,
    errors: results.reduce((a, r) => a + r.errors, 0),
    repeats: results.reduce((a, r) => a + r.repeats, 0),
    all: stats(allHist.count, allHist, allStatuses, allBytes, seconds),
    kinds,
    probe: probeReport,
    writer: writerSummary,
  };
}

const raw: Omit<PhaseResult, 'base'>[] = [];
for (const phase of phases) {
  process.stdout.write(`Measuring ${phase.id} …`);
  const r = await runPhase(phase);
  raw.push(r);
  console.log(` ${Math.round(r.all.rps).toLocaleString('en-US')} req/s`);
}
const adCount = (() => {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM ads').get() as { n: number }).n;
  } finally {
    db.close();
  }
})();
await stop(app.child);
await stop(hello.child);

// Each phase against the hello-world runs just before and after it (this machine's throughput
// drifts from one minute to the next).
const results: PhaseResult[] = raw.map((r, i) => {
  if (r.phase.surface === 'hello') return { ...r, base: r.all.rps };
  const before = raw.slice(0, i).findLast((x) => x.phase.surface === 'hello');
  const after = raw.slice(i + 1).find((x) => x.phase.surface === 'hello');
  const around = [before, after].filter((x) => x !== undefined);
  return { ...r, base: around.reduce((a, x) => a + x.all.rps, 0) / around.length };
});

// ---------------------------------------------------------------------------------------------
// Report.

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)}`;
const kb = (s: KindStats) => (s.requests ? (s.bytes / s.requests / 1024).toFixed(1) : '–');
const non2xx = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .filter(([s]) => !s.startsWith('2'))
    .map(([s, n]) => `${int(n)} × ${s}`)
    .join(', ') || '0';
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const helloRuns = results.filter((r) => r.phase.surface === 'hello');
const helloRps = helloRuns.map((r) => r.all.rps);

console.log(`
## Benchmark: ${int(adCount)} ads (${int(visible)} visible), ${os.cpus().length} CPUs, Node ${process.version}

${int(CONNECTIONS)} keep-alive connections (${LOAD_PROCESSES} load process${LOAD_PROCESSES > 1 ? 'es' : ''}), ${SECONDS} s a phase after a ${WARMUP} s warm-up. URL sets from the public API: ${int(pool.length)} ad ids (Zipf s = ${ZIPF}), ${int(listings.length)} listing pages over ${int(combos.length)} cities × types (weighted by ad count, pages 1–3), ${int(searches.length)} distinct searches (${SEARCH_ZIPF ? `Zipf s = ${SEARCH_ZIPF}` : 'equally likely'}), mix ${MIX.join(' / ')} %. Writes: ${writesLabel} through PUT /api/update-ad-online-status as the owners (${flipAds.length} ads of ${flipOwners.length} seeded owners). Hello-world: ${helloRps.map(int).join(' → ')} req/s over the run (ratios use the runs before and after each phase).`);

for (const r of results) {
  if (r.phase.surface === 'hello') continue;
  console.log(`\n### ${r.phase.title}\n`);
  console.log(row(['kind', 'req/s', 'p50 ms', 'p99 ms', 'vs hello-world', 'KB a response', 'not 2xx']));
  console.log(row(['---', '--:', '--:', '--:', '--:', '--:', '--']));
  const all = r.all;
  console.log(
    row([r.kinds.length > 1 ? 'all' : r.kinds[0].name, int(all.rps), ms(all.p50), ms(all.p99), pct(all.rps / r.base), kb(all), non2xx(all.statuses)]),
  );
  if (r.kinds.length > 1)
    for (const k of r.kinds)
      console.log(
        row([
          `${k.name} (${pct(k.stats.requests / Math.max(1, all.requests))})`,
          int(k.stats.rps),
          ms(k.stats.p50),
          ms(k.stats.p99),
          '',
          kb(k.stats),
          non2xx(k.stats.statuses),
        ]),
      );
  const notes: string[] = [];
  if (r.probe)
    notes.push(
      `server event-loop delay p50 ${ms(r.probe.delayP50)} ms, p99 ${ms(r.probe.delayP99)} ms, max ${ms(r.probe.delayMax)} ms; RSS ${mb(r.probe.rss)} MB (phase peak ${mb(r.probe.rssPeak)} MB; JS heap ${mb(r.probe.heapUsed)} MB used of ${mb(r.probe.heapTotal)} MB); server CPU ${Math.round(r.probe.cpuMicros / Math.max(1, (all.rps * r.probe.windowMs) / 1000))} µs a request (user + system, all threads: ${pct(r.probe.cpuMicros / 1000 / r.probe.windowMs)} of a core; GC ${r.probe.gcMajor} full collections (${Math.round(r.probe.gcMajorMs)} ms of pauses), ${r.probe.gcMinor} others (${Math.round(r.probe.gcMinorMs)} ms))`,
    );
  if (r.writer)
    notes.push(
      `writer: ${r.writer.flips} flips in ${r.writer.seconds.toFixed(1)} s (${(r.writer.flips / r.writer.seconds).toFixed(1)}/s), PUT p50 ${ms(r.writer.p50)} ms, p99 ${ms(r.writer.p99)} ms, ${r.writer.failed} failed`,
    );
  if (r.errors) notes.push(`${r.errors} connection errors`);
  if (r.repeats) notes.push(`the uncached URLs ran out ${r.repeats} time(s): later requests repeated them (raise the data size or lower --seconds)`);
  console.log(`\n${notes.join('. ')}.`);
}

console.log('\n### Summary\n');
console.log(row(['phase', 'req/s', 'p50 ms', 'p99 ms', 'vs hello-world', 'loop delay p99 ms', 'RSS MB', 'not 2xx']));
console.log(row(['---', '--:', '--:', '--:', '--:', '--:', '--:', '--']));
for (const r of results)
  console.log(
    row([
      r.phase.surface === 'hello' ? `${r.phase.title}, ${r.phase.id.replace('hello-', '')}` : r.phase.title,
      int(r.all.rps),
      ms(r.all.p50),
      ms(r.all.p99),
      r.phase.surface === 'hello' ? '' : pct(r.all.rps / r.base),
      r.probe ? ms(r.probe.delayP99) : '',
      r.probe ? mb(r.probe.rssPeak) : '',
      non2xx(r.all.statuses),
    ]),
  );

interface Target {
  what: string;
  goal: string;
  value: (r: PhaseResult) => number;
  phase: string;
  ok: (v: number) => boolean;
  show: (v: number) => string;
}
const byId = new Map(results.map((r) => [r.phase.id, r]));
const ratio = (r: PhaseResult) => r.all.rps / r.base;
const atLeast = (min: number) => (v: number) => v >= min;
const atMost = (max: number) => (v: number) => v <= max;
const targets: Target[] = [
  { what: `JSON API mix, ${writesLabel}: req/s`, phase: 'api-mix-writes', value: ratio, goal: '≥ 30 % of hello-world', ok: atLeast(0.3), show: pct },
  { what: `JSON API mix, ${writesLabel}: p99`, phase: 'api-mix-writes', value: (r) => r.all.p99, goal: '≤ 25 ms', ok: atMost(25), show: (v) => `${ms(v)} ms` },
  { what: `JSON API ad detail, ${writesLabel}`, phase: 'api-ad-writes', value: ratio, goal: '≥ 70 %', ok: atLeast(0.7), show: pct },
  { what: `JSON API city listings, ${writesLabel}`, phase: 'api-listing-writes', value: ratio, goal: '≥ 40 %', ok: atLeast(0.4), show: pct },
  { what: `JSON API search, ${writesLabel}`, phase: 'api-search-writes', value: ratio, goal: '≥ 25 %', ok: atLeast(0.25), show: pct },
  { what: 'JSON API uncached listing page', phase: 'api-uncached-listing', value: ratio, goal: '≥ 15 %', ok: atLeast(0.15), show: pct },
  {
    what: `Event-loop delay p99 (JSON API mix, ${writesLabel})`,
    phase: 'api-mix-writes',
    value: (r) => r.probe!.delayP99,
    goal: '≤ 20 ms',
    ok: atMost(20),
    show: (v) => `${ms(v)} ms`,
  },
  { what: `Served pages mix, ${writesLabel}: req/s`, phase: 'page-mix-writes', value: ratio, goal: '≥ 15 % of hello-world', ok: atLeast(0.15), show: pct },
  {
    what: `Served pages mix, ${writesLabel}: p99`,
    phase: 'page-mix-writes',
    value: (r) => r.all.p99,
    goal: '≤ 50 ms',
    ok: atMost(50),
    show: (v) => `${ms(v)} ms`,
  },
];
console.log('\n### Targets\n');
console.log(row(['target', 'measured', 'goal', '']));
console.log(row(['---', '--:', '--', '--']));
let missed = 0;
for (const t of targets) {
  const r = byId.get(t.phase);
  if (!r) {
    console.log(row([t.what, 'not run', t.goal, '']));
    continue;
  }
  const v = t.value(r);
  const ok = t.ok(v);
  if (!ok) missed++;
  console.log(row([t.what, t.show(v), t.goal, ok ? 'met' : '**missed**']));
}
const rssPeak = Math.max(0, ...results.map((r) => r.probe?.rssRunPeak ?? 0));
const rssOk = rssPeak <= 250 * 1048576;
if (!rssOk) missed++;
console.log(row([`Server RSS, peak over the run (${int(adCount)} ads)`, `${mb(rssPeak)} MB`, '≤ 250 MB at 1M ads', rssOk ? 'met' : '**missed**']));
const broken = results.reduce((a, r) => a + r.errors + Object.entries(r.all.statuses).reduce((b, [s, n]) => b + (s.startsWith('5') ? n : 0), 0), 0);
const writerFailed = results.reduce((a, r) => a + (r.writer?.failed ?? 0), 0);
if (broken || writerFailed) missed++;
console.log(
  row(['Connection errors and 5xx answers; failed flips', `${int(broken)}; ${int(writerFailed)}`, '0', broken || writerFailed ? '**missed**' : 'met']),
);

console.log(`
Per-kind targets are read on the phases with writes (the stricter reading). "vs hello-world" is the
phase's req/s over the mean of the hello-world runs before and after it. Requests carry a browser's
headers (Accept-Encoding: gzip, deflate, br, zstd); the pages are first visits (no cookies). A 404
is an ad a flip had just taken offline. Event-loop delay: how late a 5 ms timer fired in the server
(perf_hooks.monitorEventLoopDelay, measured window = the phase after its warm-up). The uncached
listing page: pageSize 15–25 (not the app's 20) on the same visits, each URL once and never before.`);
process.exit(args.strict && missed ? 1 : 0);
