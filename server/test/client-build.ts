import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The built client (browser app + server renderer) for the tests that serve real pages. It is
// built once per change of its sources, into a temporary directory named after them (without the
// compressed copies, which take most of a build's time), and shared by every test file and run
// until a source changes: the first test file pays ~10 s, the others nothing.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCES = ['src', 'contract', 'index.html', 'vite.config.ts', 'package-lock.json', 'public'];

function stamp(): string {
  const h = createHash('sha1');
  const walk = (p: string) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p).sort()) walk(path.join(p, e));
    } else if (!/\.test\.tsx?$/.test(p)) {
      h.update(`${path.relative(ROOT, p)}:${st.size}:${st.mtimeMs}\n`);
    }
  };
  for (const s of SOURCES) walk(path.join(ROOT, s));
  return h.digest('hex').slice(0, 16);
}

/** A dist directory built from the current sources (dist/index.html, dist/.ssr, dist/.vite/manifest.json). */
export function clientBuild(): string {
  const dir = path.join(os.tmpdir(), `xg-client-build-${stamp()}`);
  const done = path.join(dir, '.built');
  if (fs.existsSync(done)) return dir;
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // Another test file builds it: wait for it (or take over a lock left by a killed run).
      if (fs.existsSync(done)) return dir;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 180_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited 180 s for the client build in ${dir}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    // Builds of older sources, left by earlier runs.
    for (const old of fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('xg-client-build-') && !f.endsWith('.lock'))) {
      const p = path.join(os.tmpdir(), old);
      if (p !== dir && Date.now() - fs.statSync(p).mtimeMs > 3_600_000) fs.rmSync(p, { recursive: true, force: true });
    }
    if (!fs.existsSync(done)) {
      execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], {
        cwd: ROOT,
        env: { ...process.env, XG_BUILD_OUT: dir, XG_PRECOMPRESS: '0', NODE_ENV: 'production' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      fs.writeFileSync(done, new Date().toISOString());
    }
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  return dir;
}
