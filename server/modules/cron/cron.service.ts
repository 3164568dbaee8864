import { Cron } from 'croner';
import type { AppDeps } from '../../core/deps.ts';
import { currentActor, type SessionUser } from '../../core/auth.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors.ts';
import type { Executor } from '../../core/db.ts';
import { isStaff } from '../../core/policy.ts';
import { writeAudit } from '../../core/audit.ts';
import { paging } from '../../core/http.ts';
import type { CronSchedule } from '../../../contract/api/cron.ts';
import { CRON_JOBS, findJob, type CronJob } from './cron.jobs.ts';
import * as repo from './cron.repository.ts';
import { INTERRUPTED, aliveAfter, execute, stateOf, toDto, type CronRunDto } from './cron.runner.ts';

// The scheduler and the ways in to a run (the scheduler's tick, "run now", the app's start and
// close), and the back office's list of runs; a run itself is cron.runner.ts.

/**
 * Starts one run of a job, unless that job is running already in this process (then null, at once:
 * the lock is taken before anything is awaited) or in another one on the same file (then the
 * promise rejects with 409 cron.job_running). The run is recorded `running`, then `ok` or `failed` with the
 * job's message, its error, or "timed out" past its time limit. The job's failure never throws
 * out of here (only a database that cannot record the run does). `mayStart` is asked under the
 * write lock, in the transaction that records the start (repo.startRun): its refusal starts nothing.
 */
export function tryRunJob(deps: AppDeps, job: CronJob, mayStart?: (trx: Executor) => Promise<void>): Promise<CronRunDto> | null {
  const s = stateOf(deps);
  if (s.locks.has(job.name) || s.shutdown.signal.aborted) return null;
  const token = Symbol(job.name);
  s.locks.set(job.name, token);
  const release = () => {
    if (s.locks.get(job.name) === token) s.locks.delete(job.name);
  };
  const run = execute(deps, job, s, release, mayStart);
  s.inflight.add(run);
  const done = () => s.inflight.delete(run);
  run.then(done, done);
  return run;
}

/** Runs one job now and records the run. 409 (Conflict) when that job is already running. */
export async function runJob(deps: AppDeps, job: CronJob, mayStart?: (trx: Executor) => Promise<void>): Promise<CronRunDto> {
  const run = tryRunJob(deps, job, mayStart);
  if (!run) throw new Conflict('cron.job_running', { name: job.name });
  return run;
}

/**
 * Schedules every registered job (croner; a job still running when its time comes again is
 * skipped, whoever started it) and runs the `runAtStart` ones once now. stop() ends the timers.
 */
export function startScheduler(deps: AppDeps, jobs: CronJob[] = CRON_JOBS): { stop(): void } {
  const tick = async (job: CronJob) => {
    const run = tryRunJob(deps, job);
    if (!run) {
      deps.log.info({ job: job.name }, 'cron job skipped: its previous run is still going');
      return;
    }
    try {
      await run;
    } catch (err) {
      if (err instanceof Conflict) deps.log.info({ job: job.name }, 'cron job skipped: another server process is running it');
      else deps.log.error({ err, job: job.name }, 'cron run could not be recorded');
    }
  };
  const timers = jobs.map((job) => new Cron(job.schedule, { protect: true, unref: true }, () => tick(job)));
  for (const job of jobs) if (job.runAtStart) void tick(job);
  return {
    stop() {
      for (const t of timers) t.stop();
    },
  };
}

/**
 * Runs a stopped process left `running` are recorded as interrupted (called once the app is ready):
 * those whose process has not said it is still at it for a minute. Another process's live run stays.
 */
export function failLeftoverRuns(deps: AppDeps): Promise<number> {
  return repo.failLeftoverRuns(deps.db, {
    ...INTERRUPTED,
    at: deps.clock.now().toISOString(),
    aliveAfter: aliveAfter(),
  });
}

/** When the app closes: running jobs are told to stop and their runs recorded, and no new run starts. */
export async function stopJobs(deps: AppDeps): Promise<void> {
  const s = stateOf(deps);
  s.shutdown.abort();
  await Promise.allSettled([...s.inflight]);
}

/** When a pattern fires next after `from` (server time zone), as an ISO string. */
export function nextRunAt(pattern: string, from: Date): string | null {
  return new Cron(pattern, { paused: true }).nextRun(from)?.toISOString() ?? null;
}

/** The actor as they are now, inside the change's transaction: demoted or suspended since the request came in, refused (403, 401). */
async function stillStaff(trx: Executor, actor: SessionUser): Promise<void> {
  if (!isStaff(await currentActor(trx, actor))) throw new Forbidden();
}

export class CronService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  async list(q: { page?: number; pageSize?: number; name?: string }) {
    const { page, pageSize, offset } = paging(q);
    const [{ rows, total }, last] = await Promise.all([
      repo.listRuns(this.deps.db, { name: q.name, offset, limit: pageSize }),
      repo.lastOutcomes(this.deps.db),
    ]);
    const now = this.deps.clock.now();
    const schedules: CronSchedule[] = CRON_JOBS.map((j) => ({
      name: j.name,
      cron: j.schedule,
      nextRunAt: this.deps.config.cron ? nextRunAt(j.schedule, now) : null,
      lastOutcome: last.get(j.name) ?? null,
    }));
    return { cronJobs: rows.map(toDto), schedules, total, page, pageSize };
  }

  /** Staff: runs a registered job now (400 unknown name, 409 already running), audited with its outcome. */
  async runNow(actor: SessionUser, name: string): Promise<CronRunDto> {
    const job = findJob(name);
    if (!job) throw new Invalid('name', 'cron.job_unknown', { name });
    const run = await runJob(this.deps, job, (trx) => stillStaff(trx, actor)); // asked again as the run starts, under the lock
    await writeAudit(this.deps.db, {
      actor: { id: actor.id, email: actor.email },
      action: 'cron_job.run',
      targetType: 'cron_job',
      targetId: name,
      after: run,
      at: this.deps.clock.now().toISOString(),
    });
    return run;
  }

  async delete(actor: SessionUser, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await stillStaff(trx, actor);
      const run = await repo.findRun(trx, id);
      if (!run) throw new NotFound('cron.run_not_found');
      // A run still going is also the lock that keeps a second process from starting the job: it stays.
      if (run.outcome === 'running' && (run.heartbeat_at === null || run.heartbeat_at > aliveAfter())) {
        throw new Conflict('cron.run_in_progress', { name: run.name });
      }
      await repo.deleteRun(trx, id);
      await writeAudit(trx, {
        actor: { id: actor.id, email: actor.email },
        action: 'cron_run.delete',
        targetType: 'cron_run',
        targetId: String(id),
        before: toDto(run),
        at: this.deps.clock.now().toISOString(),
      });
    });
  }
}
