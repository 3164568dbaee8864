import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';

export async function startRun(db: Executor, name: string, at: string): Promise<number> {
  const r = await db.insertInto('cron_runs').values({ name, started_at: at, outcome: 'running' }).executeTakeFirstOrThrow();
  return Number(r.insertId);
}

export async function finishRun(db: Executor, id: number, r: { outcome: 'ok' | 'error'; message: string | null; at: string }): Promise<void> {
  await db.updateTable('cron_runs').set({ outcome: r.outcome, message: r.message, finished_at: r.at }).where('id', '=', id).execute();
}

export async function listRuns(db: Executor, o: { name?: string; offset: number; limit: number }) {
  let base = db.selectFrom('cron_runs');
  if (o.name) base = base.where('name', '=', o.name);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').limit(o.limit).offset(o.offset).execute(),
    base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export function findRun(db: Executor, id: number) {
  return db.selectFrom('cron_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteRun(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('cron_runs').where('id', '=', id).execute();
}
