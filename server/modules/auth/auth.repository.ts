import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from '../../core/db.ts';
import { ipKey } from '../../core/ratelimit.ts';
import type { DB, StaffRole, UserStatus } from '../../core/schema.ts';
import { addressDigest } from '../../core/mailer.ts';

export function findUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The live account as a sign-in checked it: read again where the sign-in is recorded (AuthService.login). */
export function findLiveUserById(db: Executor, id: string) {
  return db.selectFrom('users').select(['password_hash', 'token_version', 'status']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function insertUser(
  db: Executor,
  u: { id: string; email: string; passwordHash: string; nickname: string; status: UserStatus; roles: StaffRole[]; now: string },
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: u.id,
      email: u.email,
      password_hash: u.passwordHash,
      nickname: u.nickname,
      status: u.status,
      approved_at: u.status === 'approved' ? u.now : null,
      created_at: u.now,
      updated_at: u.now,
    })
    .execute();
  await db
    .insertInto('user_roles')
    .values(u.roles.map((role) => ({ user_id: u.id, role })))
    .execute();
}

export async function insertWallet(db: Executor, w: { id: string; userId: string; walletType: 'USD' | 'XG-PROMO-WALLET'; now: string }) {
  await db.insertInto('wallets').values({ id: w.id, user_id: w.userId, wallet_type: w.walletType, created_at: w.now }).execute();
}

export async function bumpTokenVersion(db: Executor, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
    .where('id', '=', userId)
    .execute();
}

/**
 * One sign-in of an existing account: successful, or refused (wrong password, suspended). Kept 180
 * days (moderation.jobs.ts). With its network (ipKey: an IPv6 /64 is one subscriber), which relates accounts.
 */
export async function recordSignIn(
  db: Executor,
  s: { userId: string; ip: string; userAgent: string | null; at: string; failure?: 'wrong_password' | 'suspended' },
) {
  await db
    .insertInto('sign_ins')
    .values({
      user_id: s.userId,
      ip: s.ip,
      ip_key: ipKey(s.ip),
      user_agent: s.userAgent?.slice(0, 300) ?? null,
      at: s.at,
      success: s.failure ? 0 : 1,
      failure: s.failure ?? null,
    })
    .execute();
}

/** The addresses the account with this e-mail signed in from successfully within `withinMs`, the latest 200. */
export async function recentSignInIps(db: Executor, email: string, withinMs: number, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('sign_ins')
    .innerJoin('users', 'users.id', 'sign_ins.user_id')
    .select('sign_ins.ip')
    .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email.toLowerCase()))
    .where('users.deleted_at', 'is', null)
    .where('sign_ins.success', '=', 1)
    .where('sign_ins.at', '>', new Date(now.getTime() - withinMs).toISOString())
    .orderBy('sign_ins.at', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => r.ip);
}

export async function countMasters(db: Executor): Promise<number> {
  const r = await db
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'MASTER_USER')
    .where('users.deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function setLocale(db: Executor, userId: string, locale: 'en' | 'es' | 'pt'): Promise<void> {
  await db.updateTable('users').set({ locale }).where('id', '=', userId).where('locale', '<>', locale).execute();
}

/** A new reset token for the user; older unused ones stop working (only the latest link counts). */
export async function insertPasswordReset(db: Executor, r: { tokenHash: string; userId: string; at: string; expiresAt: string }): Promise<void> {
  await endLinks(db, 'password_resets', r.userId);
  await db.insertInto('password_resets').values({ token_hash: r.tokenHash, user_id: r.userId, created_at: r.at, expires_at: r.expiresAt }).execute();
}

/** Uses a reset token once: the user it belongs to, or undefined when it is unknown, used or expired. */
export async function takePasswordReset(db: Executor, tokenHash: string, now: string): Promise<string | undefined> {
  const r = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return r?.user_id;
}

