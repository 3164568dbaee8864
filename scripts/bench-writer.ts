import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { Histogram } from './bench-lib.ts';

// The writer of scripts/bench.ts: online/offline flips through the real API while a phase's load
// runs, in its own process. Each flip is PUT /api/update-ad-online-status/{id} as the ad's owner
// (a signed-in session cookie, and the Origin header of the server's PUBLIC_URL as a browser sends
// it): the first flip takes an ad offline, the next puts it back online, then the next ad, so the
// public set stays the same size and every flip changes it. `rate` flips a second on a fixed
// schedule (an open loop: a slow answer does not slow the writes down). On SIGTERM it puts a
// still-offline ad back online and prints {flips, failed, statuses, seconds, p50, p99}.

export interface WriterSpec {
  origin: string;
  /** The Origin header (the server's PUBLIC_URL). */
  publicUrl: string;
  rate: number;
  ads: { id: string; cookie: string }[];
}

const { values } = parseArgs({ options: { spec: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
if (values.help || !values.spec) {
  console.log(
    'Usage: node scripts/bench-writer.ts --spec FILE\nOnline/offline flips through the API (used by scripts/bench.ts); prints a JSON summary on SIGTERM.',
  );
  process.exit(values.help ? 0 : 2);
}
const spec = JSON.parse(fs.readFileSync(values.spec, 'utf8')) as WriterSpec;
if (!spec.ads.length) throw new Error('no ads to flip');

const hist = new Histogram();
const statuses: Record<string, number> = {};
let flips = 0;
let failed = 0;
let inFlight = 0;
const offline = new Set<string>();

async function put(ad: { id: string; cookie: string }, online: boolean): Promise<void> {
  const t0 = performance.now();
  inFlight++;
  try {
    const res = await fetch(`${spec.origin}/api/update-ad-online-status/${ad.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: ad.cookie, origin: spec.publicUrl },
      body: JSON.stringify({ online }),
    });
    await res.arrayBuffer();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (res.ok) {
      if (online) offline.delete(ad.id);
      else offline.add(ad.id);
    } else failed++;
  } catch {
    failed++;
  } finally {
    inFlight--;
    hist.record(performance.now() - t0);
  }
}

const start = performance.now();
const timer = setInterval(() => {
  const i = flips++;
  void put(spec.ads[Math.floor(i / 2) % spec.ads.length], i % 2 === 1);
}, 1000 / spec.rate);

process.on('SIGTERM', () => {
  clearInterval(timer);
  const seconds = (performance.now() - start) / 1000;
  void (async () => {
    const deadline = Date.now() + 5000;
    while (inFlight && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const summary = { flips, failed, statuses, seconds, p50: hist.quantile(0.5), p99: hist.quantile(0.99) };
    for (const id of offline)
      await put(
        spec.ads.find((a) => a.id === id)!,
        true,
      );
    console.log(JSON.stringify(summary));
    process.exit(0);
  })();
});
