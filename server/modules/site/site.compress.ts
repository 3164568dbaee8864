import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|xml)$/;
const MIN_BYTES = 1024;

/**
 * Writes .br and .gz copies beside each compressible asset of the build, once (skipped when a
 * copy is already newer than its source), so @fastify/static's preCompressed mode can send them:
 * the home page's script is ~94 KB gzip instead of ~300 KB raw. Each copy is written to a temp
 * file and renamed, so two servers starting at once never serve a half-written one. A read-only
 * build directory simply means no precompressed copies (the files are then sent as they are).
 */
export function precompress(dir: string, log?: { warn(obj: object, msg: string): void }): number {
  let written = 0;
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const file = path.join(d, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (COMPRESSIBLE.test(entry.name) && !entry.name.endsWith('index.html')) written += compressOne(file);
    }
  };
  try {
    walk(dir);
  } catch (err) {
    log?.warn({ err }, 'could not write precompressed copies of the build (served uncompressed)');
  }
  return written;
}

function compressOne(file: string): number {
  const stat = fs.statSync(file);
  if (stat.size < MIN_BYTES) return 0;
  let source: Buffer | null = null;
  let n = 0;
  for (const [ext, make] of [
    ['.br', (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 10, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } })],
    ['.gz', (b: Buffer) => gzipSync(b, { level: 9 })],
  ] as const) {
    const target = file + ext;
    if (fs.existsSync(target) && fs.statSync(target).mtimeMs >= stat.mtimeMs) continue;
    source ??= fs.readFileSync(file);
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, make(source));
    fs.renameSync(tmp, target);
    n++;
  }
  return n;
}
