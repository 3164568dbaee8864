import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { splitRoute } from '../routes.ts';
import type { Target } from './inputs.ts';
import { buildTargets, noGenerator } from './targets.ts';
import { World } from './world.ts';
import { PER_HEAD_TWIN, PER_ROUTE, SEED, fuzzRoute, type RouteStats } from './run-route.ts';
import { formatFailures } from './report.ts';

// Runs the fuzzer over one shard of the routes. Every shard file builds the same sorted route list
// and takes its share, so a new route is fuzzed without touching these files.
//
//   FUZZ_SEED         the run's seed (printed in every summary; a failure reproduces with it)
//   FUZZ_INPUTS       inputs per route (default 1000, the floor the suite promises)
//   FUZZ_HEAD_INPUTS  inputs per HEAD twin of a GET (default 300)
//   FUZZ_REPORT       a file to write each shard's results to, as JSON (%s is the shard number)
//
// One route again: npx vitest run server/test/fuzz -t 'POST /api/post-ad'
// (each route's inputs come from its own generator seeded by (FUZZ_SEED, route), so a route run
// alone gets the same inputs as in the full run).

/** Weight of a route's run, to spread the routes evenly over the shards. */
function cost(t: Target): number {
  let c = headTwin(t) ? PER_HEAD_TWIN / PER_ROUTE : 1;
  if (t.form) c += 3;
  if (/\/(login|register|password-update|email-reset|delete-my-profile)$/.test(t.pattern)) c += 1.5;
  if (t.access !== 'public') c += 0.4;
  return c;
}

function assign(targets: Target[], shards: number): Target[][] {
  const out: Target[][] = Array.from({ length: shards }, () => []);
  const load = new Array(shards).fill(0);
  for (const t of [...targets].sort((a, b) => cost(b) - cost(a) || a.route.localeCompare(b.route))) {
    const i = load.indexOf(Math.min(...load));
    out[i].push(t);
    load[i] += cost(t);
  }
  return out.map((ts) => ts.sort((a, b) => a.route.localeCompare(b.route)));
}

/** A HEAD route Fastify added beside a GET (not one the app registered itself). */
let getRoutes = new Set<string>();
const headTwin = (t: Target) => t.method === 'HEAD' && getRoutes.has(`GET ${t.pattern}`);

/**
 * Registers the tests of one shard: with `index` 1 also the check that every registered route has
 * a generator. Called at the top level of a test file (it awaits the app to list its routes).
 */
