import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDist } from './precompress.ts';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('precompress', () => {
  it('writes .gz (zopfli for a big file) and brotli .br copies that decode to the source', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-precompress-'));
    const js = Buffer.from(Array.from({ length: 1000 }, (_, i) => `export function f${i}(a){return a*${i}+"${(i * 7919) % 1000}";}\n`).join(''));
    expect(js.length).toBeGreaterThan(32 * 1024);
    fs.writeFileSync(path.join(dir, 'app.js'), js);
    const css = Buffer.from(Array.from({ length: 60 }, (_, i) => `.c${i}{margin:${i}px}\n`).join(''));
    fs.writeFileSync(path.join(dir, 'page.css'), css);
    fs.writeFileSync(path.join(dir, 'tiny.js'), 'export const a = 1;');
    fs.writeFileSync(path.join(dir, 'photo.webp'), Buffer.alloc(4096, 7));

    const first = await precompressDist(dir);
    expect(first.files).toBe(4);
    const gz = fs.readFileSync(path.join(dir, 'app.js.gz'));
    expect(gunzipSync(gz).equals(js)).toBe(true);
    expect(gz.length).toBeLessThan(gzipSync(js, { level: 9 }).length);
    expect(brotliDecompressSync(fs.readFileSync(path.join(dir, 'app.js.br'))).equals(js)).toBe(true);
    // A small file: zlib's level 9 (zopfli's fixed cost is not worth its few bytes there).
    expect(fs.readFileSync(path.join(dir, 'page.css.gz')).equals(gzipSync(css, { level: 9 }))).toBe(true);
    // Too small to be worth it, or not text: no copies.
    expect(fs.readdirSync(dir).sort()).toEqual(['app.js', 'app.js.br', 'app.js.gz', 'page.css', 'page.css.br', 'page.css.gz', 'photo.webp', 'tiny.js']);

    // Copies newer than their source are kept; a changed source gets new ones.
    expect((await precompressDist(dir)).files).toBe(0);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(dir, 'app.js'), later, later);
    expect((await precompressDist(dir)).files).toBe(2);
  });
});
