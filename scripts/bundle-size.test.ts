import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gzipSize, initialScripts, measure } from './bundle-size.ts';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('bundle-size', () => {
  it('counts the entry script and the modulepreloads, not stylesheets, icons or lazy chunks', () => {
    const html = `<html><head>
      <script type="module" crossorigin src="/assets/index-a.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/vendor-b.js">
      <link rel="stylesheet" href="/assets/index-c.css">
      <link rel="icon" href="/favicon.svg">
      <script src="https://cdn.example.com/x.js"></script>
    </head></html>`;
    expect(initialScripts(html)).toEqual(['/assets/index-a.js', '/assets/vendor-b.js']);

    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-size-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), html);
    const a = Buffer.from('console.log("entry");'.repeat(50));
    const b = Buffer.from('export const v = 1;');
    fs.writeFileSync(path.join(dir, 'assets', 'index-a.js'), a);
    fs.writeFileSync(path.join(dir, 'assets', 'vendor-b.js'), b);
    fs.writeFileSync(path.join(dir, 'assets', 'Lazy-d.js'), 'export default 1;');
    // index-a.js has a precompressed copy (what the server sends); vendor-b.js is sent as it is.
    fs.writeFileSync(path.join(dir, 'assets', 'index-a.js.gz'), Buffer.alloc(123));
    const r = measure(dir);
    expect(r.total).toBe(123 + b.length);
    expect(r.gzipTotal).toBe(gzipSize(a) + gzipSize(b));
    expect(r.files.map((f) => f.name)).toEqual(['/assets/index-a.js', '/assets/vendor-b.js']);
    expect(r.lazy.map((l) => l.name)).toEqual(['Lazy-d.js']);
  });
});
