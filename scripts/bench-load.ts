import fs from 'node:fs';
import net from 'node:net';
import { parseArgs } from 'node:util';
import { makeRng } from './bench-text.ts';
import { Histogram, ResponseReader, weightedPicker, type LoadResult, type LoadSpec } from './bench-lib.ts';

// Load generator for scripts/bench.ts, run in its own process so it never shares the server's
// event loop. Like autocannon it speaks HTTP/1.1 over raw keep-alive sockets with a minimal
// response reader (status, Content-Length or chunked body skipped), so the client costs little
// next to the server even for large responses: node:http's client costs more per response than a
// Fastify handler and would measure itself. A fixed number of connections, one request in flight
// on each (a closed loop), a warm-up that is not counted, then a timed run.
//
// Each request first picks a kind by its share (ad detail, city listing, search…), then a path of
// that kind by the path weights (Zipf popularity, ad counts…), so caches see the hits and misses
// real traffic gives them. A kind marked `once` walks its paths in order instead, each used once
// (the uncached phase): running out starts again from the top and is counted as repeats.
//
// Prints "COUNTING" when the warm-up ends, then one JSON line: {seconds, errors, repeats, kinds:
// {name: {requests, statuses: {code: n}, bytes, hist}}} (hist: a Histogram's sparse buckets).

const HELP = `Usage: node scripts/bench-load.ts --spec FILE
       node scripts/bench-load.ts --url URL [--url URL …] [--connections 32] [--seconds 5] [--warmup 1]

Keep-alive HTTP/1.1 load on 127.0.0.1 (used by scripts/bench.ts). --spec is a JSON LoadSpec (kinds
with shares, paths with weights); --url is the plain form (the URLs in turn, one kind "all").
Prints COUNTING when the warm-up ends, then {seconds, errors, repeats, kinds} as one JSON line.`;

const { values } = parseArgs({
  options: {
    help: { type: 'boolean', short: 'h' },
    spec: { type: 'string' },
    url: { type: 'string', multiple: true },
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
let spec: LoadSpec;
if (values.spec) spec = JSON.parse(fs.readFileSync(values.spec, 'utf8')) as LoadSpec;
else if (values.url?.length) {
  const urls = values.url.map((u) => new URL(u));
  spec = {
    origin: urls[0].origin,
    headers: {},
    connections: Number(values.connections),
    seconds: Number(values.seconds),
    warmup: Number(values.warmup),
    seed: 1,
    kinds: [{ name: 'all', share: 1, paths: urls.map((u) => u.pathname + u.search) }],
  };
} else {
  console.error(HELP);
  process.exit(2);
}

const origin = new URL(spec.origin);
const headerLines = Object.entries({ Host: origin.host, Connection: 'keep-alive', ...spec.headers })
  .map(([k, v]) => `${k}: ${v}\r\n`)
  .join('');
const rand = makeRng(spec.seed);

interface Kind {
  name: string;
  requests: Buffer[];
  pick: () => number;
  stats: { requests: number; statuses: Record<string, number>; bytes: number; hist: Histogram };
}
let repeats = 0;
const kinds: Kind[] = spec.kinds.map((k) => {
  const requests = k.paths.map((p) => Buffer.from(`GET ${p} HTTP/1.1\r\n${headerLines}\r\n`, 'latin1'));
  let pick: () => number;
  if (k.once) {
    let next = 0;
    pick = () => {
      if (next === requests.length) {
        next = 0;
        repeats++;
      }
      return next++;
    };
  } else if (k.weights) {
    const picker = weightedPicker(k.weights);
    pick = () => picker(rand);
  } else pick = () => Math.floor(rand() * requests.length);
  return { name: k.name, requests, pick, stats: { requests: 0, statuses: {}, bytes: 0, hist: new Histogram() } };
});
const pickKind = weightedPicker(spec.kinds.map((k) => k.share));

let errors = 0;
let counting = false;
let stopped = false;

function connection(): Promise<void> {
  return new Promise((resolve) => {
    const open = () => {
      const socket = net.connect({ host: origin.hostname, port: Number(origin.port), noDelay: true });
      let kind: Kind = kinds[0];
      let t0 = 0;
      let closing = false;
      const send = () => {
        if (stopped) return void socket.end();
        kind = kinds[pickKind(rand)];
        t0 = performance.now();
        socket.write(kind.requests[kind.pick()]);
      };
      const reader = new ResponseReader((status, bytes, close) => {
        if (counting) {
          const s = kind.stats;
          s.requests++;
          s.bytes += bytes;
          s.statuses[status] = (s.statuses[status] ?? 0) + 1;
          s.hist.record(performance.now() - t0);
        }
        if (close) {
          closing = true;
          socket.end();
        } else send();
      });
      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => reader.feed(chunk));
      socket.on('error', () => {
        if (counting) errors++;
      });
      socket.on('close', () => {
        reader.end();
        // The server closed the connection (Connection: close, or an error): open another.
        if (stopped) resolve();
        else setTimeout(open, closing ? 0 : 10);
      });
    };
    open();
  });
}

const all = Array.from({ length: spec.connections }, connection);
await new Promise((r) => setTimeout(r, spec.warmup * 1000));
counting = true;
console.log('COUNTING');
const start = performance.now();
await new Promise((r) => setTimeout(r, spec.seconds * 1000));
counting = false;
const seconds = (performance.now() - start) / 1000;
stopped = true;
await Promise.race([Promise.all(all), new Promise((r) => setTimeout(r, 2000))]);
const result: LoadResult = {
  seconds,
  errors,
  repeats,
  kinds: Object.fromEntries(
    kinds.map((k) => [k.name, { requests: k.stats.requests, statuses: k.stats.statuses, bytes: k.stats.bytes, hist: k.stats.hist.toPairs() }]),
  ),
};
console.log(JSON.stringify(result));
process.exit(0);
