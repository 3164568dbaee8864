import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { loadSessionUser, type SessionUser } from '../../core/auth.ts';
import { Conflict, Forbidden, Invalid, TooManyRequests, Unauthorized } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { WindowLimiter, ipKey } from '../../core/ratelimit.ts';
import type { StaffRole, UserStatus } from '../../core/schema.ts';
import { RULE_CODES, checkEmail, checkNickname, checkPassword, type RuleKey } from '../../../contract/rules.ts';
import { can } from './auth.policy.ts';
import * as repo from './auth.repository.ts';

/** Throws 400 naming the field when a value breaks a shared rule. */
export function assertRule(field: string, key: RuleKey | null): void {
  if (key) throw new Invalid(field, RULE_CODES[key]);
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Sign-in limits (PRODUCT §11). Per IP and per (account, IP) in a short window: an attacker's
 * guesses block the attacker's address, never the owner's. Per account across every IP, a ceiling
 * high enough (100 an hour) that reaching it takes a spread-out attack, which it then slows.
 * These counters belong to sign-in alone: register has its own, and any other path that checks a
 * password or sends a token (a future password reset) must build its own, so that using it can
 * neither lock anyone out of signing in nor give an attacker fresh sign-in attempts.
 */
class SignInLimits {
  private readonly perIp: WindowLimiter;
  private readonly perAccount: WindowLimiter;
  private readonly windowMinutes: number;

  constructor(deps: Pick<AppDeps, 'clock' | 'limits'>) {
    const { authAttemptsPerWindow, authWindowMs, authAccountPerHour } = deps.limits;
    this.perIp = new WindowLimiter(deps.clock, authAttemptsPerWindow, authWindowMs);
    this.perAccount = new WindowLimiter(deps.clock, authAccountPerHour, HOUR_MS);
    this.windowMinutes = Math.ceil(authWindowMs / 60_000);
  }

  /** Counts one attempt, or throws 429 and counts nothing (so a blocked IP cannot use up the account's ceiling). */
  hit(email: string, ip: string): void {
    const net = ipKey(ip);
    const ipKeys = [`ip:${net}`, `acct-ip:${email}|${net}`];
    const accountKeys = [`acct:${email}`];
    if (this.perIp.full(ipKeys)) throw new TooManyRequests('auth.too_many_sign_ins', { minutes: this.windowMinutes });
    if (this.perAccount.full(accountKeys)) throw new TooManyRequests('auth.too_many_sign_ins_account');
    this.perIp.count(ipKeys);
    this.perAccount.count(accountKeys);
  }
}

export class AuthService {
  private readonly signIn: SignInLimits;
  /** Register: per IP only. Keyed by account it would let anyone block sign-up of an address. */
  private readonly registerLimiter: WindowLimiter;
  private dummyHash: Promise<string> | null = null;

  private readonly deps: AppDeps;

  constructor(deps: AppDeps) {
    this.deps = deps;
    this.signIn = new SignInLimits(deps);
    this.registerLimiter = new WindowLimiter(deps.clock, deps.limits.authAttemptsPerWindow, deps.limits.authWindowMs);
  }

  /** Creates an account (status pending, role PROVIDER_USER) with its USD wallet, in one transaction. */
  async createUser(input: { email: string; password: string; nickname: string; roles?: StaffRole[]; status?: UserStatus }): Promise<SessionUser> {
    const email = normalizeEmail(input.email);
    assertRule('email', checkEmail(email));
    assertRule('password', checkPassword(input.password, email));
    assertRule('nickname', checkNickname(input.nickname));
    const roles: StaffRole[] = ['PROVIDER_USER', ...(input.roles ?? []).filter((r) => r !== 'PROVIDER_USER')];
    const passwordHash = await this.deps.hasher.hash(input.password);
    const id = newId();
    const now = this.deps.clock.now().toISOString();
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        await repo.insertUser(trx, { id, email, passwordHash, nickname: input.nickname, status: input.status ?? 'pending', roles, now });
        await repo.insertWallet(trx, { id: newId(), userId: id, walletType: 'USD', now });
      });
    } catch (e) {
      if (e instanceof Error && /UNIQUE constraint failed: .*email|users_email_unique/i.test(e.message)) {
        throw new Conflict('auth.email_taken');
      }
      throw e;
    }
    return (await loadSessionUser(this.deps.db, id))!;
  }

  /** Self-registration: always a pending PROVIDER_USER, whatever else the caller sends. */
  async register(input: { email: string; password: string; nickname: string }, ip: string): Promise<SessionUser> {
    this.registerLimiter.hit([`ip:${ipKey(ip)}`], 'auth.too_many_sign_ups');
    return this.createUser({ email: input.email, password: input.password, nickname: input.nickname });
  }

  async login(input: { email: string; password: string }, ip: string, userAgent: string | null): Promise<SessionUser> {
    const email = normalizeEmail(input.email);
    this.signIn.hit(email, ip);
    const row = await repo.findUserByEmail(this.deps.db, email);
    if (!row) {
      // Spend the same time as a real check, so response time does not tell which e-mails exist.
      this.dummyHash ??= this.deps.hasher.hash(randomBytes(16).toString('hex'));
      await this.deps.hasher.verify(await this.dummyHash, input.password);
      throw new Unauthorized('auth.invalid_credentials');
    }
    if (!(await this.deps.hasher.verify(row.password_hash, input.password))) throw new Unauthorized('auth.invalid_credentials');
    if (!can(null, 'signIn', row)) throw new Forbidden('auth.account_suspended');
    await repo.recordSignIn(this.deps.db, { userId: row.id, ip, userAgent, at: this.deps.clock.now().toISOString() });
    return (await loadSessionUser(this.deps.db, row.id))!;
  }

  /** Ends every session of the user: older tokens no longer match the token version. */
  async logoutEverywhere(userId: string): Promise<void> {
    await repo.bumpTokenVersion(this.deps.db, userId);
    this.deps.hub.disconnectUser(userId);
  }

  /**
   * First start: when no master exists, creates one from MASTER_EMAIL/MASTER_PASSWORD, or with a
   * generated password printed once. Returns the generated password (null when none was made).
   */
  async ensureMaster(): Promise<{ email: string; generatedPassword: string | null } | null> {
    if ((await repo.countMasters(this.deps.db)) > 0) return null;
    const { masterEmail, masterPassword } = this.deps.config;
    const email = masterEmail ?? 'master@localhost.localdomain';
    const password = masterPassword ?? randomBytes(12).toString('base64url');
    const existing = await repo.findUserByEmail(this.deps.db, email);
    if (existing) {
      await this.deps.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('user_roles').where('user_id', '=', existing.id).execute();
        await trx
          .insertInto('user_roles')
          .values((['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'] as const).map((role) => ({ user_id: existing.id, role })))
          .execute();
        await trx.updateTable('users').set({ status: 'approved' }).where('id', '=', existing.id).execute();
      });
      return { email, generatedPassword: null };
    }
    await this.createUser({ email, password, nickname: 'master', roles: ['ADMIN_USER', 'MASTER_USER'], status: 'approved' });
    return { email, generatedPassword: masterPassword ? null : password };
  }
}
