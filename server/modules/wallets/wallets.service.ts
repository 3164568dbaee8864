import { createHmac, randomInt } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { composeMail, pageLink, utcMoment } from '../../core/mail-templates.ts';
import type { Executor } from '../../core/db.ts';
import { transactionAs, type SessionUser } from '../../core/auth.ts';
import { Conflict, Invalid, NotFound, ServiceUnavailable, TooManyRequests } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { ipKey, WindowLimiter } from '../../core/ratelimit.ts';
import { DAY_MS } from '../../core/clock.ts';
import type { WalletType } from '../../core/schema.ts';
import { ERASED_EMAIL_DOMAIN, RULE_CODES, canonicalMailbox, checkPromoCode } from '../../../contract/rules.ts';
import type { Wallet } from '../../../contract/api/wallets.ts';
import { formatUsd } from '../../../contract/amount.ts';
import { postToLedger } from './ledger.service.ts';
import { can } from './wallets.policy.ts';
import * as repo from './wallets.repository.ts';

export const PROMO_WALLET: WalletType = 'XG-PROMO-WALLET';
/** The seed's "20": a welcome code is worth $20.00. */
export const WELCOME_PROMO_CENTS = 2000;
const WELCOME_PROMO_DAYS = 30;
/**
 * A welcome code's claim (welcome_claims) never marked sent is taken over after this long: its
 * process died with the e-mail on its way. Sending takes at most 90 s (core/mailer.ts timeouts); a
 * live sender is not overtaken (as health.alerts.ts ALERT_CLAIM_MS).
 */
export const WELCOME_CLAIM_MS = 15 * 60_000;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O, 1/I: read aloud and typed by hand

/** A wallet as the API answers it (contract/api/wallets.ts WalletSchema). */
export type WalletDto = Wallet;

export const toWalletDto = (w: { id: string; wallet_type: WalletType; balance_cents: number }): WalletDto => ({
  id: w.id,
  walletType: w.wallet_type,
  amountCents: w.balance_cents,
  currency: 'USD',
});

/** The wallet, when the policy lets the actor use it; else 404 (another user's wallet id is "not found", not "forbidden"). */
export async function usableWallet(db: Executor, actor: SessionUser, walletId: string) {
  const w = await repo.findWallet(db, walletId);
  if (!w || !can(actor, 'use', { ownerId: w.user_id })) throw new NotFound('wallet.not_found');
  return w;
}

/** The user's promo wallet, created on first use. */
export async function ensurePromoWallet(trx: Executor, userId: string, at: string) {
  await repo.insertWalletIfMissing(trx, { id: newId(), userId, walletType: PROMO_WALLET, at });
  return (await repo.findWalletByType(trx, userId, PROMO_WALLET))!;
}

export function normalizePromoCode(code: string): string {
  return code.trim().toUpperCase();
}

/**
 * What welcome_given and welcome_claims keep of an address: a keyed hash of its canonical mailbox
 * (one per inbox, whatever alias), which outlives the account and says nothing without the server's secret.
 */
export function mailboxKey(secret: string, email: string): string {
  return createHmac('sha256', secret)
    .update(`welcome-mailbox\0${canonicalMailbox(email)}`)
    .digest('hex');
}

/**
 * Hashes the mailboxes of the accounts holding their welcome code from before 0048 (which listed
 * them in welcome_given_backfill: SQL has no secret): a redeemed one's mailbox is given its
 * credit, one not yet redeemed gets its claim on the address it has now (an e-mail change before
 * it is redeemed must not free the inbox it was mailed to); run at start, then nothing is left. The hashes are made first, then written BACKFILL_BATCH accounts a transaction:
 * one transaction over tens of thousands of accounts held the write lock for seconds, and another
 * server process's writes on the file failed meanwhile. A batch applied twice (a restart between
 * its write and the next) changes nothing: the mark is kept once, the row deleted by its key.
 */
export async function backfillWelcomeGiven(deps: Pick<AppDeps, 'db' | 'config' | 'clock'>): Promise<number> {
  const rows = (await repo.welcomeBackfill(deps.db)).map((r) => ({
    // An account erased since has only its placeholder left: nothing to keep. One closed under a
    // legal hold (deleted_at set) still has its address: its inbox keeps the mark.
    mailbox: r.email.endsWith(`@${ERASED_EMAIL_DOMAIN}`) ? null : mailboxKey(deps.config.jwtSecret, r.email),
    userId: r.user_id,
    codeId: r.code_id,
    givenAt: r.given_at,
    at: deps.clock.now().toISOString(),
  }));
  for (let i = 0; i < rows.length; i += BACKFILL_BATCH) {
    const batch = rows.slice(i, i + BACKFILL_BATCH);
    await deps.db.transaction().execute(async (trx) => {
      for (const r of batch) await repo.backfillWelcomeGiven(trx, r);
    });
    await new Promise((resolve) => setImmediate(resolve)); // the lock free between batches
  }
  return rows.length;
}
const BACKFILL_BATCH = 200;

