import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { StaffRole } from '../../core/schema.ts';
import { ERASED_EMAIL_DOMAIN } from '../../../contract/rules.ts';
import { eraseActor } from '../../core/audit.ts';
import { addressDigest } from '../../core/mailer.ts';
import { forgetWelcomeClaimant } from '../wallets/wallets.repository.ts';

export function findLiveUser(db: Executor, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

const ROLE_ORDER: StaffRole[] = ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'];

export async function rolesOf(db: Executor, userId: string): Promise<StaffRole[]> {
  const rows = await db.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute();
  return ROLE_ORDER.filter((r) => rows.some((x) => x.role === r));
}

/** Is this e-mail held by any account other than `exceptUserId` (case-insensitive, erased accounts hold placeholders)? */
export async function emailTaken(db: Executor, email: string, exceptUserId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The account other than `exceptUserId` that holds this e-mail (an erased one holds a placeholder and has deleted_at). */
export function findEmailHolder(db: Executor, email: string, exceptUserId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'nickname', 'locale', 'deleted_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
}

export async function updateUser(
  db: Executor,
  id: string,
  set: Partial<{ nickname: string; avatar: string | null; email: string; password_hash: string; updated_at: string }>,
  bumpToken = false,
): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ ...set, ...(bumpToken ? { token_version: eb('token_version', '+', 1) } : {}) }))
    .where('id', '=', id)
    .execute();
}

export async function insertEmailChange(db: Executor, c: { tokenHash: string; userId: string; newEmail: string; now: string }): Promise<void> {
  await db.insertInto('email_changes').values({ token_hash: c.tokenHash, user_id: c.userId, new_email: c.newEmail, created_at: c.now }).execute();
}

export function findEmailChange(db: Executor, tokenHash: string) {
  return db.selectFrom('email_changes').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Records the change as confirmed, with the address it replaced as a digest (mailer.ts
 * addressDigest): mail sent to that address may stay in the outbox, which an erasure clears by
 * every address the account had (namedInOutbox); the address itself is kept only under a legal
 * hold (held_identity).
 * The caller ends the user's other pending links next, in the same transaction (auth.repository.ts
 * endPendingLinks: a legal hold keeps their rows).
 */
