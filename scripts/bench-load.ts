import net from 'node:net';
import { parseArgs } from 'node:util';

// Load generator for scripts/bench.ts, run in its own process so it never shares the server's
// event loop. Like autocannon it speaks HTTP/1.1 over raw keep-alive sockets with a minimal
// response reader (status line, Content-Length, body bytes skipped), so the client costs little
// next to the server even for large responses: node:http's client costs more per response than
// a Fastify handler and would measure itself. A fixed number of connections, one request in
// flight on each, a warm-up that is not counted, then a timed run.
// Prints one JSON line: {requests, rps, p50, p99, errors, non2xx}.

const { values } = parseArgs({
  options: {
    help: { type: 'boolean', short: 'h' },
    url: { type: 'string', multiple: true },
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
  },
});
if (values.help) {
  console.log(
    'Usage: node scripts/bench-load.ts --url URL [--url URL …] [--connections 32] [--seconds 5] [--warmup 1]\nKeep-alive HTTP/1.1 load on 127.0.0.1; prints {requests, rps, p50, p99, errors, non2xx} as JSON (used by scripts/bench.ts).',
  );
  process.exit(0);
}
const urls = (values.url ?? []).map((u) => new URL(u));
if (!urls.length) throw new Error('--url is required');
const { hostname, port } = urls[0];
const requests = urls.map((u) => Buffer.from(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: keep-alive\r\n\r\n`));
const connections = Number(values.connections);
const warmupMs = Number(values.warmup) * 1000;
const runMs = Number(values.seconds) * 1000;

const latencies: number[] = [];
let errors = 0;
let non2xx = 0;
let next = 0;
let counting = false;
let stopped = false;
const HEADER_END = Buffer.from('\r\n\r\n');

function connection(): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port), noDelay: true });
    let buf: Buffer = Buffer.alloc(0);
    let need = -1; // bytes of the current response still to come (-1: headers not read yet)
    let status = 0;
    let t0 = 0;
    const send = () => {
      if (stopped) return void socket.end();
      t0 = performance.now();
      socket.write(requests[next++ % requests.length]);
    };
    socket.on('connect', send);
    socket.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      for (;;) {
        if (need < 0) {
          const end = buf.indexOf(HEADER_END);
          if (end < 0) return;
          const head = buf.subarray(0, end).toString('latin1');
          status = Number(head.slice(9, 12));
          const m = /\r\ncontent-length: *(\d+)/i.exec(head);
          need = m ? Number(m[1]) : 0;
          buf = buf.subarray(end + 4);
        }
        if (buf.length < need) return;
        buf = buf.subarray(need);
        need = -1;
        if (counting) {
          latencies.push(performance.now() - t0);
          if (status < 200 || status >= 300) non2xx++;
        }
        send();
      }
    });
    socket.on('error', () => {
      if (counting) errors++;
    });
    socket.on('close', () => resolve());
  });
}

const all = Array.from({ length: connections }, connection);
await new Promise((r) => setTimeout(r, warmupMs));
counting = true;
const start = performance.now();
await new Promise((r) => setTimeout(r, runMs));
counting = false;
const elapsed = (performance.now() - start) / 1000;
stopped = true;
await Promise.race([Promise.all(all), new Promise((r) => setTimeout(r, 2000))]);
latencies.sort((a, b) => a - b);
const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
console.log(JSON.stringify({ requests: latencies.length, rps: latencies.length / elapsed, p50: q(0.5), p99: q(0.99), errors, non2xx }));
process.exit(0);
