import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../test/harness.ts';

// main.ts as an operator runs it (a child process on 127.0.0.1), stopped as a deploy stops it.

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');

let child: ChildProcess | null = null;
let dir = '';
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function startServer() {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-main-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH!,
    NODE_ENV: 'development',
    DATA_DIR: path.join(dir, 'data'),
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: base,
    MASTER_EMAIL: 'boss@example.com',
    MASTER_PASSWORD: 'a long master pw',
    LOG_LEVEL: 'info',
    CRON: '0',
    SEED_LOCATIONS: '0',
  };
  const c = spawn(NODE, [path.join(ROOT, 'server/main.ts')], { cwd: dir, env });
  child = c;
  let out = '';
  let err = '';
  c.stdout!.on('data', (d) => (out += String(d)));
  c.stderr!.on('data', (d) => (err += String(d)));
  await new Promise<void>((resolve, reject) => {
    const t = setInterval(() => {
      if (out.includes('is serving on')) {
        clearInterval(t);
        resolve();
      } else if (c.exitCode !== null) {
        clearInterval(t);
        reject(new Error(`exited ${c.exitCode}: ${err}`));
      }
    }, 50);
  });
  return { base, c };
}

describe('main.ts on SIGTERM', () => {
  it('answers the requests in flight, closes the database and exits 0 at once (not after the 10 s limit)', async () => {
    const { base, c } = await startServer();
    const signIns = Array.from({ length: 4 }, () =>
      fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ email: 'boss@example.com', password: 'a long master pw' }),
      }).then(
        (r) => r.status,
        (e: unknown) => String(e),
      ),
    );
    await new Promise((r) => setTimeout(r, 30)); // the sign-ins are hashing their passwords
    const t0 = Date.now();
    c.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => c.once('exit', (x) => resolve(x)));
    const ms = Date.now() - t0;
    expect(await Promise.all(signIns)).toEqual([200, 200, 200, 200]);
    expect({ code, prompt: ms < 5000 }).toEqual({ code: 0, prompt: true });
    // Closed cleanly: the write-ahead log folded back into the file.
    expect(fs.readdirSync(path.join(dir, 'data')).filter((f) => f.startsWith('xg.sqlite'))).toEqual(['xg.sqlite']);
  }, 60_000);
});
