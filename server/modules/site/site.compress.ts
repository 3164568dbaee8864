import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|xml)$/;
const MIN_BYTES = 512; // below this, compression saves less than a packet's headers

/** The build's files worth a precompressed copy: text assets of 512 bytes or more (index.html is templated per request). */
export function compressibleFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const file = path.join(d, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (COMPRESSIBLE.test(entry.name) && entry.name !== 'index.html' && fs.statSync(file).size >= MIN_BYTES) out.push(file);
    }
  };
  walk(dir);
  return out;
}

/** True when `copy` is missing or older than `source`. */
export const isStale = (source: string, copy: string) => !fs.existsSync(copy) || fs.statSync(copy).mtimeMs < fs.statSync(source).mtimeMs;

/** Writes a file through a temp name and a rename, so a concurrent reader never sees half of it. */
export function writeAtomic(target: string, data: Uint8Array): void {
  const tmp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, target);
}

/**
 * Writes .br and .gz copies beside each compressible asset of the build, so @fastify/static's
 * preCompressed mode can send them. `npm run build` already writes the smallest copies
 * (scripts/precompress.ts: zopfli gzip, brotli 11); this is the safety net for a build made
 * without them, and skips any copy newer than its source. A read-only build directory simply means
 * no precompressed copies (the files are then sent as they are).
 */
export function precompress(dir: string, log?: { warn(obj: object, msg: string): void }): number {
  let written = 0;
  try {
    for (const file of compressibleFiles(dir)) {
      let source: Buffer | null = null;
      for (const [ext, make] of [
        ['.br', (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 10, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } })],
        ['.gz', (b: Buffer) => gzipSync(b, { level: 9 })],
      ] as const) {
        if (!isStale(file, file + ext)) continue;
        source ??= fs.readFileSync(file);
        writeAtomic(file + ext, make(source));
        written++;
      }
    }
  } catch (err) {
    log?.warn({ err }, 'could not write precompressed copies of the build (served uncompressed)');
  }
  return written;
}
