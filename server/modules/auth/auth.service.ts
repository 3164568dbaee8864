import { createHash, randomBytes } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { loadSessionUser, type SessionUser } from '../../core/auth.ts';
import { Conflict, Forbidden, Invalid, Unauthorized } from '../../core/errors.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { writeAudit, type AuditInput } from '../../core/audit.ts';
import { composeMail, pageLink, utcMoment, type MailLocale } from '../../core/mail-templates.ts';
import { checkUnsubscribeToken } from '../../core/unsubscribe.ts';
import { WindowLimiter, ipKey } from '../../core/ratelimit.ts';
import type { StaffRole, UserStatus } from '../../core/schema.ts';
import { RULE_CODES, checkEmail, checkNewEmail, checkNickname, checkPassword, normalizeEmail, type RuleKey } from '../../../contract/rules.ts';
import { can } from './auth.policy.ts';
import * as repo from './auth.repository.ts';
import { HOUR_MS } from '../../core/clock.ts';
import { hashPassword, normalizePassword, verifyPassword } from '../../core/passwords.ts';
import { SignInLimits } from './auth.limits.ts';

/** Throws 400 naming the field when a value breaks a shared rule. */
export function assertRule(field: string, key: RuleKey | null): void {
  if (key) throw new Invalid(field, RULE_CODES[key]);
}