export async function defineShard(index: number, count: number): Promise<void> {
  const w = await World.create();
  const all = buildTargets(w);
  getRoutes = new Set(all.filter((t) => t.method === 'GET').map((t) => t.route));
  const mine = assign(all, count)[index - 1];
  const results: RouteStats[] = [];
  const started = performance.now();

  afterAll(async () => {
    const sum = (f: (s: RouteStats) => number) => results.reduce((n, s) => n + f(s), 0);
    const count5xx = sum((s) => s.failures.filter((f) => f.kind === '5xx').length);
    const changed = sum((s) => s.failures.filter((f) => f.kind === 'refused-but-changed').length);
    const files = sum((s) => s.failures.filter((f) => f.kind === 'refused-but-wrote-files').length);
    const other = sum((s) => s.failures.filter((f) => !['5xx', 'refused-but-changed', 'refused-but-wrote-files'].includes(f.kind)).length);
    const twins = results.filter((s) => getRoutes.has(`GET ${s.route.slice(5)}`) && s.route.startsWith('HEAD '));
    const routes = results.filter((s) => !twins.includes(s));
    const lines = results.map((s) => {
      const c = (k: string) => s.byClass[k] ?? 0;
      const f5 = s.failures.filter((f) => f.kind === '5xx').length;
      const fc = s.failures.filter((f) => f.kind === 'refused-but-changed').length;
      return `  ${s.route.padEnd(52)} ${String(s.inputs).padStart(5)} in  2xx ${String(c('2xx')).padStart(4)}  3xx ${String(c('3xx')).padStart(3)}  4xx ${String(c('4xx')).padStart(5)}  5xx ${String(f5).padStart(4)}  changed-on-refusal ${String(fc).padStart(3)}  seed ok ${s.seedsOk}/${s.seeds}  as ${s.actor}  ${(s.ms / 1000).toFixed(1)}s`;
    });
    console.log(
      [
        `[fuzz shard ${index}/${count}] seed=${SEED} routes=${routes.length} (+${twins.length} HEAD twins) inputs=${sum((s) => s.inputs)} ` +
          `(min per route ${routes.length ? Math.min(...routes.map((s) => s.inputs)) : 0}, per HEAD twin ${twins.length ? Math.min(...twins.map((s) => s.inputs)) : 0}) ` +
          `5xx=${count5xx} refused-but-changed=${changed} refused-but-wrote-files=${files} other-failures=${other} accepted-changes=${sum((s) => s.changedOnAccept)} allowed-refusal-writes=${sum((s) => s.allowedWrites)} ` +
          `tables-watched=${w.watch.watchedTables}+${w.watch.unwatchedTables.length} row-images=${w.watch.rowsSeen} time=${((performance.now() - started) / 1000).toFixed(1)}s`,
        ...lines,
      ].join('\n'),
    );
    if (process.env.FUZZ_REPORT) {
      const file = process.env.FUZZ_REPORT.replace('%s', String(index));
      fs.writeFileSync(file, JSON.stringify({ seed: SEED, shard: index, results }, null, 2));
    }
    await w.close();
  });

  if (index === 1) {
    it('every registered route is fuzzed: each has a generator and a shard', () => {
      const misread = all.filter((t) => !w.ctx.app.hasRoute(splitRoute(t.route) as { method: 'GET'; url: string }));
      expect(
        misread.map((t) => t.route),
        'routes.ts misread printRoutes()',
      ).toEqual([]);
      const real = new Set(all.map((t) => t.route));
      const onlyInSchemaBuild = [...w.schemas.keys()].filter((r) => !real.has(r));
      expect(onlyInSchemaBuild, 'routes the schema build saw that the app does not register').toEqual([]);
      const problems = all
        .map((t) => [t.route, noGenerator(t, w)] as const)
        .filter(([, p]) => p)
        .map(([r, p]) => `${r}: ${p}`);
      expect(problems, `routes the fuzzer cannot reach:\n  ${problems.join('\n  ')}`).toEqual([]);
      const assigned = assign(all, count)
        .flat()
        .map((t) => t.route)
        .sort();
      expect(assigned).toEqual(all.map((t) => t.route).sort());
      expect(all.filter((t) => t.pattern.startsWith('/api/')).length).toBeGreaterThan(40);
    });

    it('the change detector sees writes, and not rollbacks or writes of the same values', () => {
      const db = w.sqlite;
      const at = w.ctx.clock.now().toISOString();
      const step = (what: string, run: () => void) => {
        w.watch.mark();
        run();
        return `${what}: ${
          w.watch
            .changes()
            .map((c) => `${c.table} ${c.detail}`)
            .join(', ') || 'none'
        }`;
      };
      const city = db.prepare('SELECT rowid AS id, enabled FROM cities ORDER BY rowid LIMIT 1').get() as { id: number; enabled: number };
      let id = 0;
      const seen = [
        step('insert', () => {
          id = Number(db.prepare("INSERT INTO audit_log (action, target_type, at) VALUES ('fuzz.check', 'fuzz', ?)").run(at).lastInsertRowid);
        }),
        step('same-value update', () => db.prepare('UPDATE audit_log SET action = action WHERE id = ?').run(id)),
        step('rolled back', () => {
          const undone = db.transaction(() => {
            db.prepare('DELETE FROM audit_log WHERE id = ?').run(id);
            throw new Error('roll back');
          });
          expect(() => undone()).toThrow('roll back');
        }),
        step('flag flip in a big table', () => db.prepare('UPDATE cities SET enabled = 1 - enabled WHERE rowid = ?').run(city.id)),
        step('flag back', () => db.prepare('UPDATE cities SET enabled = ? WHERE rowid = ?').run(city.enabled, city.id)),
        step('insert then delete', () => {
          const r = db.prepare("INSERT INTO audit_log (action, target_type, at) VALUES ('fuzz.tmp', 'fuzz', ?)").run(at);
          db.prepare('DELETE FROM audit_log WHERE id = ?').run(r.lastInsertRowid);
        }),
        step('delete', () => db.prepare('DELETE FROM audit_log WHERE id = ?').run(id)),
      ];
      expect(seen).toEqual([
        'insert: audit_log +1 row(s)',
        'same-value update: none',
        'rolled back: none',
        // a place enabled or disabled is logged for the public caches (migration 0011)
        'flag flip in a big table: cities 1 row(s) edited, ads_public_changes +1 row(s)',
        'flag back: cities 1 row(s) edited, ads_public_changes +1 row(s)',
        'insert then delete: none',
        'delete: audit_log -1 row(s)',
      ]);
      expect(w.watch.verify()).toEqual([]);
    });
  }

  for (const t of mine) {
    const n = headTwin(t) ? PER_HEAD_TWIN : PER_ROUTE;
    it(`${t.route} survives ${n} bad inputs${headTwin(t) ? ' (HEAD twin of a GET)' : ''}`, async () => {
      const stats = await fuzzRoute(w, t, n);
      results.push(stats);
      // The detector checks itself: every table hashed from scratch must match the kept hashes.
      expect(w.watch.verify(), 'tables whose writes the change detector missed').toEqual([]);
      expect(stats.inputs).toBeGreaterThanOrEqual(n);
      const report = formatFailures(stats.failures);
      expect(stats.failures.length, `seed=${SEED} (FUZZ_SEED=${SEED} reproduces)\n${report}\n`).toBe(0);
    }, 600_000);
  }
}
