import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { AppError, Conflict } from '../../core/errors.ts';
import type { Executor } from '../../core/db.ts';
import type { CronRun } from '../../../contract/api/cron.ts';
import type { Said } from '../../../contract/api/common.ts';
import { DEFAULT_TIMEOUT_MS, type CronJob } from './cron.jobs.ts';
import * as repo from './cron.repository.ts';

// One run of a job, from the row that records its start to the row that records its end: the
// heartbeat other processes respect, the job's time limit, the shutdown, and the per-app state
// (locks, runs in flight) that cron.service.ts's entry points share.

/** What the API sends (contract/api/cron.ts). */
export type CronRunDto = CronRun;

type RunRow = NonNullable<Awaited<ReturnType<typeof repo.findRun>>>;
export const toDto = (r: RunRow): CronRunDto => ({
  id: r.id,
  name: r.name,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  outcome: r.outcome,
  message: r.message,
  says: r.says_json ? (JSON.parse(r.says_json) as Said) : null,
});

const formatMs = (ms: number) => (ms < 1000 ? `${ms} ms` : `${+(ms / 1000).toFixed(1)} s`);
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
/** A run's message: the English words and, as a code with its figures, what the page words in its language (at most 2,000 characters of each). */
type Outcome = { outcome: 'ok' | 'failed'; message: string | null; says: Said | null };
const failed = (message: string, says: Said): Outcome => ({ outcome: 'failed', message, says });
const clip = (text: string) => text.slice(0, 2000);
const clipSaid = (said: Said): Said => (said.detail ? { ...said, detail: clip(said.detail) } : said);

/** This process, as the runs it records name it (two server processes may share one database file). */
const PROCESS_ID = `${process.pid}-${randomBytes(6).toString('hex')}`;
/** How often a running job's process says it is still at it, and after how long without a word its run counts as interrupted. */
const HEARTBEAT_MS = 15_000;
const STALE_MS = 60_000;
export const INTERRUPTED = { message: 'interrupted: the server stopped during this run', says: JSON.stringify({ code: 'cron.interrupted' } satisfies Said) };
/** A run whose heartbeat is older than this (real time) has lost its process. */
export const aliveAfter = () => new Date(Date.now() - STALE_MS).toISOString();

/** One app's runs: the per-name locks the scheduler and "run now" share, and what the app's close waits for. */
interface RunnerState {
  locks: Map<string, symbol>;
  inflight: Set<Promise<unknown>>;
  shutdown: AbortController;
}
const states = new WeakMap<object, RunnerState>();
export function stateOf(deps: AppDeps): RunnerState {
  let s = states.get(deps);
  if (!s) {
    s = { locks: new Map(), inflight: new Set(), shutdown: new AbortController() };
    states.set(deps, s);
  }
  return s;
}

/**
 * The job that is there to see the database fail runs even when its run cannot be recorded (another
 * process holds the write lock, a full disk, a read-only file): the health service keeps its results
 * in memory and /api/health answers from them. Other jobs wait for a database that can record them.
 */
const RUNS_UNRECORDED = new Set(['health-checks']);

