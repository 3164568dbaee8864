import { sql } from 'kysely';
import type { Executor } from '../../core/db.ts';
import type { WalletType } from '../../core/schema.ts';

export function listWallets(db: Executor, userId: string) {
  return (
    db
      .selectFrom('wallets')
      .selectAll()
      .where('user_id', '=', userId)
      // USD first, then the promo wallet
      .orderBy(sql`wallet_type = 'USD'`, 'desc')
      .execute()
  );
}

export function findWallet(db: Executor, walletId: string) {
  return db.selectFrom('wallets').selectAll().where('id', '=', walletId).executeTakeFirst();
}

export function findWalletByType(db: Executor, userId: string, walletType: WalletType) {
  return db.selectFrom('wallets').selectAll().where('user_id', '=', userId).where('wallet_type', '=', walletType).executeTakeFirst();
}

/** Inserts the wallet unless the user already has one of this type (UNIQUE (user_id, wallet_type)). */
export async function insertWalletIfMissing(db: Executor, w: { id: string; userId: string; walletType: WalletType; at: string }): Promise<void> {
  await db
    .insertInto('wallets')
    .values({ id: w.id, user_id: w.userId, wallet_type: w.walletType, created_at: w.at })
    .onConflict((oc) => oc.columns(['user_id', 'wallet_type']).doNothing())
    .execute();
}

export function findPromoCode(db: Executor, code: string) {
  return db.selectFrom('promo_codes').selectAll().where('code', '=', code).executeTakeFirst();
}

export function findPromoCodeById(db: Executor, id: string) {
  return db.selectFrom('promo_codes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function hasRedeemed(db: Executor, codeId: string, userId: string): Promise<boolean> {
  const r = await db.selectFrom('promo_redemptions').select('code_id').where('code_id', '=', codeId).where('user_id', '=', userId).executeTakeFirst();
  return !!r;
}

/** Takes one use of the code when one is left; false when it is used up. */
export async function takePromoUse(db: Executor, codeId: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('promo_codes')
    .set({ uses: sql<number>`uses + 1`, updated_at: at })
    .where('id', '=', codeId)
    .where(sql<boolean>`uses < max_uses`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertRedemption(db: Executor, r: { codeId: string; userId: string; walletId: string; amountCents: number; at: string }) {
  await db
    .insertInto('promo_redemptions')
    .values({ code_id: r.codeId, user_id: r.userId, wallet_id: r.walletId, amount_cents: r.amountCents, created_at: r.at })
    .execute();
}

/** Marks the welcome code as sent; false when it was sent before (the once-per-user guard). */
export async function markWelcomeSent(db: Executor, userId: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ welcome_promo_sent_at: at })
    .where('id', '=', userId)
    .where('welcome_promo_sent_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function unmarkWelcomeSent(db: Executor, userId: string): Promise<void> {
  await db.updateTable('users').set({ welcome_promo_sent_at: null }).where('id', '=', userId).execute();
}

export async function insertPromoCode(
  db: Executor,
  p: {
    id: string;
    code: string;
    amountCents: number;
    maxUses: number;
    expiresAt: string | null;
    active: boolean;
    ownerUserId: string | null;
    /** The staff member who made it (null: the system). */
    createdBy: string | null;
    at: string;
  },
): Promise<void> {
  await db
    .insertInto('promo_codes')
    .values({
      id: p.id,
      code: p.code,
      amount_cents: p.amountCents,
      max_uses: p.maxUses,
      expires_at: p.expiresAt,
      active: p.active ? 1 : 0,
      owner_user_id: p.ownerUserId,
      created_by: p.createdBy,
      created_at: p.at,
      updated_at: p.at,
    })
    .execute();
}

/** Deletes a code nobody has used yet; false when it was used (or is gone). */
export async function deleteUnusedPromoCode(db: Executor, id: string): Promise<boolean> {
  const r = await db.deleteFrom('promo_codes').where('id', '=', id).where('uses', '=', 0).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** The claims (mailbox or account) nobody marked sent since `before`: their process died on the way. */
export function staleWelcomeClaims(db: Executor, mailbox: string, userId: string, before: string) {
  return db
    .selectFrom('welcome_given')
    .selectAll()
    .where((eb) => eb.or([eb('mailbox', '=', mailbox), eb('user_id', '=', userId)]))
    .where('sent_at', 'is', null)
    .where('claimed_at', '<=', before)
    .execute();
}

/** The mailbox's row, or the account's claim still on its way (a new address since the claim). */
export function findWelcomeGiven(db: Executor, mailbox: string, userId: string) {
  return db
    .selectFrom('welcome_given')
    .selectAll()
    .where((eb) => eb.or([eb('mailbox', '=', mailbox), eb.and([eb('user_id', '=', userId), eb('sent_at', 'is', null)])]))
    .executeTakeFirst();
}

/** Claims the mailbox; false when it has a row (sent, or a claim on its way). */
export async function claimWelcome(db: Executor, c: { mailbox: string; userId: string; codeId: string; at: string }): Promise<boolean> {
  const r = await db
    .insertInto('welcome_given')
    .values({ mailbox: c.mailbox, user_id: c.userId, code_id: c.codeId, claimed_at: c.at, sent_at: null })
    .onConflict((oc) => oc.column('mailbox').doNothing())
    .returning('mailbox')
    .executeTakeFirst();
  return r !== undefined;
}

/** Records that the claim's e-mail went (or, its code used, that it arrived). */
export async function markWelcomeMailed(db: Executor, mailbox: string, codeId: string, at: string): Promise<void> {
  await db.updateTable('welcome_given').set({ sent_at: at }).where('mailbox', '=', mailbox).where('code_id', '=', codeId).execute();
}

/** Gives a claim up (its e-mail never left), for the next request. */
export async function releaseWelcomeClaim(db: Executor, mailbox: string, codeId: string | null): Promise<void> {
  await db
    .deleteFrom('welcome_given')
    .where('mailbox', '=', mailbox)
    .where((eb) => (codeId === null ? eb('code_id', 'is', null) : eb('code_id', '=', codeId)))
    .where('sent_at', 'is', null)
    .execute();
}

/** The accounts sent a code before 0042 whose mailboxes are not hashed yet, with their addresses. */
export function welcomeBackfill(db: Executor) {
  return db
    .selectFrom('welcome_given_backfill as b')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .select(['b.user_id', 'u.email', 'u.welcome_promo_sent_at', 'u.deleted_at'])
    .execute();
}

/** Records an account's mailbox as given its code before 0042 (the first account of a mailbox wins), and drops it from the backfill. */
export async function backfillWelcomeGiven(db: Executor, r: { mailbox: string | null; userId: string; sentAt: string }): Promise<void> {
  if (r.mailbox !== null)
    await db
      .insertInto('welcome_given')
      .values({ mailbox: r.mailbox, user_id: r.userId, code_id: null, claimed_at: r.sentAt, sent_at: r.sentAt })
      .onConflict((oc) => oc.column('mailbox').doNothing())
      .execute();
  await db.deleteFrom('welcome_given_backfill').where('user_id', '=', r.userId).execute();
}

/** An erased account's claims stay (its mailbox keeps its mark), without its id. */
export async function forgetWelcomeClaimant(db: Executor, userId: string): Promise<void> {
  await db.updateTable('welcome_given').set({ user_id: null }).where('user_id', '=', userId).execute();
}
