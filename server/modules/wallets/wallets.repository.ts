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

/** The account's welcome code claim when nobody marked it sent since `before`: its process died on the way. */
export function staleWelcomeClaim(db: Executor, userId: string, before: string) {
  return db
    .selectFrom('welcome_claims')
    .selectAll()
    .where('user_id', '=', userId)
    .where('sent_at', 'is', null)
    .where('claimed_at', '<=', before)
    .executeTakeFirst();
}

export function findWelcomeClaim(db: Executor, userId: string) {
  return db.selectFrom('welcome_claims').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The mailbox a welcome code was mailed to; undefined for a code mailed before 0042. */
export async function welcomeCodeMailbox(db: Executor, codeId: string): Promise<string | undefined> {
  const r = await db.selectFrom('welcome_claims').select('mailbox').where('code_id', '=', codeId).executeTakeFirst();
  return r?.mailbox;
}

/** Claims the account's welcome code; false when it has a claim (sent, or on its way). */
export async function claimWelcome(db: Executor, c: { userId: string; codeId: string; mailbox: string; at: string }): Promise<boolean> {
  const r = await db
    .insertInto('welcome_claims')
    .values({ user_id: c.userId, code_id: c.codeId, mailbox: c.mailbox, claimed_at: c.at, sent_at: null })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return r !== undefined;
}

/** Records that the claim's e-mail went (or, its code used, that it arrived). */
export async function markWelcomeMailed(db: Executor, userId: string, codeId: string, at: string): Promise<void> {
  await db.updateTable('welcome_claims').set({ sent_at: at }).where('user_id', '=', userId).where('code_id', '=', codeId).execute();
}

/** Gives a claim up (its e-mail never left), for the next request. */
export async function releaseWelcomeClaim(db: Executor, userId: string, codeId: string): Promise<void> {
  await db.deleteFrom('welcome_claims').where('user_id', '=', userId).where('code_id', '=', codeId).where('sent_at', 'is', null).execute();
}

/** Has the mailbox had its welcome credit? */
export async function welcomeGiven(db: Executor, mailbox: string): Promise<boolean> {
  return (await db.selectFrom('welcome_given').select('mailbox').where('mailbox', '=', mailbox).executeTakeFirst()) !== undefined;
}

/**
 * Records the mailbox's welcome credit; false when it had one. The primary key decides, so two
 * redemptions for one inbox at once (two processes) credit one.
 */
export async function giveWelcome(db: Executor, g: { mailbox: string; userId: string; codeId: string; at: string }): Promise<boolean> {
  const r = await db
    .insertInto('welcome_given')
    .values({ mailbox: g.mailbox, user_id: g.userId, code_id: g.codeId, given_at: g.at })
    .onConflict((oc) => oc.column('mailbox').doNothing())
    .returning('mailbox')
    .executeTakeFirst();
  return r !== undefined;
}

/** The accounts holding their welcome code from before 0048 whose mailboxes are not hashed yet, with their addresses. */
export function welcomeBackfill(db: Executor) {
  return db
    .selectFrom('welcome_given_backfill as b')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .select(['b.user_id', 'b.code_id', 'b.given_at', 'u.email'])
    .execute();
}

/**
 * Records an account's welcome code from before 0048 and drops it from the backfill: redeemed, its
 * mailbox is given its credit (the first account of a mailbox wins); not yet, it gets its claim, as
 * sent, on that mailbox (unless it has one). A null mailbox (an erased account) records nothing.
 */
export async function backfillWelcomeGiven(
  db: Executor,
  r: { mailbox: string | null; userId: string; codeId: string; givenAt: string | null; at: string },
): Promise<void> {
  if (r.mailbox !== null && r.givenAt !== null) await giveWelcome(db, { mailbox: r.mailbox, userId: r.userId, codeId: r.codeId, at: r.givenAt });
  else if (r.mailbox !== null && (await claimWelcome(db, { userId: r.userId, codeId: r.codeId, mailbox: r.mailbox, at: r.at })))
    await markWelcomeMailed(db, r.userId, r.codeId, r.at);
  await db.deleteFrom('welcome_given_backfill').where('user_id', '=', r.userId).execute();
}

/** An erased account: its mailbox keeps the mark of its welcome credit, without its id; its claim goes with it. */
export async function forgetWelcomeClaimant(db: Executor, userId: string): Promise<void> {
  await db.updateTable('welcome_given').set({ user_id: null }).where('user_id', '=', userId).execute();
  await db.deleteFrom('welcome_claims').where('user_id', '=', userId).execute();
}
