import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { currentActor, type SessionUser } from '../../core/auth.ts';
import type { Executor } from '../../core/db.ts';
import { Conflict, Invalid, NotFound, ServiceUnavailable, TooManyRequests } from '../../core/errors.ts';
import { normalizeUsPhone } from '../../../contract/rules.ts';
import { can } from '../profile/profile.policy.ts';
import type { SmsService } from './sms.service.ts';
import * as repo from './sms.repository.ts';
import { HOUR_MS } from '../../core/clock.ts';
import { ipKey, waitMinutes, WindowLimiter } from '../../core/ratelimit.ts';

// Phone verification (PRODUCT §7, §11): a 6-digit code by text message, living 10 minutes; five
// wrong tries burn it; three codes an hour per user and per number. Only an HMAC of the code is
// stored (keyed with the server's secret, so the table alone does not give the codes away), and it
// is compared in constant time. The limits count stored rows inside the transaction that adds the
// code (BEGIN IMMEDIATE), so they hold across restarts and between two processes on one file: per
// user the codes, per number the texts sent (phone_texts, by a keyed hash of the number, kept when
// the account is erased: accounts are free to make and to delete, and a stranger's number must not
// get its hour back with each). Per IP too, in memory as the other per-IP limits: each text is paid
// for.

export const CODE_TTL_MS = 10 * 60_000;
export const CODES_PER_HOUR = 3;
export const MAX_TRIES = 5;
/** How a code is shown where staff can read it (the stored message, the log). */
export const MASKED_CODE = '••••••';

/**
 * The text message, in the language of the pages the user last used (as e-mails are). One SMS
 * segment each: English is GSM-7 (≤ 160); ó and ç make Spanish and Portuguese UCS-2 (≤ 70).
 */
const CODE_TEXTS = {
  en: (code: string) => `XG Marketplace: your verification code is ${code}. It expires in 10 minutes.`,
  es: (code: string) => `XG Marketplace: tu código es ${code}. Caduca en 10 minutos.`,
  pt: (code: string) => `XG Marketplace: seu código é ${code}. Expira em 10 minutos.`,
};
export const codeText = (code: string, locale: keyof typeof CODE_TEXTS = 'en') => CODE_TEXTS[locale](code);

type Outcome = { kind: 'ok'; phone: string } | { kind: 'none' } | { kind: 'wrong'; left: number } | { kind: 'burned' };

export class PhoneVerification {
  private readonly deps: AppDeps;
  private readonly sms: SmsService;
  private readonly perIp: WindowLimiter;
  constructor(deps: AppDeps, sms: SmsService) {
    this.deps = deps;
    this.sms = sms;
    this.perIp = new WindowLimiter(deps.clock, deps.limits.phoneCodesPerIpPerHour, HOUR_MS);
  }

  private hash(userId: string, phone: string, code: string): Buffer {
    return createHmac('sha256', this.deps.config.jwtSecret).update(`phone-code\0${userId}\0${phone}\0${code}`).digest();
  }

  /** What phone_texts keeps of a number: not the number, which an erased account's texts must not leave behind. */
  private phoneKey(phone: string): string {
    return createHmac('sha256', this.deps.config.jwtSecret).update(`phone-texts\0${phone}`).digest('hex');
  }

  /** The actor's own live account, when the profile policy lets them manage it (as every profile route asks). */
  private async account(db: Executor, actor: SessionUser) {
    await currentActor(db, actor); // suspended or signed out while this waited for the lock: 401, no code
    const row = await repo.findLiveUser(db, actor.id);
    if (!row || !can(actor, 'manage', { id: row.id })) throw new NotFound('profile.user_not_found');
    return row;
  }

  /** Texts a new code to `phoneInput` (superseding the user's earlier codes), asked for from `ip`. */
  async request(actor: SessionUser, phoneInput: string, ip: string): Promise<{ phone: string; expiresAt: string }> {
    const phone = normalizeUsPhone(phoneInput);
    if (!phone) throw new Invalid('phone', 'phone.invalid');
    // Counted now, in the step that checks it, so that requests in flight at once are all counted
    // (counted after Textbelt's answer, 20 asked at once from one IP were all texted); taken back
    // below when no text went, as the stored rows are: one never sent costs nothing.
    const ipKeys = [ipKey(ip)];
    if (this.perIp.full(ipKeys)) throw new TooManyRequests('phone.too_many_codes', { minutes: waitMinutes(this.perIp.msUntilFree(ipKeys)) });
    const countedAt = this.perIp.count(ipKeys);
    let textMayHaveGone = false;
    try {
      return await this.textCode(actor, phone, () => (textMayHaveGone = true));
    } finally {
      if (!textMayHaveGone) this.perIp.uncount(ipKeys, countedAt);
    }
  }

