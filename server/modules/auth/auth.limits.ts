// How often sign-in may be tried: per address, per account and address, and per account.
import type { AppDeps } from '../../core/deps.ts';
import { TooManyRequests } from '../../core/errors.ts';
import { WindowLimiter, ipKey } from '../../core/ratelimit.ts';
import { HOUR_MS } from '../../core/clock.ts';

/**
 * Sign-in limits (PRODUCT §11). Per IP and per (account, IP) in a short window: an attacker's
 * guesses block the attacker's address, never the owner's. Per account across every IP, a ceiling
 * high enough (100 an hour) that reaching it takes a spread-out attack, which it then slows.
 * These counters belong to sign-in alone: register has its own, and any other path that checks a
 * password or sends a token (a future password reset) must build its own, so that using it can
 * neither lock anyone out of signing in nor give an attacker fresh sign-in attempts.
 */
export class SignInLimits {
  private readonly perIp: WindowLimiter;
  private readonly perAccount: WindowLimiter;
  private readonly windowMinutes: number;

  constructor(deps: Pick<AppDeps, 'clock' | 'limits'>) {
    const { authAttemptsPerWindow, authWindowMs, authAccountPerHour } = deps.limits;
    this.perIp = new WindowLimiter(deps.clock, authAttemptsPerWindow, authWindowMs);
    this.perAccount = new WindowLimiter(deps.clock, authAccountPerHour, HOUR_MS);
    this.windowMinutes = Math.ceil(authWindowMs / 60_000);
  }

  /**
   * Counts one attempt, or throws 429 and counts nothing (so a blocked IP cannot use up the
   * account's ceiling). The account's ceiling stops guessing spread over many addresses, but it must
   * not lock the owner out (PRODUCT §11): it does not hold on a network the account signed in from
   * (`knownNetwork`, asked only once the ceiling is reached), where the per-IP limits still do.
   */
  async hit(email: string, ip: string, knownNetwork: (net: string) => Promise<boolean>): Promise<void> {
    const net = ipKey(ip);
    const ipKeys = [`ip:${net}`, `acct-ip:${email}|${net}`];
    const accountKeys = [`acct:${email}`];
    if (this.perIp.full(ipKeys)) throw new TooManyRequests('auth.too_many_sign_ins', { minutes: this.windowMinutes });
    const ceiling = this.perAccount.full(accountKeys);
    if (ceiling && !(await knownNetwork(net))) throw new TooManyRequests('auth.too_many_sign_ins_account');
    this.perIp.count(ipKeys);
    if (!ceiling) this.perAccount.count(accountKeys);
  }
}
