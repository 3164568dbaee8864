import { randomInt } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { composeMail, pageLink, utcMoment } from '../../core/mail-templates.ts';
import type { Executor } from '../../core/db.ts';
import { transactionAs, type SessionUser } from '../../core/auth.ts';
import { Conflict, Invalid, NotFound, ServiceUnavailable } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { WindowLimiter } from '../../core/ratelimit.ts';
import { DAY_MS } from '../../core/clock.ts';
import type { WalletType } from '../../core/schema.ts';
import { RULE_CODES, checkPromoCode } from '../../../contract/rules.ts';
import type { Wallet } from '../../../contract/api/wallets.ts';
import { formatUsd } from '../../../contract/amount.ts';
import { postToLedger } from './ledger.service.ts';
import { can } from './wallets.policy.ts';
import * as repo from './wallets.repository.ts';

export const PROMO_WALLET: WalletType = 'XG-PROMO-WALLET';
/** The seed's "20": a welcome code is worth $20.00. */
export const WELCOME_PROMO_CENTS = 2000;
const WELCOME_PROMO_DAYS = 30;
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

export class WalletsService {
  private readonly deps: AppDeps;
  // Guessing codes should be slow: 30 tries per hour per user.
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

  /** Credits a promo code to the user's promo wallet: once per user, within max uses, before expiry. */
  async redeem(actor: SessionUser, rawCode: string): Promise<WalletDto> {
    const userId = actor.id;
    const code = normalizePromoCode(rawCode);
    if (checkPromoCode(code)) throw new Invalid('code', RULE_CODES.promoCodeInvalid);
    this.redeemLimiter.hit([`user:${userId}`], 'wallet.too_many_promo_attempts');
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
   * E-mails the user a one-time personal welcome code ($20, one use, 30 days), once per user.
   * If the mail cannot be sent the code is withdrawn and the user may ask again.
   */
  async emailWelcomeCode(user: SessionUser): Promise<{ sent: true; email: string }> {
    const at = this.deps.clock.now();
    // It works to the end of the thirtieth day (UTC), the day its e-mail names, as a promo code
    // staff give a day only does.
    const lastDay = new Date(at.getTime() + WELCOME_PROMO_DAYS * DAY_MS).toISOString().slice(0, 10);
    const expiresAt = `${lastDay}T23:59:59.999Z`;
    const codeId = newId();
    let code = '';
    await transactionAs(this.deps.db, user, async (trx) => {
      // suspended or signed out while this waited: 401, no code
      if (!(await repo.markWelcomeSent(trx, user.id, at.toISOString()))) throw new Conflict('wallet.welcome_code_already_sent');
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
        return true;
      });
      if (withdrawn) throw new ServiceUnavailable('wallet.welcome_email_failed');
    }
    return { sent: true, email: user.email };
  }
}
