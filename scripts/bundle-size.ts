// Prints the home page's initial JavaScript, gzip-compressed: the entry script and every
// modulepreload that index.html names (what the browser fetches before the app can start).
// "served" is the .gz copy the server sends to a browser accepting gzip (zopfli, written by the
// build: scripts/precompress.ts; a file without one is sent as it is); "gzip -9" is the same file
// through zlib at level 9, for comparison; "brotli" is what browsers accepting br (all current
// ones) receive. The budget
// applies to "served". Lazy chunks (dashboard, staff screens, overlays, each page) are listed
// with --all.
//
//   npm run build && node scripts/bundle-size.ts [--dist dist] [--budget 90] [--all]
//
// Exits with 1 when the initial total is over the budget (KB, 1 KB = 1024 bytes).

import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The scripts index.html loads up front: <script src> and <link rel="modulepreload" href>. */
export function initialScripts(indexHtml: string): string[] {
  const out = new Set<string>();
  for (const m of indexHtml.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)) out.add(m[1]);
  for (const m of indexHtml.matchAll(/<link\b[^>]*>/g)) {
    if (!/\brel="modulepreload"/.test(m[0])) continue;
    const href = /\bhref="([^"]+)"/.exec(m[0]);
    if (href) out.add(href[1]);
  }
  return [...out].filter((u) => !/^(https?:)?\/\//.test(u));
}

export const gzipSize = (buf: Buffer) => gzipSync(buf, { level: 9 }).length;

/** The bytes the server sends for a file to a browser accepting `ext`: its precompressed copy, else the file as it is. */
function servedSize(file: string, ext: '.gz' | '.br', raw: number): number {
  return fs.existsSync(file + ext) ? fs.statSync(file + ext).size : raw;
}

export interface SizeReport {
  files: Array<{ name: string; raw: number; gzip: number; served: number; brotli: number }>;
  /** Sum of `served`: the budgeted figure. */
  total: number;
  gzipTotal: number;
  brotliTotal: number;
  lazy: Array<{ name: string; gzip: number }>;
}

export function measure(dist: string): SizeReport {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = initialScripts(html).map((u) => {
    const file = path.join(dist, u.replace(/^\//, ''));
    const buf = fs.readFileSync(file);
    const gzip = gzipSize(buf);
    return { name: u, raw: buf.length, gzip, served: servedSize(file, '.gz', buf.length), brotli: servedSize(file, '.br', buf.length) };
  });
  const sum = (k: 'served' | 'gzip' | 'brotli') => files.reduce((a, f) => a + f[k], 0);
  const initial = new Set(files.map((f) => path.basename(f.name)));
  const assets = path.join(dist, 'assets');
  const lazy = fs.existsSync(assets)
    ? fs
        .readdirSync(assets)
        .filter((f) => f.endsWith('.js') && !initial.has(f))
        .map((f) => ({ name: f, gzip: gzipSize(fs.readFileSync(path.join(assets, f))) }))
    : [];
  return {
    files: files.sort((a, b) => b.served - a.served),
    total: sum('served'),
    gzipTotal: sum('gzip'),
    brotliTotal: sum('brotli'),
    lazy: lazy.sort((a, b) => b.gzip - a.gzip),
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function main(argv: string[]): number {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv.includes('--help')) {
    console.log(
      'Usage: node scripts/bundle-size.ts [--dist dist] [--budget 90] [--all]\nPrints the gzip size (as served, and gzip -9 for comparison) of the JavaScript index.html loads up front; exits 1 over budget.',
    );
    return 0;
  }
  const dist = path.resolve(arg('dist') ?? 'dist');
  const budget = Number(arg('budget') ?? 90);
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    console.error(`No ${path.join(dist, 'index.html')}: run "npm run build" first.`);
    return 2;
  }
  const r = measure(dist);
  console.log('Initial JavaScript of the home page (index.html script + modulepreload):');
  console.log(`  ${'served gzip'.padStart(11)} ${'gzip -9'.padStart(9)} ${'brotli'.padStart(9)} ${'raw'.padStart(9)}`);
  const row = (a: number, b: number, c: number, d: number, name: string) =>
    console.log(`  ${kb(a).padStart(11)} ${kb(b).padStart(9)} ${kb(c).padStart(9)} ${kb(d).padStart(9)}  ${name}`);
  for (const f of r.files) row(f.served, f.gzip, f.brotli, f.raw, f.name);
  row(
    r.total,
    r.gzipTotal,
    r.brotliTotal,
    r.files.reduce((a, f) => a + f.raw, 0),
    `total (budget ${budget} KB gzip, as served)`,
  );
  if (argv.includes('--all')) {
    console.log('Lazy chunks, largest first:');
    for (const l of r.lazy.slice(0, 30)) console.log(`  ${kb(l.gzip).padStart(9)} gzip  ${l.name}`);
  }
  if (r.total > budget * 1024) {
    console.error(`Over budget by ${kb(r.total - budget * 1024)}.`);
    return 1;
  }
  return 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