export class WalletsService {
  private readonly deps: AppDeps;
  // Guessing codes should be slow: 30 tries per hour per user, and 30 failed ones per IP (one
  // person's many accounts; the many honest providers behind one carrier's NAT still redeem theirs).
  private readonly redeemLimiter: WindowLimiter;

  constructor(deps: AppDeps) {
    this.deps = deps;
    this.redeemLimiter = new WindowLimiter(deps.clock, 30, 60 * 60 * 1000);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  async list(userId: string): Promise<WalletDto[]> {
    return (await repo.listWallets(this.deps.db, userId)).map(toWalletDto);
  }

  async createPromoWallet(userId: string): Promise<WalletDto> {
    return toWalletDto(await this.deps.db.transaction().execute((trx) => ensurePromoWallet(trx, userId, this.now())));
  }

  /**
   * Credits a promo code to the user's promo wallet: once per user, within max uses, before expiry;
   * a welcome code once per mailbox (welcome_given).
   */
  async redeem(actor: SessionUser, rawCode: string, ip: string): Promise<WalletDto> {
    const userId = actor.id;
    const code = normalizePromoCode(rawCode);
    if (checkPromoCode(code)) throw new Invalid('code', RULE_CODES.promoCodeInvalid);
    const userKeys = [`user:${userId}`];
    const ipKeys = [`ip:${ipKey(ip)}`];
    if (this.redeemLimiter.full(userKeys)) throw new TooManyRequests('wallet.too_many_promo_attempts');
    // The address's limit stops guessing across accounts; a welcome code mailed to the redeemer is
    // no guess: one abuser burning the address's tries must not lock the honest providers behind
    // the same NAT out of their own credit.
    const ipFull = this.redeemLimiter.full(ipKeys);
    if (ipFull && (await repo.findPromoCode(this.deps.db, code))?.owner_user_id !== userId) throw new TooManyRequests('wallet.too_many_promo_attempts');
    // Counted before the outcome, so that guesses in flight at once are all counted.
    const keys = ipFull ? userKeys : [...userKeys, ...ipKeys];
    const counted = this.redeemLimiter.count(keys);
    const wallet = await this.credit(actor, code);
    // A code that was credited was no guess: the address's limit counts only the failed ones.
    if (!ipFull) this.redeemLimiter.uncount(ipKeys, counted);
    return wallet;
  }

  private credit(actor: SessionUser, code: string): Promise<WalletDto> {
    const userId = actor.id;
    const at = this.now();
    return transactionAs(this.deps.db, actor, async (trx, by) => {
      // suspended or signed out while this waited for the lock: nothing credited
      const promo = await repo.findPromoCode(trx, code);
      // Someone else's personal code is "not valid", exactly as an unknown one: it cannot be told apart.
      if (!promo || !can(by, 'redeem', { ownerId: promo.owner_user_id })) throw new Invalid('code', 'wallet.promo_code_not_valid');
      // A code the redeemer wrote (created or last edited, as staff) is known to them: said plainly.
      if (!can(by, 'redeem', { ownerId: promo.owner_user_id, authors: [promo.created_by, promo.updated_by] })) throw new Conflict('wallet.promo_code_own');
      if (!promo.active) throw new Invalid('code', 'wallet.promo_code_inactive');
      if (promo.expires_at !== null && promo.expires_at <= at) throw new Invalid('code', 'wallet.promo_code_expired');
      if (await repo.hasRedeemed(trx, promo.id, userId)) throw new Conflict('wallet.promo_code_already_used');
      // A personal code is a welcome code: redeeming it uses up the welcome credit of the mailbox it
      // was mailed to (a code mailed before 0042: the account's address), so of the codes mailed to
      // one inbox's aliases only the first redeemed is credited.
      if (promo.owner_user_id !== null) {
        const mailbox = (await repo.welcomeCodeMailbox(trx, promo.id)) ?? mailboxKey(this.deps.config.jwtSecret, by.email);
        if (!(await repo.giveWelcome(trx, { mailbox, userId, codeId: promo.id, at }))) throw new Conflict('wallet.welcome_credit_already_given');
      }
      if (!(await repo.takePromoUse(trx, promo.id, at))) throw new Conflict('wallet.promo_code_used_up');
      const wallet = await ensurePromoWallet(trx, userId, at);
      // The (code, user) primary key is the once-per-user guarantee; the check above only gives the nicer message.
      await repo.insertRedemption(trx, { codeId: promo.id, userId, walletId: wallet.id, amountCents: promo.amount_cents, at });
      await postToLedger(trx, {
        walletId: wallet.id,
        amountCents: promo.amount_cents,
        kind: 'promo_credit',
        reference: promo.id,
        idempotencyKey: `promo:${promo.id}:${userId}`,
        at,
      });
      return toWalletDto((await repo.findWallet(trx, wallet.id))!);
    });
  }

  /**
   * E-mails the user a one-time personal welcome code ($20, one use, 30 days): once per account, and
   * none to a mailbox whose welcome credit was redeemed (welcome_given: an erased account's address,
   * or another alias of the same inbox). The rule counts redemptions, not e-mails: nobody proves an
   * address is theirs, so a stranger may register an alias of someone's inbox and have a code mailed
   * there that only the stranger's account can use; that must not use up the inbox owner's credit.
   * An inbox may thus be mailed one code per account, and only the first redeemed is credited. The
   * account's code is claimed before the e-mail goes and marked sent after; if the mail cannot be
   * sent the code is withdrawn and the user may ask again, at once after a send that failed,
   * WELCOME_CLAIM_MS after a process that died on the way.
   */
  async emailWelcomeCode(user: SessionUser): Promise<{ sent: true; email: string }> {
    const at = this.deps.clock.now();
    // It works to the end of the thirtieth day (UTC), the day its e-mail names, as a promo code
    // staff give a day only does.
    const lastDay = new Date(at.getTime() + WELCOME_PROMO_DAYS * DAY_MS).toISOString().slice(0, 10);
    const expiresAt = `${lastDay}T23:59:59.999Z`;
    const mailbox = mailboxKey(this.deps.config.jwtSecret, user.email);
    const codeId = newId();
    let code = '';
    // Committed on its own: a refusal below must not undo what it found (a redeemed code's claim recorded as sent).
    const staleBefore = new Date(at.getTime() - WELCOME_CLAIM_MS).toISOString();
    await this.deps.db.transaction().execute((trx) => this.takeOverStaleClaim(trx, user.id, staleBefore));
    await transactionAs(this.deps.db, user, async (trx) => {
      // suspended or signed out while this waited: 401, no code
      const claimed =
        (await repo.markWelcomeSent(trx, user.id, at.toISOString())) &&
        (await repo.claimWelcome(trx, { userId: user.id, codeId, mailbox, at: at.toISOString() }));
      if (!claimed) {
        const claim = await repo.findWelcomeClaim(trx, user.id);
        throw new Conflict(claim && claim.sent_at === null ? 'wallet.welcome_code_on_its_way' : 'wallet.welcome_code_already_sent');
      }
      // Told before any e-mail: a code for this inbox could not be credited (redeem says so again,
      // for the codes of two alias accounts mailed before either was redeemed).
      if (await repo.welcomeGiven(trx, mailbox)) throw new Conflict('wallet.welcome_credit_already_given');
      for (let attempt = 0; ; attempt++) {
        code = `WELCOME-${Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('')}`;
        if (!(await repo.findPromoCode(trx, code))) break;
        if (attempt > 5) throw new Error('could not find a free welcome code');
      }
      await repo.insertPromoCode(trx, {
        id: codeId,
        code,
        amountCents: WELCOME_PROMO_CENTS,
        maxUses: 1,
        active: true,
        ownerUserId: user.id,
        createdBy: null, // made by the system at its owner's request: no staff author
        expiresAt,
        at: at.toISOString(),
      });
    });
    try {
      const { locale } = await this.deps.db.selectFrom('users').select('locale').where('id', '=', user.id).executeTakeFirstOrThrow();
      await this.deps.mailer.send(
        composeMail('welcomeCode', locale, user.email, {
          code,
          amount: formatUsd(WELCOME_PROMO_CENTS, locale),
          // its last moment, with its zone (a day alone reads as the reader's: it ends at 4 PM on it in Los Angeles)
          date: utcMoment(expiresAt, locale),
          link: pageLink(this.deps.config.publicUrl, locale, '/admin/dashboard/my-wallet'),
        }),
      );
    } catch (err) {
      this.deps.log.error({ err, userId: user.id }, 'could not e-mail the welcome promo code');
      // A code already redeemed did arrive (e.g. a timeout after the server took the message): it
      // stays, and so does the mark, or asking again would give the user a second $20.
      const withdrawn = await this.deps.db.transaction().execute(async (trx) => {
        if (!(await repo.deleteUnusedPromoCode(trx, codeId))) return false;
        await repo.unmarkWelcomeSent(trx, user.id);
        await repo.releaseWelcomeClaim(trx, user.id, codeId);
        return true;
      });
      if (withdrawn) throw new ServiceUnavailable('wallet.welcome_email_failed');
    }
    try {
      await repo.markWelcomeMailed(this.deps.db, user.id, codeId, this.now());
    } catch (err) {
      // The e-mail went: the code stays. Unmarked, the claim is taken over later (a second e-mail
      // with a new code, this one withdrawn if unused): never a second $20.
      this.deps.log.error({ err, userId: user.id }, 'could not record the welcome promo code as sent');
    }
    return { sent: true, email: user.email };
  }

  /**
   * Gives up the account's claim that nobody marked sent since `before` (its process died with the
   * e-mail on its way): the unused code goes and the account may ask again. A code that was
   * redeemed did arrive: its claim is recorded as sent.
   */
  private async takeOverStaleClaim(trx: Executor, userId: string, before: string): Promise<void> {
    const c = await repo.staleWelcomeClaim(trx, userId, before);
    if (!c) return;
    if (!(await repo.deleteUnusedPromoCode(trx, c.code_id)) && (await repo.findPromoCodeById(trx, c.code_id))) {
      await repo.markWelcomeMailed(trx, userId, c.code_id, c.claimed_at);
      return;
    }
    await repo.releaseWelcomeClaim(trx, userId, c.code_id);
    await repo.unmarkWelcomeSent(trx, userId);
  }
}
