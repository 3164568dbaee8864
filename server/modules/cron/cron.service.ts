import { Cron } from 'croner';
import type { AppDeps } from '../../core/deps.ts';
import type { SessionUser } from '../../core/auth.ts';
import { NotFound } from '../../core/errors.ts';
import { writeAudit } from '../../core/audit.ts';
import { paging } from '../../core/http.ts';
import type { CronRun } from '../../../contract/api/cron.ts';
import { CRON_JOBS, type CronJob } from './cron.jobs.ts';
import * as repo from './cron.repository.ts';

/** What the API sends (contract/api/cron.ts). */
export type CronRunDto = CronRun;

type RunRow = NonNullable<Awaited<ReturnType<typeof repo.findRun>>>;
const toDto = (r: RunRow): CronRunDto => ({
  id: r.id,
  name: r.name,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  outcome: r.outcome,
  message: r.message,
});

/** Runs one job now and records the run (name, start, end, outcome, message). Never throws. */
export async function runJob(deps: AppDeps, job: CronJob): Promise<CronRunDto> {
  const id = await repo.startRun(deps.db, job.name, deps.clock.now().toISOString());
  let outcome: 'ok' | 'error' = 'ok';
  let message: string | null;
  try {
    message = (await job.run(deps)) || null;
  } catch (err) {
    outcome = 'error';
    message = err instanceof Error ? err.message : String(err);
    deps.log.error({ err, job: job.name }, 'cron job failed');
  }
  await repo.finishRun(deps.db, id, { outcome, message: message?.slice(0, 2000) ?? null, at: deps.clock.now().toISOString() });
  return toDto((await repo.findRun(deps.db, id))!);
}

/** Schedules every registered job (croner, no overlapping runs of one job); stop() ends them all. */
export function startScheduler(deps: AppDeps, jobs: CronJob[] = CRON_JOBS): { stop(): void } {
  const timers = jobs.map(
    (job) =>
      new Cron(job.schedule, { protect: true, unref: true }, async () => {
        await runJob(deps, job);
      }),
  );
  return {
    stop() {
      for (const t of timers) t.stop();
    },
  };
}

export class CronService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  async list(q: { page?: number; pageSize?: number; name?: string }) {
    const { page, pageSize, offset } = paging(q);
    const { rows, total } = await repo.listRuns(this.deps.db, { name: q.name, offset, limit: pageSize });
    return { cronJobs: rows.map(toDto), total, page, pageSize, jobs: CRON_JOBS.map((j) => ({ name: j.name, schedule: j.schedule })) };
  }

  async delete(actor: SessionUser, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const run = await repo.findRun(trx, id);
      if (!run) throw new NotFound('cron.run_not_found');
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