/** The e-mail, normalized, when a new account's fields keep the shared rules; else throws 400 naming the field. */
function assertNewAccount(input: { email: string; password: string; nickname: string }): string {
  const email = normalizeEmail(input.email);
  assertRule('email', checkNewEmail(email));
  assertRule('password', checkPassword(normalizePassword(input.password), email));
  assertRule('nickname', checkNickname(input.nickname));
  return email;
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
/** A network the account signed in from this recently is its owner's: the account's sign-in ceiling does not hold there. */
const KNOWN_NETWORK_MS = 90 * 24 * HOUR_MS;
/** A reset link works this long, once. */
export const RESET_TOKEN_MS = HOUR_MS;
/** Reset-link requests an hour per IP. */
export const RESET_REQUESTS_PER_IP_PER_HOUR = 60;

export class AuthService {
  private readonly signIn: SignInLimits;
  /** Reset e-mails: per IP, and per address (whether or not it has an account, so the limit tells nothing). */
  private readonly resetPerIp: WindowLimiter;
  private readonly resetPerAddress: WindowLimiter;
  /** Reset attempts with a token that is no live link, per IP (a real link is never refused for them). */
  private readonly resetTries: WindowLimiter;
  /**
   * Register: per IP only. Keyed by account it would let anyone block sign-up of an address. A form
   * refused for bad input (400) does not count; one refused for an e-mail taken (409) does, so
   * probing which addresses have accounts stays limited.
   */
  private readonly registerLimiter: WindowLimiter;
  private dummyHash: Promise<string> | null = null;

  private readonly deps: AppDeps;

  constructor(deps: AppDeps) {
    this.deps = deps;
    this.signIn = new SignInLimits(deps);
    this.registerLimiter = new WindowLimiter(deps.clock, deps.limits.authAttemptsPerWindow, deps.limits.authWindowMs);
    // Far above what the people behind one shared address (a campus, a carrier's NAT) ask for; the
    // per-address limit keeps any inbox from being flooded.
    this.resetPerIp = new WindowLimiter(deps.clock, Math.max(RESET_REQUESTS_PER_IP_PER_HOUR, deps.limits.authAttemptsPerWindow), HOUR_MS);
    this.resetPerAddress = new WindowLimiter(deps.clock, 3, HOUR_MS);
    this.resetTries = new WindowLimiter(deps.clock, Math.max(20, deps.limits.authAttemptsPerWindow), HOUR_MS);
  }

  /** Remembers the language of the pages the user uses (their e-mails speak it). */
  async rememberLocale(userId: string, locale: MailLocale | null): Promise<void> {
    if (locale) await repo.setLocale(this.deps.db, userId, locale);
  }

  /**
   * Forgot password: e-mails a single-use link valid one hour. The answer is the same whether or
   * not the address has an account (the caller learns nothing); limited per IP and per address.
   */
  async requestPasswordReset(input: { email: string }, ip: string, locale: MailLocale | null): Promise<void> {
    const email = normalizeEmail(input.email);
    assertRule('email', checkEmail(email));
    this.resetPerIp.hit([`ip:${ipKey(ip)}`], 'auth.too_many_reset_requests');
    this.resetPerAddress.hit([`mail:${email}`], 'auth.too_many_reset_requests');
    const token = randomToken(32);
    const now = this.deps.clock.now();
    // The account read and its link stored in one transaction: an e-mail change confirmed, a
    // suspension or a deletion committed in between (each ends the account's links) would leave a
    // live link mailed to an address the account left, or to a suspended account.
    const user = await this.deps.db.transaction().execute(async (trx) => {
      const found = await repo.findUserByEmail(trx, email);
      if (!found || found.status === 'suspended') return null;
      await repo.insertPasswordReset(trx, {
        tokenHash: sha256(token),
        userId: found.id,
        at: now.toISOString(),
        expiresAt: new Date(now.getTime() + RESET_TOKEN_MS).toISOString(),
      });
      return found;
    });
    if (!user) return;
    const lang: MailLocale = locale ?? user.locale;
    // Sent after the answer, not awaited: waiting for the mail server would answer a known address
    // as late as the server is slow and an unknown one at once (the timing would tell which
    // addresses have accounts). Same answer either way when it fails too; the log says it.
    void this.deps.mailer
      .send(composeMail('passwordReset', lang, user.email, { link: pageLink(this.deps.config.publicUrl, lang, `/auth/reset-password?token=${token}`) }))
      .catch((err: unknown) => this.deps.log.error({ err, userId: user.id }, 'could not e-mail a password reset link'));
  }

  /** Sets a new password with a reset token (once, within the hour); every older session ends. */
  async resetPassword(input: { token: string; newPassword: string }, ip: string): Promise<void> {
    // Tokens are 32 random bytes, so no count of tries guards them: the limit only stops an address
    // posting junk, and counts only tokens that are no live link (so junk never locks out a real one).
    const triesKeys = [`ip:${ipKey(ip)}`];
    const tokenHash = sha256(input.token);
    const now = this.deps.clock.now().toISOString();
    // The rule needs the account's e-mail (a password may not be the e-mail): look before using the token.
    const pending = await this.deps.db
      .selectFrom('password_resets')
      .innerJoin('users', 'users.id', 'password_resets.user_id')
      .select(['users.email', 'users.id'])
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!pending) {
      this.resetTries.hit(triesKeys, 'auth.too_many_reset_requests');
      throw new Invalid('token', 'auth.reset_token_invalid');
    }
    assertRule('newPassword', checkPassword(normalizePassword(input.newPassword), pending.email));
    const hash = await hashPassword(this.deps.hasher, input.newPassword);
    const userId = await this.deps.db.transaction().execute(async (trx) => {
      const id = await repo.takePasswordReset(trx, tokenHash, now);
      if (!id) return null; // used by a concurrent request meanwhile
      await repo.setPassword(trx, id, hash, now);
      return id;
    });
    if (!userId) throw new Invalid('token', 'auth.reset_token_invalid');
    this.deps.hub.disconnectUser(userId);
    await this.notifyPasswordChanged(userId);
  }

  /** The footer link of reminder e-mails: no more reminders for this user (404-free: a bad link is a 400). */
  async unsubscribeReminders(input: { userId: string; token: string }): Promise<void> {
    if (!checkUnsubscribeToken(this.deps.config.jwtSecret, input.userId, input.token)) throw new Invalid('t', 'auth.unsubscribe_link_invalid');
    await this.deps.db.updateTable('users').set({ reminders_opt_out: 1 }).where('id', '=', input.userId).execute();
  }

  /** The "your password was changed" e-mail (after a reset or a change in the profile). Never throws. */
  async notifyPasswordChanged(userId: string): Promise<void> {
    const u = await this.deps.db.selectFrom('users').select(['email', 'locale']).where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
    if (!u) return;
    try {
      await this.deps.mailer.send(
        composeMail('passwordChanged', u.locale, u.email, {
          date: utcMoment(this.deps.clock.now().toISOString(), u.locale),
          link: pageLink(this.deps.config.publicUrl, u.locale, '/auth/forgot-password'),
        }),
      );
    } catch (err) {
      this.deps.log.error({ err, userId }, 'could not e-mail the password change notice');
    }
  }

  /**
   * Creates an account (status pending, role PROVIDER_USER) with its USD wallet, in one transaction.
   * With `audit`, its `user.create`-style row is written in that transaction too: an account made
   * by hand (a staff account, from the create-user script) never exists unaudited.
   */
  async createUser(input: {
    email: string;
    password: string;
    nickname: string;
    roles?: StaffRole[];
    status?: UserStatus;
    audit?: { actor: AuditInput['actor']; action: string; after?: Record<string, unknown> };
  }): Promise<SessionUser> {
    const email = assertNewAccount(input);
    const roles: StaffRole[] = ['PROVIDER_USER', ...(input.roles ?? []).filter((r) => r !== 'PROVIDER_USER')];
    const passwordHash = await hashPassword(this.deps.hasher, input.password);
    const id = newId();
    const now = this.deps.clock.now().toISOString();
    const status = input.status ?? 'pending';
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        await repo.insertUser(trx, { id, email, passwordHash, nickname: input.nickname, status, roles, now });
        await repo.insertWallet(trx, { id: newId(), userId: id, walletType: 'USD', now });
        if (input.audit) {
          const { actor, action, after } = input.audit;
          await writeAudit(trx, { actor, action, targetType: 'user', targetId: id, after: { email, roles, status, ...after }, at: now });
        }
      });
    } catch (e) {
      if (e instanceof Error && /UNIQUE constraint failed: .*email|users_email_unique/i.test(e.message)) {
        throw new Conflict('auth.email_taken');
      }
      throw e;
    }
    return (await loadSessionUser(this.deps.db, id))!;
  }

  /**
   * Self-registration: always a pending PROVIDER_USER, whatever else the caller sends. It signs the
   * new account in, so it is recorded as its first sign-in: staff see where an account that never
   * signed in again came from, and relate it to others from that address.
   */
  async register(input: { email: string; password: string; nickname: string }, ip: string, userAgent: string | null = null): Promise<SessionUser> {
    assertNewAccount(input); // before counting: bad input costs nothing
    this.registerLimiter.hit([`ip:${ipKey(ip)}`], 'auth.too_many_sign_ups');
    const user = await this.createUser({ email: input.email, password: input.password, nickname: input.nickname });
    await repo.recordSignIn(this.deps.db, { userId: user.id, ip, userAgent, at: this.deps.clock.now().toISOString() });
    return user;
  }

  async login(input: { email: string; password: string }, ip: string, userAgent: string | null): Promise<SessionUser> {
    const email = normalizeEmail(input.email);
    const succeeded = await this.signIn.hit(email, ip, async (net) =>
      (await repo.recentSignInIps(this.deps.db, email, KNOWN_NETWORK_MS, this.deps.clock.now())).some((a) => ipKey(a) === net),
    );
    const row = await repo.findUserByEmail(this.deps.db, email);
    if (!row) {
      // Spend the same time as a real check, so response time does not tell which e-mails exist.
      this.dummyHash ??= this.deps.hasher.hash(randomBytes(16).toString('hex'));
      // verifyPassword, as for an account: a password not in NFC is tried twice there too.
      await verifyPassword(this.deps.hasher, await this.dummyHash, input.password);
      throw new Unauthorized('auth.invalid_credentials');
    }
    // Refusals of an existing account are recorded too (staff see them on the user page).
    const attempt = { userId: row.id, ip, userAgent, at: this.deps.clock.now().toISOString() };
    const password = await verifyPassword(this.deps.hasher, row.password_hash, input.password);
    if (!password.ok) {
      await repo.recordSignIn(this.deps.db, { ...attempt, failure: 'wrong_password' });
      throw new Unauthorized('auth.invalid_credentials');
    }
    if (!can(null, 'signIn', row)) {
      await repo.recordSignIn(this.deps.db, { ...attempt, failure: 'suspended' });
      throw new Forbidden('auth.account_suspended');
    }
    // The session is issued from the account as it was checked. Read again where the sign-in is
    // recorded: a reset, password change, suspension or sign-out everywhere committed while argon2
    // ran would otherwise give this sign-in a token of the version that change made (a leaked
    // password's session surviving the reset meant to end it; one that works again when the
    // suspension is lifted). A password replaced meanwhile is a wrong one; any other change refuses
    // the sign-in the same way (it is tried again), a suspension as a suspension. Another hash
    // stored meanwhile is checked too: a rehash of the same password (another sign-in's, of an
    // account whose hash predates normalization) is no change, a new password no longer matches.
    let checked = { hash: row.password_hash, ok: true, rehash: password.rehash };
    for (let round = 1; ; round++) {
      const session = await this.deps.db.transaction().execute(async (trx) => {
        const now = await repo.findLiveUserById(trx, row.id);
        if (!now) return 'ended' as const; // erased meanwhile: nothing of it is recorded
        if (now.password_hash !== checked.hash) return { storedMeanwhile: now.password_hash };
        if (!checked.ok) {
          await repo.recordSignIn(trx, { ...attempt, failure: 'wrong_password' });
          return 'ended' as const;
        }
        if (!can(null, 'signIn', now)) {
          await repo.recordSignIn(trx, { ...attempt, failure: 'suspended' });
          return 'suspended' as const;
        }
        if (now.token_version !== row.token_version) return 'ended' as const;
        // A hash made before passwords were normalized is remade of the NFC form with the sign-in's record.
        if (checked.rehash !== null) await repo.rehashPassword(trx, row.id, checked.hash, checked.rehash);
        await repo.recordSignIn(trx, attempt);
        return (await loadSessionUser(trx, row.id))!;
      });
      if (session === 'suspended') throw new Forbidden('auth.account_suspended');
      if (session === 'ended') throw new Unauthorized('auth.invalid_credentials');
      if (!('storedMeanwhile' in session)) {
        succeeded(); // a correct password costs the address nothing
        return session;
      }
      // A hash that changed again under each check: it is tried again, as after a sign-out everywhere.
      if (round === 3) throw new Unauthorized('auth.invalid_credentials');
      const again = await verifyPassword(this.deps.hasher, session.storedMeanwhile, input.password);
      checked = { hash: session.storedMeanwhile, ...again };
    }
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
      const now = this.deps.clock.now().toISOString();
      await this.deps.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('user_roles').where('user_id', '=', existing.id).execute();
        await trx
          .insertInto('user_roles')
          .values((['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'] as const).map((role) => ({ user_id: existing.id, role })))
          .execute();
        await trx
          .updateTable('users')
          .set((eb) => ({ status: 'approved', approved_at: eb.fn.coalesce('approved_at', eb.val(now)) }))
          .where('id', '=', existing.id)
          .execute();
      });
      return { email, generatedPassword: null };
    }
    try {
      await this.createUser({ email, password, nickname: 'master', roles: ['ADMIN_USER', 'MASTER_USER'], status: 'approved' });
    } catch (err) {
      // A second server starting at the same moment made the master first (the e-mail is taken):
      // theirs stands, and this one prints no password of its own.
      if (err instanceof Conflict && (await repo.countMasters(this.deps.db)) > 0) return null;
      throw err;
    }
    return { email, generatedPassword: masterPassword ? null : password };
  }
}
