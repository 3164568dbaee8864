import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { IDEMPOTENCY_KEY_PATTERN } from '../../contract/api/ads.ts';
import { AppError } from './errors.ts';
import { DAY_MS } from './clock.ts';
import type { Executor } from './db.ts';

/**
 * Request keys (the Idempotency-Key header, migration 0037). An answer lost on a flaky phone
 * network (ky's timeout, a dropped socket) leaves the user pressing again; for a bump or a
 * renewal the ledger's own key changes with the first one (bump_seq, expires_at moved), and a post
 * has no key at all, so the server alone cannot tell a retry from a second purchase. The client
 * sends one key per user action, the same on its retries; the action and its key are written in
 * one transaction (BEGIN IMMEDIATE: two processes sending the same key serialize), so a key done
 * is answered again from its row, whatever happened since, and never acted on twice.
 */

/** How long a key is answered again: far past any retry; older rows are deleted as new ones are written. */
export const REQUEST_KEY_TTL_MS = DAY_MS;
/** Old rows deleted per row written: more than one, so the table shrinks back to about a day's keys. */
const PURGE_PER_WRITE = 10;

/** One key of one user for one action on one target (an ad id; for a post, requestTarget of the form). */
export interface RequestKey {
  userId: string;
  key: string;
  action: string;
  target: string;
}

/** The request's Idempotency-Key, when it sends one; 400 request.idempotency_key_invalid when malformed. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const v = request.headers['idempotency-key'];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(v)) throw new AppError(400, 'request.idempotency_key_invalid');
  return v;
}

/** A digest of what a request carries (a form's fields and files): a key sent again with other content is another action. */
export function requestTarget(fields: Readonly<Record<string, unknown>>, files: readonly Buffer[]): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  for (const f of files) h.update(createHash('sha256').update(f).digest());
  return h.digest('base64url');
}

const cutoff = (now: Date) => new Date(now.getTime() - REQUEST_KEY_TTL_MS).toISOString();

/**
 * The stored answer of a key already done (read in the caller's transaction, which then does
 * nothing), or null. 422 request.idempotency_key_reused when the key was done for another action
 * or target: answering that one's answer would tell the client its action happened.
 */
export async function answered<T>(db: Executor, k: RequestKey, now: Date): Promise<{ status: number; body: T } | null> {
  const row = await db
    .selectFrom('request_keys')
    .select(['action', 'target', 'status', 'answer_json', 'created_at'])
    .where('user_id', '=', k.userId)
    .where('key', '=', k.key)
    .executeTakeFirst();
  if (!row || row.created_at <= cutoff(now)) return null;
  if (row.action !== k.action || row.target !== k.target) throw new AppError(422, 'request.idempotency_key_reused');
  return { status: row.status, body: JSON.parse(row.answer_json) as T };
}

/** Stores a key's answer, in the transaction that acted; deletes a few rows past their day on the way. */
export async function remember(db: Executor, k: RequestKey, status: number, body: unknown, now: Date): Promise<void> {
  const before = cutoff(now);
  await sql`DELETE FROM request_keys WHERE rowid IN (SELECT rowid FROM request_keys WHERE created_at <= ${before} ORDER BY created_at LIMIT ${PURGE_PER_WRITE})`.execute(
    db,
  );
  // A row of the same key past its day (not answered any more) is replaced.
  await db
    .insertInto('request_keys')
    .values({ user_id: k.userId, key: k.key, action: k.action, target: k.target, status, answer_json: JSON.stringify(body), created_at: now.toISOString() })
    .onConflict((oc) =>
      oc.columns(['user_id', 'key']).doUpdateSet((eb) => ({
        action: eb.ref('excluded.action'),
        target: eb.ref('excluded.target'),
        status: eb.ref('excluded.status'),
        answer_json: eb.ref('excluded.answer_json'),
        created_at: eb.ref('excluded.created_at'),
      })),
    )
    .execute();
}

/**
 * Runs `act` in the caller's transaction once per key: a key already done answers its stored
 * answer and `act` does not run; else `act` runs and its answer is stored with the key (both commit
 * or neither does: a refused action stores nothing, and its retry acts). No key: `act` alone.
 */
export async function once<T>(db: Executor, k: RequestKey | null, status: number, now: Date, act: () => Promise<T>): Promise<T> {
  if (!k) return act();
  const done = await answered<T>(db, k, now);
  if (done) return done.body;
  const out = await act();
  await remember(db, k, status, out, now);
  return out;
}