export async function confirmEmailChange(db: Executor, tokenHash: string, now: string, oldEmail: string): Promise<void> {
  await db
    .updateTable('email_changes')
    .set({ confirmed_at: now, old_email_digest: addressDigest(oldEmail) })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/** Masters that can act: live and not suspended. */
export async function countActiveMasters(db: Executor): Promise<number> {
  const r = await db
    .selectFrom('user_roles')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_roles.role', '=', 'MASTER_USER')
    .where('users.deleted_at', 'is', null)
    .where('users.status', '!=', 'suspended')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// --- Account erasure -------------------------------------------------------------------------

/** Every upload path named anywhere in an ad's photos JSON (whatever shape the photo records take). */
export function uploadPathsIn(photosJson: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (/\.(webp|jpg|png)$/.test(v)) out.push(v.replace(/^\/uploads\//, ''));
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  try {
    walk(JSON.parse(photosJson));
  } catch {
    // A malformed record names no file; the row is deleted all the same.
  }
  return out;
}

/**
 * Whether a deleted ad was kept under a legal hold: the deletion copies a held ad to held_ads
 * before its row goes (beforeAdsOfUserDeleted, called first), and its edits are evidence too.
 */
const adKeptUnderHold = (adId: 'ad_revisions.ad_id' | 'ad_versions.ad_id' | 'ads.id') =>
  sql<boolean>`EXISTS (SELECT 1 FROM held_ads h WHERE h.id = ${sql.ref(adId)})`;

/**
 * Deletes the user's ads (photos are stored in the ad row). Returns their upload paths, and those
 * of the edits they had waiting for review (unless the ad was kept under a legal hold), to remove
 * from disk after commit. The edits themselves are closed by eraseUser or closeAccount, which the
 * deletion calls next in the same transaction.
 */
export async function deleteAdsOf(db: Executor, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('ads').select('photos_json').where('owner_id', '=', userId).execute();
  const edits = await db
    .selectFrom('ad_revisions')
    .innerJoin('ads', 'ads.id', 'ad_revisions.ad_id')
    .select('ad_revisions.photos_json')
    .where('ads.owner_id', '=', userId)
    .where('ad_revisions.status', '=', 'pending')
    .where(sql<boolean>`NOT ${adKeptUnderHold('ads.id')}`)
    .execute();
  await db.deleteFrom('ads').where('owner_id', '=', userId).execute();
  return [...rows, ...edits].flatMap((r) => uploadPathsIn(r.photos_json));
}

/**
 * The edits (ad_revisions) of the user's ads that are gone: one still waiting for review is closed
 * as deleteAd closes it ('superseded'), so the review queue neither counts nor offers it; and the
 * content of every one, and of every stored version, is erased with the ad, unless the ad was kept
 * under a legal hold, whose release erases it then (completeDeferredDeletions → eraseUser).
 */
async function closeEditsOfDeletedAds(db: Executor, userId: string, at: string): Promise<void> {
  const adGone = (adId: 'ad_revisions.ad_id' | 'ad_versions.ad_id') => sql<boolean>`NOT EXISTS (SELECT 1 FROM ads WHERE ads.id = ${sql.ref(adId)})`;
  await db
    .updateTable('ad_revisions')
    .set({ status: 'superseded', decided_at: at })
    .where('owner_id', '=', userId)
    .where(adGone('ad_revisions.ad_id'))
    .where('status', '=', 'pending')
    .execute();
  await db
    .updateTable('ad_revisions')
    .set({ title: '', description: '', age: '', phone: '', photos_json: '[]', rates_json: '[]', incall: 0, outcall: 0, availability_json: '{}' })
    .where('owner_id', '=', userId)
    .where(adGone('ad_revisions.ad_id'))
    .where(sql<boolean>`NOT ${adKeptUnderHold('ad_revisions.ad_id')}`)
    .execute();
  // The stored versions of those ads (their text, phone and photos) are personal data too.
  await db
    .updateTable('ad_versions')
    .set({ fields_json: '{}' })
    .where('owner_id', '=', userId)
    .where(adGone('ad_versions.ad_id'))
    .where(sql<boolean>`NOT ${adKeptUnderHold('ad_versions.ad_id')}`)
    .execute();
}

/**
 * Erases personal data (the edits of its deleted ads too); wallets and ledger rows stay (money
 * history is kept). Returns the addresses and phone numbers the account had, which the outbox
 * files written for it may name (mailer.ts forgetInOutbox, after commit).
 */
export async function eraseUser(db: Executor, id: string, placeholderHash: string, now: string): Promise<string[]> {
  const named = await namedInOutbox(db, id);
  const placeholder = `deleted-${id}@${ERASED_EMAIL_DOMAIN}`;
  await db
    .updateTable('users')
    .set((eb) => ({
      email: placeholder,
      nickname: 'deleted',
      avatar: null,
      phone: null,
      phone_verified_at: null,
      password_hash: placeholderHash,
      deleted_at: now,
      updated_at: now,
      token_version: eb('token_version', '+', 1),
    }))
    .where('id', '=', id)
    .execute();
  // The e-mails and nicknames a legal hold kept (held_identity) go with the account.
  await db.deleteFrom('held_identity').where('user_id', '=', id).execute();
  await db.deleteFrom('user_roles').where('user_id', '=', id).execute();
  // Its mailbox keeps the mark of its welcome code (a new account there gets no second), without its id.
  await forgetWelcomeClaimant(db, id);
  await db.deleteFrom('email_changes').where('user_id', '=', id).execute();
  // The answers kept for its retried requests (core/idempotency.ts) hold its ads' texts.
  await db.deleteFrom('request_keys').where('user_id', '=', id).execute();
  // The numbers the account verified or tried: its phone codes go; the SMS log keeps its delivery
  // rows for staff (the quota spent) with the number cut to its last two digits and no account.
  await db.deleteFrom('phone_codes').where('user_id', '=', id).execute();
  // Where and on what it signed in goes too (kept only under a legal hold: closeAccount); the ad
  // texts screening refused stay for staff (who tried to post what), without the address.
  await db.deleteFrom('sign_ins').where('user_id', '=', id).execute();
  await db.updateTable('screening_log').set({ ip: null }).where('user_id', '=', id).execute();
  await db
    .updateTable('sms_messages')
    .set({ user_id: null, to_phone: sql<string>`'•••' || substr(to_phone, -2)` })
    .where('user_id', '=', id)
    .where('purpose', '=', 'verification')
    .execute();
  await closeEditsOfDeletedAds(db, id, now);
  await eraseFromAudit(db, id);
  // What a staff member did as staff keeps who did it (core/audit.ts eraseActor): the audit rows,
  // and the legal holds they placed or released, as the holds' audit rows name them anyway.
  await eraseActor(db, id, placeholder);
  return named;
}

/**
 * What the outbox files written for the account may name (the outbox is where mail and texts go
 * without SMTP_URL or a Textbelt key): its address, first, then the addresses it asked to change
 * to, the digests of those its confirmed changes replaced (kept as long as the outbox keeps mail:
 * purge-email-changes)
 * and those a legal hold kept, and the numbers it verified or tried.
 */
async function namedInOutbox(db: Executor, id: string): Promise<string[]> {
  const user = await db.selectFrom('users').select(['email', 'phone']).where('id', '=', id).executeTakeFirstOrThrow();
  const changes = await db.selectFrom('email_changes').select(['new_email', 'old_email_digest']).where('user_id', '=', id).execute();
  const held = await db.selectFrom('held_identity').select(['old_value', 'new_value']).where('user_id', '=', id).where('field', '=', 'email').execute();
  const codes = await db.selectFrom('phone_codes').select('phone').where('user_id', '=', id).execute();
  const texts = await db.selectFrom('sms_messages').select('to_phone').where('user_id', '=', id).where('purpose', '=', 'verification').execute();
  return [
    ...new Set([
      user.email,
      // new_email is empty once an unconfirmed change has ended (auth.repository.ts forgetAskedAddresses).
      ...changes.flatMap((c) => [c.new_email, c.old_email_digest ?? '']).filter((a) => a !== ''),
      ...held.flatMap((h) => [h.old_value, h.new_value]),
      ...(user.phone ? [user.phone] : []),
      ...codes.map((c) => c.phone),
      ...texts.map((t) => t.to_phone),
    ]),
  ];
}

/**
 * The personal fields an audit snapshot may hold of an account or of its ads (writeAudit calls:
 * a user.create row's e-mail, the titles of an ad's edits staff decided); names only, never ids,
 * statuses, reasons or who acted.
 */
const PERSONAL_AUDIT_FIELDS = ['$.email', '$.phone', '$.nickname', '$.title', '$.description', '$.age'];

/**
 * The audit rows about the account and about its ads keep what happened, who acted and when,
 * without the account's personal data. Ads kept under a legal hold are left alone (their release
 * erases the account then); deleted ads are known by their edits and stored versions.
 */
async function eraseFromAudit(db: Executor, id: string): Promise<void> {
  const fields = sql.join(PERSONAL_AUDIT_FIELDS);
  await sql`
    UPDATE audit_log SET before_json = json_remove(before_json, ${fields}), after_json = json_remove(after_json, ${fields})
    WHERE (target_type = 'user' AND target_id = ${id})
      OR (target_type = 'ad'
        AND target_id IN (
          SELECT id FROM ads WHERE owner_id = ${id}
          UNION SELECT ad_id FROM ad_revisions WHERE owner_id = ${id}
          UNION SELECT ad_id FROM ad_versions WHERE owner_id = ${id})
        AND target_id NOT IN (SELECT id FROM held_ads))`.execute(db);
}

/**
 * Closes an account under a legal hold instead of erasing it: signed out for good, no password
 * that can match, no roles; its personal data stays (evidence) until the hold is released, which
 * erases it then (moderation.holds.ts completeDeferredDeletions). Returns its avatar's path, if any
 * (a file the hold keeps).
 */
export async function closeAccount(db: Executor, id: string, placeholderHash: string, now: string): Promise<string | null> {
  const closed = await db
    .updateTable('users')
    .set((eb) => ({ password_hash: placeholderHash, deleted_at: now, updated_at: now, token_version: eb('token_version', '+', 1) }))
    .where('id', '=', id)
    .returning('avatar')
    .executeTakeFirst();
  await db.deleteFrom('user_roles').where('user_id', '=', id).execute();
  await closeEditsOfDeletedAds(db, id, now);
  return closed?.avatar ?? null;
}
