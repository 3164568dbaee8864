import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCommand } from '../../scripts/bench-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('what the server loads at start', () => {
  it('leaves sharp and nodemailer until the first picture or message (~18 MB of memory a server may never need)', () => {
    // The whole application's module graph, as main.ts imports it, in a plain Node process (the
    // tests' own loader is not Node's), every module it resolves, ESM or CommonJS, noted on the way.
    const script = `
      import { registerHooks } from 'node:module';
      const loaded = new Set();
      registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.add(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(r.url)?.[1]); return r; } });
      await import(${JSON.stringify(path.join(ROOT, 'server/app.ts'))});
      console.log(JSON.stringify([...loaded].filter(Boolean).sort()));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    const packages = JSON.parse(out.trim().split('\n').pop()!) as string[];
    expect(packages).toContain('fastify'); // the check sees CommonJS packages…
    expect(packages).toContain('kysely'); // …and ES modules
    expect(packages).toContain('better-sqlite3');
    expect(packages).not.toContain('sharp');
    expect(packages).not.toContain('nodemailer');
  });
});

describe("npm start's V8 flags", () => {
  it('turn off allocation-site pretenuring, which this node accepts', () => {
    // With it on, half of the server's starts at 1M ads ran ad detail at 40 % of its speed: V8
    // judged some allocation site long-lived while the caches filled and then allocated its
    // objects, garbage a request later, in the old generation (a full collection every ~90 ms
    // against 8 in 10 s; README, "Memory"). Off, none of 15 starts did.
    const { nodeArgs } = startCommand();
    expect(nodeArgs).toContain('--no-allocation-site-pretenuring');
    // node refuses a flag its V8 does not know ("bad option"): npm start would not start
    const out = execFileSync(process.execPath, [...nodeArgs, '-e', 'console.log("started")'], { cwd: ROOT, encoding: 'utf8' });
    expect(out.trim()).toBe('started');
    expect(() => execFileSync(process.execPath, ['--no-allocation-site-pretenurin', '-e', '0'], { stdio: 'pipe' })).toThrow();
  });
});

describe('the compile cache npm start keeps', () => {
  it('spares a restart the stripping of every TypeScript file, even when the server was killed', async () => {
    // npm start names a cache directory…
    expect(startCommand().env.NODE_COMPILE_CACHE).toBe('node_modules/.cache/node-compile');
    // …and a server started with one writes it as soon as it serves: killed then (no exit hook
    // runs), the next start still finds its modules there. Here in a directory of the test's own.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-compile-cache-'));
    let server: ChildProcess | undefined;
    try {
      const env = {
        ...process.env,
        NODE_COMPILE_CACHE: path.join(dir, 'cache'),
        DATA_DIR: path.join(dir, 'data'),
        PORT: '0',
        HOST: '127.0.0.1',
        CRON: '0',
        SEED_LOCATIONS: '0',
        LOG_LEVEL: 'warn',
      };
      const started = spawn(process.execPath, ['server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
      server = started;
      await new Promise<void>((resolve, reject) => {
        let out = '';
        started.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('is serving on')) resolve();
        });
        started.on('exit', (code) => reject(new Error(`the server exited (${code}) before serving: ${out}`)));
      });
      const killed = new Promise((resolve) => started.on('exit', resolve));
      started.kill('SIGKILL');
      await killed;
      // Node strips types with a WebAssembly compiler it loads on the first .ts file it must read:
      // ~14 MB of memory for the server's life and a quarter of its start (0.85 → 0.64 s at 1M ads).
      const script = `
        await import(${JSON.stringify(path.join(ROOT, 'server/app.ts'))});
        console.log(process.moduleLoadList.some((m) => m.includes('amaro')));`;
      const stripped = (cache: string) =>
        execFileSync(process.execPath, ['--input-type=module', '-e', script], {
          cwd: ROOT,
          env: { ...env, NODE_COMPILE_CACHE: cache },
          encoding: 'utf8',
        }).trim();
      expect(stripped(path.join(dir, 'other'))).toBe('true'); // the check sees stripping…
      expect(stripped(path.join(dir, 'cache'))).toBe('false'); // …and the killed server's cache spares it
    } finally {
      if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL'); // a start that failed the test
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