  /** The request past its per-IP count; `mayHaveGone` is called once a text went or may have gone. */
  private async textCode(actor: SessionUser, phone: string, mayHaveGone: () => void): Promise<{ phone: string; expiresAt: string }> {
    const now = this.deps.clock.now();
    const at = now.toISOString();
    const expiresAt = new Date(now.getTime() + CODE_TTL_MS).toISOString();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    let locale: 'en' | 'es' | 'pt' = 'en';
    const phoneKey = this.phoneKey(phone);
    const { codeId, textId } = await this.deps.db.transaction().execute(async (trx) => {
      const user = await this.account(trx, actor);
      locale = user.locale;
      if (user.phone === phone && user.phone_verified_at) throw new Conflict('phone.already_verified');
      const since = new Date(now.getTime() - HOUR_MS).toISOString();
      const counts = [await repo.codesSince(trx, { userId: user.id, since }), await repo.textsSince(trx, phoneKey, since)];
      const full = counts.filter((c) => c.n >= CODES_PER_HOUR);
      if (full.length) {
        // Free again when the oldest row of each full window (the user's codes, the number's texts) is an hour old.
        const freeAt = Math.max(...full.map((c) => Date.parse(c.oldest!) + HOUR_MS));
        throw new TooManyRequests('phone.too_many_codes', { minutes: Math.max(1, Math.ceil((freeAt - now.getTime()) / 60_000)) });
      }
      return {
        codeId: await repo.insertCode(trx, { userId: user.id, phone, codeHash: this.hash(user.id, phone, code).toString('hex'), at, expiresAt }),
        textId: await repo.insertText(trx, phoneKey, at),
      };
    });
    // Sent after the commit: no write lock is held across a call to Textbelt.
    const sent = await this.sms.send({
      to: phone,
      text: codeText(code, locale),
      storedText: codeText(MASKED_CODE, locale),
      purpose: 'verification',
      userId: actor.id,
    });
    const failed = sent.status === 'refused' || sent.status === 'error';
    if (!failed || sent.maybeDelivered) mayHaveGone();
    if (failed) {
      // Not sent (refused, or Textbelt never got it): the code goes and costs nothing. Maybe sent
      // (no answer in time, an answer we cannot read): it stays, counted against the hourly
      // limits (else every retry could text the number again), and works if the text arrives.
      // A code not sent leaves the earlier one, which may be on its way, as it was.
      if (!sent.maybeDelivered) {
        await this.deps.db.transaction().execute(async (trx) => {
          await repo.deleteCode(trx, codeId);
          await repo.deleteText(trx, textId);
        });
        throw new ServiceUnavailable('phone.sms_failed');
      }
      await repo.burnOpenCodes(this.deps.db, actor.id, at, codeId);
      throw new ServiceUnavailable('phone.sms_failed');
    }
    // Texted: it supersedes the user's earlier codes.
    await repo.burnOpenCodes(this.deps.db, actor.id, at, codeId);
    return { phone, expiresAt };
  }

  /** Checks the code of the user's latest text; right, the number becomes their verified phone. */
  async confirm(actor: SessionUser, codeInput: string): Promise<{ phone: string; phoneVerified: true }> {
    const code = codeInput.trim();
    if (!/^\d{6}$/.test(code)) throw new Invalid('code', 'phone.code_format');
    const at = this.deps.clock.now().toISOString();
    // A wrong try is written before the answer, so the transaction returns what happened instead of
    // throwing (a throw would roll the count back).
    const outcome = await this.deps.db.transaction().execute(async (trx): Promise<Outcome> => {
      const user = await this.account(trx, actor);
      const c = await repo.latestCode(trx, user.id);
      if (!c || c.used_at || c.burned_at || c.expires_at <= at) return { kind: 'none' };
      if (!timingSafeEqual(Buffer.from(c.code_hash, 'hex'), this.hash(user.id, c.phone, code))) {
        const attempts = c.attempts + 1;
        const burned = attempts >= MAX_TRIES;
        await repo.recordWrongTry(trx, c.id, attempts, burned ? at : null);
        return burned ? { kind: 'burned' } : { kind: 'wrong', left: MAX_TRIES - attempts };
      }
      await repo.markCodeUsed(trx, c.id, at);
      await repo.setVerifiedPhone(trx, user.id, c.phone, at);
      return { kind: 'ok', phone: c.phone };
    });
    switch (outcome.kind) {
      case 'ok':
        return { phone: outcome.phone, phoneVerified: true };
      case 'none':
        throw new Invalid('code', 'phone.code_expired');
      case 'wrong':
        throw new Invalid('code', 'phone.code_wrong', { triesLeft: outcome.left });
      case 'burned':
        throw new Invalid('code', 'phone.code_burned');
    }
  }
}
