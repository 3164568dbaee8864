import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';

// What scripts/bench.ts and scripts/lighthouse.ts share: a seeded data dir, and the real server
// (or another Node program) started as a separate process on a free 127.0.0.1 port.

export const ROOT = path.resolve(import.meta.dirname, '..');
const NODE = process.execPath;

function hasAds(dbFile: string): boolean {
  if (!fs.existsSync(dbFile)) return false;
  const db = new Database(dbFile, { readonly: true });
  try {
    return (
      (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'ads'").get() as { n: number }).n > 0 && !!db.prepare('SELECT 1 FROM ads LIMIT 1').get()
    );
  } finally {
    db.close();
  }
}

/** Seeds `count` ads into dataDir (scripts/seed-ads.ts) unless its database already has ads. */
export function ensureSeeded(dataDir: string, count: string): void {
  if (hasAds(path.join(dataDir, 'xg.sqlite'))) return;
  console.log(`Seeding ${count} ads into ${dataDir} …`);
  execFileSync(NODE, ['scripts/seed-ads.ts', '--count', count, '--data-dir', dataDir], { cwd: ROOT, stdio: 'inherit' });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * How `npm start` runs the server (package.json): the environment assignments and node flags before
 * server/main.ts (the allocator's settings, the young generation's size), so a benchmark measures
 * the process an operator runs, memory included.
 */
export function startCommand(): { env: Record<string, string>; nodeArgs: string[] } {
  const start = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const m = /(?:^|&&\s*)((?:\w+=\S+\s+)*)node\s+((?:--\S+\s+)*)server\/main\.ts\b/.exec(start);
  if (!m) throw new Error(`package.json's start script does not run "node … server/main.ts": ${start}`);
  const env = Object.fromEntries(
    m[1]
      .split(/\s+/)
      .filter(Boolean)
      .map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
  );
  return { env, nodeArgs: m[2].split(/\s+/).filter(Boolean) };
}

/** The real server's environment for a benchmark: 127.0.0.1 only, no cron, the per-IP limits lifted (all load comes from one address). */
export function serverEnv(dataDir: string, port: number): Record<string, string> {
  return {
    ...startCommand().env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    CRON: '0',
    SEED_LOCATIONS: '0',
    XG_RELAXED_LIMITS: '1', // refused in production, hence NODE_ENV development
    NODE_ENV: 'development',
  };
}

/**
 * Starts `node …args` in ROOT and resolves with the first stdout line matching `ready`; `ipc` opens
 * an IPC channel. Later output (the server's warnings and errors) goes on to stderr, the first 20
 * lines of it: a server failing on every request must neither flood the report nor, with nobody
 * reading its pipe, block on it.
 */
export function startProcess(
  nodeArgs: string[],
  env: Record<string, string>,
  ready: RegExp,
  opts: { ipc?: boolean; children?: ChildProcess[] } = {},
): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(NODE, nodeArgs, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', ...(opts.ipc ? ['ipc' as const] : [])],
  });
  opts.children?.push(child);
  const name = path.basename(nodeArgs.at(-1)!);
  return new Promise((resolve, reject) => {
    let out = '';
    let started = false;
    let forwarded = 0;
    const timer = setTimeout(() => reject(new Error(`${nodeArgs.join(' ')} did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      if (started) {
        for (const line of d.toString().split('\n')) {
          if (!line.trim() || forwarded > 20) continue;
          process.stderr.write(++forwarded > 20 ? `[${name}] … (further output not shown)\n` : `[${name}] ${line.slice(0, 500)}\n`);
        }
        return;
      }
      out += d.toString();
      const line = out.split('\n').find((l) => ready.test(l));
      if (line) {
        started = true;
        clearTimeout(timer);
        resolve({ child, line });
      }
    });
    child.on('exit', (code) => reject(new Error(`${nodeArgs.join(' ')} exited with ${code}: ${out}`)));
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}
