import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database_ } from '../../core/db.ts';
import { CheckTimeout, formatMs, type CheckOutcome } from './health.checks.ts';

/** A write that takes longer than this (waiting for the lock included) degrades the database check. */
export const SLOW_WRITE_MS = 500;

// PRAGMA quick_check reads every page: a few milliseconds on a small file, seconds on a database of
// a million ads, and better-sqlite3 is synchronous. Past WORKER_ABOVE_BYTES it runs in a worker
// thread on its own read-only connection, so the server keeps answering meanwhile and a check past
// its time limit can be stopped (the worker is terminated). Starting a worker costs ~100 ms, more
// than checking a small file outright.
export const WORKER_ABOVE_BYTES = 16 * 1024 * 1024;
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  parentPort.postMessage(db.pragma('quick_check(5)', { simple: false }).map((r) => String(Object.values(r)[0])));
} finally {
  db.close();
}`;
const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** PRAGMA quick_check's findings: ['ok'] when the file is sound. */
export async function quickCheck(database: Database_, timeoutMs: number, workerAboveBytes = WORKER_ABOVE_BYTES): Promise<string[]> {
  const { reader } = database; // what is committed (the writer's handle for an in-memory database)
  const file = reader.name;
  const bytes = (reader.pragma('page_count', { simple: true }) as number) * (reader.pragma('page_size', { simple: true }) as number);
  // An in-memory database (scripts, some tests) has no file a second connection could open.
  if (reader.memory || !file || bytes <= workerAboveBytes) {
    return (reader.pragma('quick_check(5)', { simple: false }) as Record<string, unknown>[]).map((r) => String(Object.values(r)[0]));
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { module: betterSqlite3, file } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new CheckTimeout(`integrity check gave no answer in ${formatMs(timeoutMs)}`));
    }, timeoutMs);
    worker.once('message', (findings: string[]) => {
      clearTimeout(timer);
      resolve(findings);
    });
    worker.once('error', (err: Error) => {
      clearTimeout(timer);
      reject(err);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`integrity check stopped (exit code ${code})`));
    });
  });
}

class ProbeDone extends Error {}

/** Takes the write lock and writes a row, then rolls back: how long a write waits and takes now. */
export async function writeProbe(database: Database_, at: string): Promise<number> {
  const started = performance.now();
  try {
    await database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('health_checks')
        .values({ name: 'write-probe', status: 'ok', message: 'probe', says_json: null, duration_ms: 0, checked_at: at })
        .execute();
      throw new ProbeDone();
    });
  } catch (err) {
    if (!(err instanceof ProbeDone)) throw err;
  }
  return performance.now() - started;
}

/** The database check: the file's integrity, then a write probe's latency. */
export async function checkDatabase(
  database: Database_,
  opts: { at: string; timeoutMs: number; slowWriteMs?: number; workerAboveBytes?: number },
): Promise<CheckOutcome> {
  let findings: string[];
  try {
    findings = await quickCheck(database, opts.timeoutMs, opts.workerAboveBytes);
  } catch (err) {
    if (err instanceof CheckTimeout) throw err;
    const words = err instanceof Error ? err.message : String(err);
    return { status: 'failing', message: `integrity check could not read the file: ${words}`, says: { code: 'database.unreadable', detail: words } };
  }
  if (findings.length !== 1 || findings[0] !== 'ok') {
    const words = findings.join('; ');
    return { status: 'failing', message: `integrity check found problems: ${words}`, says: { code: 'database.corrupt', detail: words } };
  }
  const ms = await writeProbe(database, opts.at);
  const slow = opts.slowWriteMs ?? SLOW_WRITE_MS;
  const took = formatMs(ms);
  if (ms > slow) {
    return {
      status: 'degraded',
      message: `integrity ok; a write took ${took} (over ${formatMs(slow)})`,
      says: { code: 'database.slow_write', params: { took: Math.round(ms), limit: slow } },
    };
  }
  // Durations go to the screen in milliseconds: it writes them the reader's way (src/lib/said.ts).
  return { status: 'ok', message: `integrity ok; a write took ${took}`, says: { code: 'database.ok', params: { took: Math.round(ms) } } };
}
