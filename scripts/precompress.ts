// Writes the smallest precompressed copies of the build's text assets: .gz made by zopfli (a
// standard gzip stream every browser reads, ~3 % smaller than `gzip -9`) and .br at brotli's
// highest quality. The server sends them as they are (@fastify/static preCompressed), so the cost
// is paid once at build time, never per request. Runs after every `vite build` (vite.config.ts).
//
//   node scripts/precompress.ts [--dist dist]

import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import { compressibleFiles, isStale, writeAtomic } from '../server/modules/site/site.compress.ts';

const brotli = promisify(brotliCompress);

/** zopfli's iteration count: its default for files up to ~100 KB, fewer above (time grows with size). */
const iterations = (bytes: number) => (bytes > 100_000 ? 8 : 15);

export async function precompressDist(dir: string): Promise<{ files: number; ms: number }> {
  const t0 = performance.now();
  let files = 0;
  for (const file of compressibleFiles(dir)) {
    const source = fs.readFileSync(file);
    if (isStale(file, `${file}.gz`)) {
      writeAtomic(`${file}.gz`, await gzipAsync(source, { numiterations: iterations(source.length) }));
      files++;
    }
    if (isStale(file, `${file}.br`)) {
      writeAtomic(`${file}.br`, await brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }));
      files++;
    }
  }
  return { files, ms: Math.round(performance.now() - t0) };
}

/** The Vite plugin: precompresses dist/assets once the build is written. */
export function precompressPlugin() {
  let outDir = 'dist';
  return {
    name: 'xg-precompress',
    apply: 'build' as const,
    configResolved(config: { root: string; build: { outDir: string } }) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const assets = path.join(outDir, 'assets');
      if (fs.existsSync(assets)) await precompressDist(assets);
    },
  };
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    console.log('Usage: node scripts/precompress.ts [--dist dist]\nWrites zopfli .gz and brotli-11 .br copies beside dist/assets/* (skips copies newer than their source).');
    return 0;
  }
  const i = argv.indexOf('--dist');
  const assets = path.join(path.resolve(i >= 0 ? argv[i + 1] : 'dist'), 'assets');
  if (!fs.existsSync(assets)) {
    console.error(`No ${assets}: run "npm run build" first.`);
    return 2;
  }
  const r = await precompressDist(assets);
  console.log(`${r.files} copies written in ${r.ms} ms`);
  return 0;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
