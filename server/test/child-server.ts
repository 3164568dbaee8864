// The real server in a child process, for tests that kill it (kill -9) mid-work and start it again
// on the same database file, and a mail relay that hangs (to hold a send in flight). Not a test file.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { freePort } from './harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** What a test must undo after it (a test file runs them in reverse in its afterEach). */
export type Cleanups = (() => Promise<void> | void)[];

export interface ChildServer {
  url: string;
  child: ChildProcess;
  exited: Promise<void>;
}

/** A mail relay that accepts the connection and never says a word (a relay that hangs). */
export async function silentRelay(): Promise<{ url: string; connected: Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let connected!: () => void;
  const p = new Promise<void>((r) => (connected = r));
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    connected();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    connected: p,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** server/main.ts in a child process on `dataDir` (cron off, mail to `smtpUrl`), once it serves; killed by `cleanups` if still running. */
export async function startChildServer(dataDir: string, smtpUrl: string, cleanups: Cleanups): Promise<ChildServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), ['server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH!,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      CRON: '0',
      SEED_LOCATIONS: '0',
      JWT_SECRET: 'd'.repeat(48),
      SMTP_URL: smtpUrl,
      MAIL_FROM: 'XG <no-reply@xg.test>',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    try {
      if ((await fetch(`${url}/api/session`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, exited };
}
