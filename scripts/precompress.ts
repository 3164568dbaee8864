// Writes the smallest precompressed copies of the build's text assets: .br at brotli's highest
// quality, and .gz made by zopfli (a standard gzip stream every browser reads, ~3 % smaller than
// `gzip -9`) for files of 32 KB and more, i.e. the first paint's script; zopfli costs ~70 ms a
// file whatever its size (7.5 s for the whole build), so smaller files get zlib's level 9. The server sends them as they are (@fastify/static preCompressed), so the cost
// is paid once at build time, never per request. Runs after every `vite build` (vite.config.ts).
//
//   node scripts/precompress.ts [--dist dist]

import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as zlibGzip } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import { compressibleFiles, isStale, writeAtomic } from '../server/modules/site/site.compress.ts';

const brotli = promisify(brotliCompress);

const ZOPFLI_MIN_BYTES = 32 * 1024;
const gzip = promisify(zlibGzip);

export async function precompressDist(dir: string): Promise<{ files: number; ms: number }> {
  const t0 = performance.now();
  let files = 0;
  for (const file of compressibleFiles(dir)) {
    const source = fs.readFileSync(file);
    if (isStale(file, `${file}.gz`)) {
      writeAtomic(`${file}.gz`, source.length >= ZOPFLI_MIN_BYTES ? await gzipAsync(source, { numiterations: 8 }) : await gzip(source, { level: 9 }));
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
    console.log(
      'Usage: node scripts/precompress.ts [--dist dist]\nWrites .gz (zopfli from 32 KB, else gzip -9) and brotli-11 .br copies beside dist/assets/* (skips copies newer than their source).',
    );
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
