// How often sign-in may fail: per address and per account and address; how often it may be tried per account.
import type { AppDeps } from '../../core/deps.ts';
import { TooManyRequests } from '../../core/errors.ts';
import { WindowLimiter, ipKey, waitMinutes } from '../../core/ratelimit.ts';
import { HOUR_MS } from '../../core/clock.ts';

/**
 * Sign-in limits (PRODUCT §11). Per IP and per (account, IP) in a short window: an attacker's
 * guesses block the attacker's address, never the owner's. These count failed sign-ins only: a
 * correct password is no guess, and counting it refused the 11th honest guest behind a hotel's
 * Wi-Fi or a carrier's NAT (and let one abuser there lock everyone out with 10 requests). Per
 * account across every IP, a ceiling high enough (100 an hour) that reaching it takes a spread-out
 * attack, which it then slows.
 * These counters belong to sign-in alone: register has its own, and any other path that checks a
 * password or sends a token (a future password reset) must build its own, so that using it can
 * neither lock anyone out of signing in nor give an attacker fresh sign-in attempts.
 */
export class SignInLimits {
  private readonly perIp: WindowLimiter;
  private readonly perAccount: WindowLimiter;

  constructor(deps: Pick<AppDeps, 'clock' | 'limits'>) {
    const { authAttemptsPerWindow, authWindowMs, authAccountPerHour } = deps.limits;
    this.perIp = new WindowLimiter(deps.clock, authAttemptsPerWindow, authWindowMs);
    this.perAccount = new WindowLimiter(deps.clock, authAccountPerHour, HOUR_MS);
  }

  /**
   * Counts one attempt, or throws 429 and counts nothing (so a blocked IP cannot use up the
   * account's ceiling). The account's ceiling stops guessing spread over many addresses, but it must
   * not lock the owner out (PRODUCT §11): it does not hold on a network the account signed in from
   * (`knownNetwork`, asked only once the ceiling is reached), where the per-IP limits still do.
   * The per-IP count is taken now, so that sign-ins in flight at once are all counted (counted after
   * the password check, a burst of guesses sent together would all pass `full()`); the caller calls
   * the returned function when the sign-in succeeded, which takes it back.
   */
  async hit(email: string, ip: string, knownNetwork: (net: string) => Promise<boolean>): Promise<() => void> {
    const net = ipKey(ip);
    const ipKeys = [`ip:${net}`, `acct-ip:${email}|${net}`];
    const accountKeys = [`acct:${email}`];
    if (this.perIp.full(ipKeys)) throw new TooManyRequests('auth.too_many_sign_ins', { minutes: waitMinutes(this.perIp.msUntilFree(ipKeys)) });
    const ceiling = this.perAccount.full(accountKeys);
    if (ceiling && !(await knownNetwork(net))) throw new TooManyRequests('auth.too_many_sign_ins_account');
    const countedAt = this.perIp.count(ipKeys);
    if (!ceiling) this.perAccount.count(accountKeys);
    return () => this.perIp.uncount(ipKeys, countedAt);
  }
}
