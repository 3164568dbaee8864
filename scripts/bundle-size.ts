// Prints the home page's initial JavaScript, gzip-compressed: the entry script and every
// modulepreload that index.html names (what the browser fetches before the app can start).
// Lazy chunks (dashboard, staff screens, overlays, each page) are listed with --all.
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

export interface SizeReport {
  files: Array<{ name: string; raw: number; gzip: number }>;
  total: number;
  lazy: Array<{ name: string; gzip: number }>;
}

export function measure(dist: string): SizeReport {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = initialScripts(html).map((u) => {
    const buf = fs.readFileSync(path.join(dist, u.replace(/^\//, '')));
    return { name: u, raw: buf.length, gzip: gzipSize(buf) };
  });
  const initial = new Set(files.map((f) => path.basename(f.name)));
  const assets = path.join(dist, 'assets');
  const lazy = fs.existsSync(assets)
    ? fs.readdirSync(assets).filter((f) => f.endsWith('.js') && !initial.has(f)).map((f) => ({ name: f, gzip: gzipSize(fs.readFileSync(path.join(assets, f))) }))
    : [];
  return { files: files.sort((a, b) => b.gzip - a.gzip), total: files.reduce((a, f) => a + f.gzip, 0), lazy: lazy.sort((a, b) => b.gzip - a.gzip) };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function main(argv: string[]): number {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv.includes('--help')) {
    console.log('Usage: node scripts/bundle-size.ts [--dist dist] [--budget 90] [--all]\nPrints the gzip size of the JavaScript index.html loads up front; exits 1 over budget.');
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
  for (const f of r.files) console.log(`  ${kb(f.gzip).padStart(9)} gzip  ${kb(f.raw).padStart(9)} raw  ${f.name}`);
  console.log(`  ${kb(r.total).padStart(9)} gzip total (budget ${budget} KB)`);
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
