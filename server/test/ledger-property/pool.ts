import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import type { HttpCall } from './http.ts';
import { createDatabaseFile, openFileApp, type FileApp } from './file-app.ts';
import type { DoneMessage, RoundMessage } from './worker.ts';

// The worker processes of the ledger property test: a migrated database FILE, the test's own app
// on it, and WORKERS child processes (worker.ts), each with its app and connection on the same
// file. fire() hands each worker its requests for a round; all start at one wall-clock instant.

export const WORKERS = 2;

export interface Pool {
  dir: string;
  file: string;
  main: FileApp;
  children: ChildProcess[];
  pending: Map<number, { resolve: (m: DoneMessage) => void; reject: (e: Error) => void }>;
}

export async function startPool(): Promise<Pool> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xg-ledger-prop-'));
  const file = path.join(dir, 'xg.sqlite');
  createDatabaseFile(file);
  const main = await openFileApp(file, dir);
  const pending: Pool['pending'] = new Map();
  const children = await Promise.all(
    Array.from({ length: WORKERS }, () => {
      const child = fork(path.resolve(import.meta.dirname, 'worker.ts'), [file, dir], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      return new Promise<ChildProcess>((resolveReady, reject) => {
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
        child.on('message', (m: DoneMessage | { type: 'ready' }) => {
          if (m.type === 'ready') resolveReady(child);
          else pending.get(m.id)?.resolve(m);
        });
      });
    }),
  );
  for (const c of children) {
    c.removeAllListeners('exit');
    // A worker that dies fails the round at once instead of leaving it waiting for the timeout.
    c.on('exit', (code) => {
      for (const [id, p] of pending) {
        pending.delete(id);
        p.reject(new Error(`worker ${c.pid} exited (${code}) during a round`));
      }
    });
  }
  return { dir, file, main, children, pending };
}

export async function stopPool(p: Pool): Promise<void> {
  await Promise.all(
    p.children.map(
      (c) =>
        new Promise<void>((r) => {
          if (c.exitCode !== null) return r();
          c.once('exit', () => r());
          c.send({ type: 'exit' });
          setTimeout(() => c.kill(), 5000).unref();
        }),
    ),
  );
  await p.main.close();
  fs.rmSync(p.dir, { recursive: true, force: true });
}

let roundSeq = 0;
/** Sends each worker its calls for one round; all start at the same wall-clock instant. */
export async function fire(p: Pool, now: number, callsByWorker: HttpCall[][]): Promise<DoneMessage[]> {
  const goAt = Date.now() + 25;
  return Promise.all(
    callsByWorker.map((calls, k) => {
      const id = ++roundSeq;
      return new Promise<DoneMessage>((resolve, reject) => {
        p.pending.set(id, {
          resolve: (m) => {
            p.pending.delete(id);
            resolve(m);
          },
          reject,
        });
        const msg: RoundMessage = { type: 'round', id, now, goAt, calls };
        p.children[k].send(msg);
      });
    }),
  );
}
