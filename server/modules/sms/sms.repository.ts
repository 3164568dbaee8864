import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import { heldUserIds } from '../moderation/moderation.holds.ts';
import type { SmsPurpose, SmsStatusValue } from './sms.tables.ts';

// The sms module's SQL. It owns textbelt_tokens, sms_messages, phone_codes, phone_texts, and the verified
// phone of an account (users.phone, users.phone_verified_at), written only by a confirmed code.

// ---- the Textbelt key ----

export function findToken(db: Executor, id: number) {
  return db.selectFrom('textbelt_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The one key record (the migration made it); its id is what the seed's routes name. */
export function currentToken(db: Executor) {
  return db.selectFrom('textbelt_tokens').selectAll().orderBy('id').limit(1).executeTakeFirst();
}

export async function setToken(db: Executor, id: number, t: { token: string | null; at: string; by: string }): Promise<void> {
  await db.updateTable('textbelt_tokens').set({ token: t.token, updated_at: t.at, updated_by: t.by }).where('id', '=', id).execute();
}

// ---- messages ----

export async function insertMessage(
  db: Executor,
  m: {
    to: string;
    body: string;
    purpose: SmsPurpose;
    userId: string | null;
    status: SmsStatusValue;
    textId: string | null;
    error: string | null;
    quotaRemaining: number | null;
    at: string;
  },
): Promise<number> {
  const r = await db
    .insertInto('sms_messages')
    .values({
      to_phone: m.to,
      body: m.body,
      purpose: m.purpose,
      user_id: m.userId,
      status: m.status,
      text_id: m.textId,
      error: m.error,
      quota_remaining: m.quotaRemaining,
      created_at: m.at,
    })
    .executeTakeFirstOrThrow();
  return Number(r.insertId);
}

export function findMessage(db: Executor, id: number) {
  return db.selectFrom('sms_messages').selectAll().where('id', '=', id).executeTakeFirst();
}
export type MessageRow = NonNullable<Awaited<ReturnType<typeof findMessage>>>;

export async function listMessages(db: Executor, o: { offset: number; limit: number }) {
  const [rows, total] = await Promise.all([
    db.selectFrom('sms_messages').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(o.limit).offset(o.offset).execute(),
    db
      .selectFrom('sms_messages')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/**
 * Messages Textbelt took whose delivery is not settled yet (delivered and failed are final): the
 * never asked first, then the longest unasked, the newest first among equals. (Many stay "sent" for
 * good, carriers without receipts: newest first alone asked about the same ones every time.)
 */
export function messagesUnderWay(db: Executor, since: string, limit: number) {
  return db
    .selectFrom('sms_messages')
    .select(['id', 'text_id', 'status'])
    .where('text_id', 'is not', null)
    .where('status', 'in', ['accepted', 'sending', 'sent', 'unknown'])
    .where('created_at', '>', since)
    .orderBy(sql`status_checked_at IS NOT NULL`)
    .orderBy('status_checked_at')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function setMessageStatus(db: Executor, id: number, status: SmsStatusValue, at: string): Promise<void> {
  await db.updateTable('sms_messages').set({ status, status_checked_at: at }).where('id', '=', id).execute();
}

// ---- accounts ----

export function findLiveUser(db: Executor, id: string) {
  return db.selectFrom('users').select(['id', 'phone', 'phone_verified_at', 'locale']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function setVerifiedPhone(db: Executor, userId: string, phone: string, at: string): Promise<void> {
  await db.updateTable('users').set({ phone, phone_verified_at: at, updated_at: at }).where('id', '=', userId).execute();
}

// ---- verification codes ----

/** How many codes this user asked for since `since`, and when the oldest of them was. */
export async function codesSince(db: Executor, o: { userId: string; since: string }) {
  const r = await db
    .selectFrom('phone_codes')
    .select([sql<number>`count(*)`.as('n'), sql<string | null>`min(created_at)`.as('oldest')])
    .where('user_id', '=', o.userId)
    .where('created_at', '>', o.since)
    .executeTakeFirstOrThrow();
  return { n: Number(r.n), oldest: r.oldest };
}

/** Ends the user's open codes older than `beforeId` (the code just texted supersedes them). */
export async function burnOpenCodes(db: Executor, userId: string, at: string, beforeId: number): Promise<void> {
  await db
    .updateTable('phone_codes')
    .set({ burned_at: at })
    .where('user_id', '=', userId)
    .where('id', '<', beforeId)
    .where('used_at', 'is', null)
    .where('burned_at', 'is', null)
    .execute();
}

export async function insertCode(db: Executor, c: { userId: string; phone: string; codeHash: string; at: string; expiresAt: string }): Promise<number> {
  const r = await db
    .insertInto('phone_codes')
    .values({ user_id: c.userId, phone: c.phone, code_hash: c.codeHash, created_at: c.at, expires_at: c.expiresAt })
    .executeTakeFirstOrThrow();
  return Number(r.insertId);
}

/** A code whose text could not be sent: it was never the user's, and does not count against the limits. */
export async function deleteCode(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('phone_codes').where('id', '=', id).execute();
}

// ---- texts sent, per number (keyed hash) ----

/** How many verification texts went to the number of `phoneKey` since `since`, and when the oldest of them did. */
export async function textsSince(db: Executor, phoneKey: string, since: string) {
  const r = await db
    .selectFrom('phone_texts')
    .select([sql<number>`count(*)`.as('n'), sql<string | null>`min(sent_at)`.as('oldest')])
    .where('phone_key', '=', phoneKey)
    .where('sent_at', '>', since)
    .executeTakeFirstOrThrow();
  return { n: Number(r.n), oldest: r.oldest };
}

export async function insertText(db: Executor, phoneKey: string, at: string): Promise<number> {
  const r = await db.insertInto('phone_texts').values({ phone_key: phoneKey, sent_at: at }).executeTakeFirstOrThrow();
  return Number(r.insertId);
}

/** A text that was not sent: it does not count against the number's hour. */
export async function deleteText(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('phone_texts').where('id', '=', id).execute();
}

/** The user's latest code, whatever its state (only the latest can ever be confirmed). */
export function latestCode(db: Executor, userId: string) {
  return db.selectFrom('phone_codes').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export async function recordWrongTry(db: Executor, id: number, attempts: number, burnedAt: string | null): Promise<void> {
  await db.updateTable('phone_codes').set({ attempts, burned_at: burnedAt }).where('id', '=', id).execute();
}

export async function markCodeUsed(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('phone_codes').set({ used_at: at }).where('id', '=', id).execute();
}

// ---- retention ----

/** Deletes codes that ended (expired) before `before`, except those of an account under a legal hold. */
export async function purgeCodes(db: Executor, before: string): Promise<number> {
  const r = await db.deleteFrom('phone_codes').where('expires_at', '<', before).where('user_id', 'not in', heldUserIds(db)).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Deletes the texts-per-number rows sent before `before` (no account, no number in clear: no legal hold to keep). */
export async function purgeTexts(db: Executor, before: string): Promise<number> {
  const r = await db.deleteFrom('phone_texts').where('sent_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Deletes messages sent before `before` (staff tests too), except those to an account under a legal hold. */
export async function purgeMessages(db: Executor, before: string): Promise<number> {
  const r = await db
    .deleteFrom('sms_messages')
    .where('created_at', '<', before)
    // a staff test message names no account: NOT IN alone would keep it (NULL)
    .where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', 'not in', heldUserIds(db))]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
