import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCommand } from '../../scripts/bench-server.ts';
import { startMainOnce } from '../test/harness.ts';

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

describe('a start with a setting the operator got wrong', () => {
  // server/main.ts as an operator starts it, in a child process on 127.0.0.1 with a temporary DATA_DIR.
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-start-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const start = (env: Record<string, string>) => startMainOnce(dir, env);
  /** What the operator should see: a refusal (exit 1) in a line or two naming the setting, no JavaScript stack. */
  const refusal = (r: { code: number | null; err: string; served: boolean }) => ({
    served: r.served,
    code: r.code,
    stackTrace: /^\s+at .+:\d+:\d+\)?$/m.test(r.err) || /^\s*\^\s*$/m.test(r.err),
  });
  const refused = { served: false, code: 1, stackTrace: false };

  // The commonest start failure (an old server still running, another service on the port).
  it('a PORT already in use refuses in one line naming PORT, not with the raw EADDRINUSE stack', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const r = await start({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
      expect(refusal(r)).toEqual(refused);
      expect(r.err).toMatch(new RegExp(`PORT ${port} is already in use`));
    } finally {
      busy.close();
    }
  }, 30_000);

  it('a HOST that is not an address of this machine refuses in one line naming HOST', async () => {
    const r = await start({ HOST: '192.0.2.1' }); // TEST-NET-1: never a local address
    expect(refusal(r)).toEqual(refused);
    expect(r.err).toMatch(/HOST 192\.0\.2\.1 is not an address of this machine/);
  }, 30_000);

  // Refused by loadConfig, before the database is opened (pino would throw inside buildApp).
  it('a LOG_LEVEL pino does not know refuses naming LOG_LEVEL', async () => {
    const r = await start({ LOG_LEVEL: 'verbose' });
    expect(refusal(r)).toEqual(refused);
    expect(r.err).toMatch(/LOG_LEVEL/);
  }, 30_000);

  it('a DATA_DIR that is not a folder refuses naming DATA_DIR', async () => {
    const file = path.join(dir, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    const r = await start({ DATA_DIR: file });
    expect(refusal(r)).toEqual(refused);
    expect(r.err).toMatch(/DATA_DIR/);
  }, 30_000);

  // After a rollback of the code or a restore of a newer backup: the one sentence, upgrade the code.
  it('a database newer than the code refuses with its one sentence', async () => {
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    const db = new Database(path.join(dataDir, 'xg.sqlite'));
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(9999, '9999_from_the_future.sql', 'x');
    db.close();
    const r = await start({});
    expect(r.err).toMatch(/newer than this code/);
    expect(refusal(r)).toEqual(refused);
  }, 30_000);
});

describe('the data a start creates', () => {
  // The database holds every password hash, e-mail, phone and the Textbelt key: the live file and
  // its -wal/-shm are the server user's alone, as backups (0600 in 0700) and secrets.json are; an
  // install an older version left open (DATA_DIR 0755, files 0644) is closed at its next start.
  it('DATA_DIR is 0700 and the database with its -wal and -shm 0600, on a first start and after an older one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-start-modes-'));
    const dataDir = path.join(dir, 'data');
    const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', CRON: '0', SEED_LOCATIONS: '0', LOG_LEVEL: 'warn' };
    const modes = () => {
      const mode = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);
      const files = fs.readdirSync(dataDir).filter((f) => f.startsWith('xg.sqlite'));
      return [`data ${mode(dataDir)}`, ...files.map((f) => `${f} ${mode(path.join(dataDir, f))}`)];
    };
    /** The modes while the server serves (the -wal and -shm go when it closes the database). */
    const modesWhileServing = () =>
      new Promise<string[]>((resolve, reject) => {
        const c = spawn(path.join(ROOT, 'node_modules/.bin/node'), ['server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        let seen: string[] = [];
        c.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('is serving on') && !seen.length) {
            seen = modes();
            c.kill('SIGTERM');
          }
        });
        c.on('close', () => (seen.length ? resolve(seen) : reject(new Error(`did not serve: ${out}`))));
      });
    try {
      const first = await modesWhileServing();
      expect(first).toEqual(expect.arrayContaining(['data 700', 'xg.sqlite 600', 'xg.sqlite-wal 600', 'xg.sqlite-shm 600']));
      // An install an older version made: open folder, open files, another connection holding the -wal and -shm.
      fs.chmodSync(dataDir, 0o755);
      fs.chmodSync(path.join(dataDir, 'xg.sqlite'), 0o644);
      const other = new Database(path.join(dataDir, 'xg.sqlite'));
      try {
        other.pragma('journal_mode = WAL');
        other.prepare('SELECT count(*) FROM schema_migrations').get();
        expect(modes()).toContain('xg.sqlite-wal 644');
        const again = await modesWhileServing();
        expect(again).toEqual(expect.arrayContaining(['data 700', 'xg.sqlite 600', 'xg.sqlite-wal 600', 'xg.sqlite-shm 600']));
        expect(again.filter((m) => !/ (700|600)$/.test(m))).toEqual([]);
      } finally {
        other.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
