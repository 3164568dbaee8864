import { sql } from 'kysely';
import type { Db, Executor } from '../../core/db.ts';
import type { CronOutcome } from '../../../contract/api/cron.ts';
import type { Said } from '../../../contract/api/common.ts';
import { heldUserIds } from '../moderation/moderation.holds.ts';
import { forgetAskedAddresses } from '../auth/auth.repository.ts';

/**
 * Records the start of a run, unless another process is running that job (its run's heartbeat is
 * newer than `aliveAfter`): then null. A run of that job whose process stopped beating (a crash)
 * is recorded as interrupted first. One transaction, so two processes cannot both start it.
 * `mayStart` runs first in it, under the write lock: what the caller must ask again there (it throws to refuse).
 */
export async function startRun(
  db: Db,
  r: { name: string; at: string; owner: string; beat: string; aliveAfter: string; interrupted: { message: string; says: string } },
  mayStart?: (trx: Executor) => Promise<void>,
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    await mayStart?.(trx);
    await failLeftoverRuns(trx, { ...r.interrupted, at: r.at, aliveAfter: r.aliveAfter, name: r.name });
    const alive = await trx.selectFrom('cron_runs').select('id').where('name', '=', r.name).where('outcome', '=', 'running').executeTakeFirst();
    if (alive) return null;
    const row = await trx
      .insertInto('cron_runs')
      .values({ name: r.name, started_at: r.at, outcome: 'running', owner: r.owner, heartbeat_at: r.beat })
      .executeTakeFirstOrThrow();
    return Number(row.insertId);
  });
}

/** The running process says it is still at it. */
export async function beat(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('cron_runs').set({ heartbeat_at: at }).where('id', '=', id).where('outcome', '=', 'running').execute();
}

export async function finishRun(
  db: Executor,
  id: number,
  r: { outcome: 'ok' | 'failed'; message: string | null; says: Said | null; at: string },
): Promise<void> {
  await db
    .updateTable('cron_runs')
    .set({ outcome: r.outcome, message: r.message, says_json: r.says && JSON.stringify(r.says), finished_at: r.at })
    .where('id', '=', id)
    .execute();
}

/** Runs (of one job, or of all) left `running` by a process that stopped beating (it stopped or crashed) end as failed; how many. */
export async function failLeftoverRuns(db: Executor, r: { message: string; says: string; at: string; aliveAfter: string; name?: string }): Promise<number> {
  let q = db
    .updateTable('cron_runs')
    .set({ outcome: 'failed', message: r.message, says_json: r.says, finished_at: r.at })
    .where('outcome', '=', 'running')
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<=', r.aliveAfter)]));
  if (r.name) q = q.where('name', '=', r.name);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
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

/** The outcome of each job's latest run, by name. */
export async function lastOutcomes(db: Executor): Promise<Map<string, CronOutcome>> {
  const newest = db
    .selectFrom('cron_runs')
    .select(sql<number>`max(id)`.as('id'))
    .groupBy('name');
  const rows = await db.selectFrom('cron_runs').select(['name', 'outcome']).where('id', 'in', newest).execute();
  return new Map(rows.map((r) => [r.name, r.outcome]));
}

export function findRun(db: Executor, id: number) {
  return db.selectFrom('cron_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteRun(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('cron_runs').where('id', '=', id).execute();
}

/** Deletes runs started before `before`; how many. */
export async function purgeRuns(db: Executor, before: string): Promise<number> {
  const r = await db.deleteFrom('cron_runs').where('started_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Deletes e-mail changes never confirmed and made before `unconfirmedBefore`, and those confirmed
 * before `confirmedBefore` (with the digest of the address they replaced: kept until then so that an
 * erasure still finds the outbox mail sent to it); how many of each. Those of accounts with a legal
 * hold in force (on the account or one of its ads) stay: a hold keeps every row of its account
 * (PRODUCT §5), as the sign-in purge does (moderation.jobs.ts). The table is the profile module's:
 * this purge is the one write to it from outside, kept here beside the job that owns the schedule.
 */
export async function purgeEmailChanges(
  db: Executor,
  o: { unconfirmedBefore: string; confirmedBefore: string },
): Promise<{ unconfirmed: number; confirmed: number }> {
  // Unconfirmed changes past their week keep only a digest of the address they asked for (its
  // confirmation mail may sit in the outbox: forgetAskedAddresses), then go as confirmed ones do.
  const unconfirmed = await forgetAskedAddresses(db, (q) => q.where('created_at', '<', o.unconfirmedBefore).where('user_id', 'not in', heldUserIds(db)));
  const confirmed = await db
    .deleteFrom('email_changes')
    .where((eb) =>
      eb.or([
        eb.and([eb('confirmed_at', 'is not', null), eb('confirmed_at', '<', o.confirmedBefore)]),
        eb.and([eb('confirmed_at', 'is', null), eb('new_email', '=', ''), eb('created_at', '<', o.confirmedBefore)]),
      ]),
    )
    .where('user_id', 'not in', heldUserIds(db))
    .executeTakeFirst();
  return { unconfirmed, confirmed: Number(confirmed.numDeletedRows) };
}

/**
 * Deletes the screening log's rows (the texts of refused posts) written before `before`, in one
 * statement on its created_at index; how many. Those of accounts with a legal hold in force stay,
 * as in the purges above; rows of no account (user_id null) go with the others. The table is the
 * ads module's: this purge is its one write from outside.
 */
export async function purgeScreeningLog(db: Executor, before: string): Promise<number> {
  const r = await db
    .deleteFrom('screening_log')
    .where('created_at', '<', before)
    .where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', 'not in', heldUserIds(db))]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Deletes password-reset rows whose link ended (its hour ran out; used or not) before `before`, in
 * one statement; how many. Those of accounts with a legal hold in force stay, as in the e-mail
 * change purge above. The table is the auth module's: this purge is its one write from outside.
 */
export async function purgePasswordResets(db: Executor, before: string): Promise<number> {
  const r = await db.deleteFrom('password_resets').where('expires_at', '<', before).where('user_id', 'not in', heldUserIds(db)).executeTakeFirst();
  return Number(r.numDeletedRows);
}
