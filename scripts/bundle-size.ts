// Prints the home page's initial JavaScript, gzip-compressed: the entry script and every
// modulepreload that index.html names (what the browser fetches before the app can paint).
// Lazy chunks (dashboard, staff screens, overlays, each page) are listed separately.
//
//   npm run build && node scripts/bundle-size.ts [--dist dist] [--budget 90] [--all]
//
// Exits with 1 when the initial total is over the budget (KB, 1 KB = 1024 bytes).

import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv.includes('--help')) {
  console.log('Usage: node scripts/bundle-size.ts [--dist dist] [--budget 90] [--all]\nPrints the gzip size of the JavaScript index.html loads up front.');
  process.exit(0);
}

const dist = path.resolve(arg('dist') ?? 'dist');
const budgetKb = Number(arg('budget') ?? 90);
const indexPath = path.join(dist, 'index.html');
if (!fs.existsSync(indexPath)) {
  console.error(`No ${indexPath}: run "npm run build" first.`);
  process.exit(2);
}
const html = fs.readFileSync(indexPath, 'utf8');

/** The scripts index.html loads: <script type="module" src> and <link rel="modulepreload" href>. */
export function initialScripts(indexHtml: string): string[] {
  const out = new Set<string>();
  for (const m of indexHtml.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)) out.add(m[1]);
  for (const m of indexHtml.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(m[0]);
    if (href) out.add(href[1]);
  }
  return [...out].filter((u) => !/^https?:/.test(u));
}

const gz = (file: string) => gzipSync(fs.readFileSync(file), { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const initial = initialScripts(html).map((u) => {
  const file = path.join(dist, u.replace(/^\//, ''));
  return { name: u, raw: fs.statSync(file).size, gzip: gz(file) };
});
const total = initial.reduce((a, f) => a + f.gzip, 0);

console.log('Initial JavaScript of the home page (index.html script + modulepreload):');
for (const f of initial.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(f.gzip).padStart(9)} gzip  ${kb(f.raw).padStart(9)} raw  ${f.name}`);
console.log(`  ${kb(total).padStart(9)} gzip total (budget ${budgetKb} KB)`);

if (process.argv.includes('--all')) {
  const assets = path.join(dist, 'assets');
  const names = new Set(initial.map((f) => path.basename(f.name)));
  const lazy = fs.readdirSync(assets).filter((f) => f.endsWith('.js') && !names.has(f)).map((f) => ({ f, gzip: gz(path.join(assets, f)) }));
  console.log('Lazy chunks (largest first):');
  for (const l of lazy.sort((a, b) => b.gzip - a.gzip).slice(0, 25)) console.log(`  ${kb(l.gzip).padStart(9)} gzip  ${l.f}`);
}

if (total > budgetKb * 1024) {
  console.error(`Over budget by ${kb(total - budgetKb * 1024)}.`);
  process.exit(1);
}