export async function setPassword(db: Executor, userId: string, passwordHash: string, at: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ password_hash: passwordHash, updated_at: at, token_version: eb('token_version', '+', 1) }))
    .where('id', '=', userId)
    .execute();
  await endPendingLinks(db, userId);
}

/**
 * The same password's hash remade (core/passwords.ts verifyPassword: of its NFC form): no session
 * ends and no link stops working, as the password did not change. Only over the hash that was
 * checked: a password changed meanwhile is never put back. Whether it was stored (not when another
 * request changed the hash first).
 */
export async function rehashPassword(db: Executor, userId: string, checkedHash: string, passwordHash: string): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', userId)
    .where('password_hash', '=', checkedHash)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/**
 * The account's password or e-mail changed: every link mailed before stops working. An unused
 * reset link (it may sit in a mailbox the owner just moved away from, or have been asked for by
 * whoever knew the old password) and an unconfirmed e-mail change (asked for with the old
 * password: confirmed later, it would hand the account to that address) are ended (endLinks).
 */
export async function endPendingLinks(db: Executor, userId: string): Promise<void> {
  await endLinks(db, 'password_resets', userId);
  await endLinks(db, 'email_changes', userId);
}

/** Marks the token hash of a link that was ended but kept: no token hashes to it (a SHA-256 is hex). */
const ENDED = 'ended:';

/**
 * Ends the account's unused links of one kind (reset links not used, e-mail changes not
 * confirmed): their rows are deleted, unless a legal hold is in force on the account or one of its
 * ads (moderation.holds.ts isUserHeld), which keeps every row of it (PRODUCT §5). Then the row
 * stays as it was (when, which address) with its token hash marked ENDED, so its link finds nothing.
 */
async function endLinks(db: Executor, table: 'password_resets' | 'email_changes', userId: string): Promise<void> {
  const unused = sql.ref(table === 'password_resets' ? 'used_at' : 'confirmed_at');
  const held = await db.selectFrom('legal_holds').select('id').where('user_id', '=', userId).where('released_at', 'is', null).limit(1).executeTakeFirst();
  if (held) {
    await sql`UPDATE ${sql.table(table)} SET token_hash = ${ENDED} || token_hash
      WHERE user_id = ${userId} AND ${unused} IS NULL AND token_hash NOT LIKE ${`${ENDED}%`}`.execute(db);
  } else if (table === 'email_changes') {
    await forgetAskedAddresses(db, (q) => q.where('user_id', '=', userId));
  } else {
    await sql`DELETE FROM ${sql.table(table)} WHERE user_id = ${userId} AND ${unused} IS NULL`.execute(db);
  }
}

/**
 * Ends unconfirmed e-mail changes (those `which` selects, of accounts under no hold) keeping
 * nothing of the address they asked for but its digest: the confirmation mail sent to it may sit
 * in DATA_DIR/outbox, which an erasure clears by every address the account was mailed at
 * (profile.repository.ts namedInOutbox reads old_email_digest: mailer.ts addressDigest). The row
 * stays, its link dead (ENDED) and new_email empty, until purge-email-changes deletes it with
 * the outbox's retention, as a confirmed change's. Returns how many were ended.
 */
export async function forgetAskedAddresses(
  db: Executor,
  which: (q: SelectQueryBuilder<DB, 'email_changes', object>) => SelectQueryBuilder<DB, 'email_changes', object>,
): Promise<number> {
  const rows = await which(db.selectFrom('email_changes'))
    .select(['token_hash', 'new_email'])
    .where('confirmed_at', 'is', null)
    .where('new_email', '!=', '')
    .execute();
  for (const r of rows) {
    // One ended under a legal hold since released keeps its mark: its address goes the same way.
    const ended = r.token_hash.startsWith(ENDED) ? r.token_hash : `${ENDED}${r.token_hash}`;
    await db
      .updateTable('email_changes')
      .set({ token_hash: ended, new_email: '', old_email_digest: addressDigest(r.new_email) })
      .where('token_hash', '=', r.token_hash)
      .execute();
  }
  return rows.length;
}