export async function execute(
  deps: AppDeps,
  job: CronJob,
  s: RunnerState,
  release: () => void,
  mayStart?: (trx: Executor) => Promise<void>,
): Promise<CronRunDto> {
  let id: number | null;
  const startedAt = deps.clock.now().toISOString();
  try {
    id = await repo.startRun(
      deps.db,
      {
        name: job.name,
        at: startedAt,
        owner: PROCESS_ID,
        beat: new Date().toISOString(),
        aliveAfter: aliveAfter(),
        interrupted: INTERRUPTED,
      },
      mayStart,
    );
  } catch (err) {
    // A refusal (mayStart's) starts nothing; a database that cannot record the run stops every job but one.
    if (!RUNS_UNRECORDED.has(job.name) || err instanceof AppError) {
      release();
      throw err;
    }
    deps.log.error({ err, job: job.name }, 'cron run could not be recorded: the job runs all the same');
    const work = perform(deps, job, s);
    await work.result; // its failure is logged there
    whenStopped(deps, job, s, work, release);
    throw err;
  }
  if (id === null) {
    release();
    throw new Conflict('cron.job_running', { name: job.name }); // another process is running it
  }
  const runId = id;
  // Says every HEARTBEAT_MS that this process is still at it (real time: other processes compare).
  const heartbeat = setInterval(() => {
    repo.beat(deps.db, runId, new Date().toISOString()).catch((err: unknown) => deps.log.warn({ err, job: job.name }, 'cron heartbeat not recorded'));
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const work = perform(deps, job, s);
  const result = await work.result;
  const finished = {
    outcome: result.outcome,
    message: result.message === null ? null : clip(result.message),
    says: result.says && clipSaid(result.says),
    at: deps.clock.now().toISOString(),
  };
  const record = async () => {
    clearInterval(heartbeat);
    await repo.finishRun(deps.db, runId, finished);
  };
  if (work.settled() || s.shutdown.signal.aborted) {
    release();
    await record();
  } else {
    // Both locks stay until the work has really stopped, so a late job never overlaps its next run:
    // this process's, and the run's row, still running and beating, which other processes respect.
    whenStopped(deps, job, s, work, () => {
      release();
      record().catch((err: unknown) => deps.log.error({ err, job: job.name }, 'cron run not recorded'));
    });
  }
  const row = await repo.findRun(deps.db, runId);
  // What the run came to, as its caller is told now (the row may still say running: see above; it
  // is gone only if it was deleted by hand, before deleting a running one was refused).
  const known = { id: runId, name: job.name, startedAt, finishedAt: finished.at, outcome: finished.outcome, message: finished.message, says: finished.says };
  return row && row.outcome !== 'running' ? toDto(row) : known;
}

/** A job's work under way: what it came to (its report, its error, its time limit or the shutdown), and whether the work itself has ended. */
interface Performing {
  result: Promise<Outcome>;
  settled: () => boolean;
  workDone: Promise<unknown>;
}

function perform(deps: AppDeps, job: CronJob, s: RunnerState): Performing {
  const limit = job.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const stop = new AbortController();
  let settled = false;
  const work = Promise.resolve().then(() => job.run(deps, stop.signal));
  const workDone = work.then(
    () => (settled = true),
    () => (settled = true),
  );
  let timer: NodeJS.Timeout | undefined;
  let onShutdown: (() => void) | undefined;
  const result = new Promise<Outcome>((resolve) => {
    work.then(
      (report) => resolve({ outcome: 'ok', message: report.message || null, says: report.says }),
      (err) => {
        deps.log.error({ err, job: job.name }, 'cron job failed');
        const text = errorText(err);
        resolve(text ? failed(text, { code: 'cron.failed', detail: text }) : failed('failed without a message', { code: 'cron.failed_silently' }));
      },
    );
    timer = setTimeout(() => {
      deps.log.error({ job: job.name, limit }, 'cron job timed out');
      stop.abort(new Error(`timed out after ${formatMs(limit)}`));
      resolve(failed(`timed out after ${formatMs(limit)}`, { code: 'cron.timed_out', params: { limit } }));
    }, limit);
    onShutdown = () => {
      stop.abort(new Error('the server is shutting down'));
      resolve(failed('stopped: the server shut down during this run', { code: 'cron.shutdown' }));
    };
    s.shutdown.signal.addEventListener('abort', onShutdown, { once: true });
  }).finally(() => {
    clearTimeout(timer);
    s.shutdown.signal.removeEventListener('abort', onShutdown!);
  });
  return { result, settled: () => settled, workDone };
}

/**
 * Calls `done` once the work has really stopped (at once if it has, or the server is shutting
 * down). Work that ignores its signal is given up one more time limit later.
 */
function whenStopped(deps: AppDeps, job: CronJob, s: RunnerState, work: Performing, done: () => void): void {
  if (work.settled() || s.shutdown.signal.aborted) {
    done();
    return;
  }
  let over = false;
  const once = () => {
    if (over) return;
    over = true;
    done();
  };
  const giveUp = setTimeout(() => {
    deps.log.error({ job: job.name }, 'cron job still running long past its time limit: its lock is released');
    once();
  }, job.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  giveUp.unref();
  void work.workDone.then(() => {
    clearTimeout(giveUp);
    once();
  });
}
