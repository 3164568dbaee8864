import { createHash } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import { currentActor, loadSessionUser, transactionAs, type SessionUser } from '../../core/auth.ts';
import { Conflict, Invalid, NotFound, Unauthorized } from '../../core/errors.ts';
import { randomToken } from '../../core/ids.ts';
import { DAY_MS } from '../../core/clock.ts';
import { composeMail, pageLink } from '../../core/mail-templates.ts';
import type { Executor, Trx } from '../../core/db.ts';
import { WindowLimiter } from '../../core/ratelimit.ts';
import { toWebp } from '../../core/images.ts';
import { RULE_CODES, checkNewEmail, checkNickname, checkPassword, normalizeEmail, passwordIsEmail } from '../../../contract/rules.ts';
import { assertRule } from '../auth/auth.service.ts';
import { endPendingLinks, rehashPassword } from '../auth/auth.repository.ts';
import { hashPassword, normalizePassword, verifyPassword } from '../../core/passwords.ts';
import { removeUpload, storeUpload, uploadUrl } from '../uploads/uploads.storage.ts';
import { HOLD_REASON, withdraw } from '../uploads/uploads.withdrawn.ts';
import type { Profile } from '../../../contract/api/profile.ts';
import { beforeAdsOfUserDeleted, isUserHeld, keepForHold, keepIdentityForHold } from '../moderation/moderation.holds.ts';
import { forgetInOutbox } from '../../core/mailer.ts';
import { can } from './profile.policy.ts';
import * as repo from './profile.repository.ts';

/** What the profile routes answer (contract/api/profile.ts). */
export type ProfileView = Profile;

/** A password the user typed, and the account's hash it was checked against. */
interface Checked {
  hash: string;
  password: string;
}

export const AVATAR_SIZE = 256;
export const EMAIL_LINK_DAYS = 7;
const EMAIL_SENDS_PER_HOUR = 5;

export const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

export class ProfileService {
  private readonly deps: AppDeps;
  /** Password checks on a signed-in session are limited like sign-in, so a stolen cookie cannot brute-force the password. */
  private readonly passwordLimiter: WindowLimiter;
  /** Each e-mail change request sends mail to an address the user typed: keep it from becoming a spam relay. */
  private readonly mailLimiter: WindowLimiter;

  constructor(deps: AppDeps) {
    this.deps = deps;
    this.passwordLimiter = new WindowLimiter(deps.clock, deps.limits.authAttemptsPerWindow, deps.limits.authWindowMs);
    this.mailLimiter = new WindowLimiter(deps.clock, EMAIL_SENDS_PER_HOUR, 60 * 60 * 1000);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The actor's own account, live, when the policy lets them manage it. */
  private async ownAccount(actor: SessionUser, db: Executor = this.deps.db) {
    await currentActor(db, actor); // suspended or signed out since the request came in: 401
    const row = await repo.findLiveUser(db, actor.id);
    if (!row || !can(actor, 'manage', { id: row.id })) throw new NotFound('profile.user_not_found');
    return row;
  }

  /**
   * Verifies the account password; a wrong one is a 400 naming the field (a 401 would sign the
   * browser out). A hash made before passwords were normalized is remade of the NFC form
   * (core/passwords.ts verifyPassword), as sign-in does. Returns what was checked (the hash the
   * account has once checked, and the password), for the write to hold to (asChecked).
   */
  private async verifyPassword(user: { id: string; password_hash: string }, password: string, field: string): Promise<Checked> {
    this.passwordLimiter.hit([`pw:${user.id}`], 'profile.too_many_password_attempts', { minutes: Math.ceil(this.deps.limits.authWindowMs / 60_000) });
    const checked = await verifyPassword(this.deps.hasher, user.password_hash, password);
    if (!checked.ok) throw new Invalid(field, 'profile.wrong_password');
    // The rehash is the hash checked only once stored: not when another request changed the hash first.
    const { rehash } = checked;
    if (rehash !== null && (await rehashPassword(this.deps.db, user.id, user.password_hash, rehash))) return { hash: rehash, password };
    return { hash: user.password_hash, password };
  }

  /**
   * What a password check allowed, written as the account is now (transactionAs): a reset,
   * password change, suspension or sign-out committed while argon2 ran ended the session the check
   * was made on, and the password checked may be the one a reset replaced. Either way the write is
   * refused as any ended session is (401), so that it cannot undo the reset (a password put back,
   * a change of e-mail asked for after the reset ended those pending). Another hash stored
   * meanwhile refuses it only when the password no longer matches it: a rehash of the same
   * password (a sign-in's, of an account whose hash predates normalization) is no change.
   */
  private async asChecked<T>(actor: SessionUser, checked: Checked, work: (trx: Trx, by: SessionUser) => Promise<T>): Promise<T> {
    let hash = checked.hash;
    for (let round = 1; ; round++) {
      const done = await transactionAs(this.deps.db, actor, async (trx, by): Promise<{ result: T } | { stored: string | null }> => {
        const stored = (await repo.findLiveUser(trx, actor.id))?.password_hash ?? null;
        return stored === hash ? { result: await work(trx, by) } : { stored };
      });
      if ('result' in done) return done.result;
      // A hash that changed again under each check ends it as a change would.
      if (done.stored === null || round === 3 || !(await verifyPassword(this.deps.hasher, done.stored, checked.password)).ok) throw new Unauthorized();
      hash = done.stored;
    }
  }

  async profile(actor: SessionUser): Promise<ProfileView> {
    const u = await this.ownAccount(actor);
    return {
      id: u.id,
      email: u.email,
      nickname: u.nickname,
      avatar: uploadUrl(u.avatar),
      status: u.status,
      roles: await repo.rolesOf(this.deps.db, u.id),
      phone: u.phone,
      phoneVerified: u.phone !== null && u.phone_verified_at !== null,
      createdAt: u.created_at,
    };
  }

  async updateNickname(actor: SessionUser, nickname: string): Promise<ProfileView> {
    assertRule('nickname', checkNickname(nickname));
    await this.deps.db.transaction().execute(async (trx) => {
      const u = await this.ownAccount(actor, trx);
      const at = this.now();
      await repo.updateUser(trx, u.id, { nickname, updated_at: at });
      // Under a legal hold the nickname replaced stays on record (evidence), with the new one.
      await keepIdentityForHold(trx, u.id, { field: 'nickname', oldValue: u.nickname, newValue: nickname }, at);
    });
    return this.profile(actor);
  }

  /** Changes the password and ends every other session; returns the fresh session for this browser's new cookie. */
  async updatePassword(actor: SessionUser, input: { currentPassword: string; newPassword: string }): Promise<SessionUser> {
    const u = await this.ownAccount(actor);
    const userId = u.id;
    assertRule('newPassword', checkPassword(normalizePassword(input.newPassword), u.email));
    const checked = await this.verifyPassword(u, input.currentPassword, 'currentPassword');
    const hash = await hashPassword(this.deps.hasher, input.newPassword);
    // The new cookie's session is read where the password is written: read after commit, it would
    // carry the token version of a reset committed in between, and outlive it.
    const session = await this.asChecked(actor, checked, async (trx) => {
      await repo.updateUser(trx, userId, { password_hash: hash, updated_at: this.now() }, true);
      await endPendingLinks(trx, userId);
      return (await loadSessionUser(trx, userId))!;
    });
    this.deps.hub.disconnectUser(userId);
    // Not awaited: the answer (with this browser's new cookie) must not wait for the mail server
    // while the user's sockets are being closed (the page would re-read its session too early).
    void this.deps.services.auth.notifyPasswordChanged(userId);
    return session;
  }

  /**
   * Starts an e-mail change: nothing changes until the link sent to the new address is opened.
   * An address another account holds gets the same answer as a free one (the caller must not
   * learn which addresses have accounts); its holder is told instead, and no change is stored.
   */
  async requestEmailChange(actor: SessionUser, input: { newEmail: string; password: string }): Promise<{ pendingEmail: string }> {
    const newEmail = normalizeEmail(input.newEmail);
    assertRule('newEmail', checkNewEmail(newEmail));
    const u = await this.ownAccount(actor);
    const userId = u.id;
    if (newEmail === u.email.toLowerCase()) throw new Invalid('newEmail', 'profile.email_unchanged');
    const checked = await this.verifyPassword(u, input.password, 'password');
    // PRODUCT §10: the password is never the e-mail, so the new address may not be the password
    // either. Asked once the password is proven (else it would tell a guesser theirs is the address).
    if (passwordIsEmail(input.password, newEmail)) throw new Invalid('newEmail', RULE_CODES.passwordIsEmail);
    // Before looking the address up: a taken address uses up the hourly sends like a free one, so
    // a 429 tells nothing either, and the holder gets no more notices than a free address links.
    this.mailLimiter.hit([`mail:${userId}`], 'profile.too_many_email_changes');
    const token = randomToken();
    // Stored only while the session and password checked still hold: a reset committed meanwhile
    // ended the pending changes, and one stored after it would hand the account to that address.
    const holder = await this.asChecked(actor, checked, async (trx) => {
      const taken = await repo.findEmailHolder(trx, newEmail, userId);
      if (!taken) await repo.insertEmailChange(trx, { tokenHash: sha256(token), userId, newEmail, now: this.now() });
      return taken;
    });
    if (holder) {
      // An erased account keeps a placeholder address nobody reads: nothing to tell.
      if (!holder.deleted_at) {
        // To the holder, in their language: no link that acts, nor the requester's name or address
        // (the holder learns only that it happened).
        const link = pageLink(this.deps.config.publicUrl, holder.locale, '/auth/login');
        await this.deps.mailer.send(composeMail('emailInUse', holder.locale, newEmail, { nickname: holder.nickname, link }));
      }
      return { pendingEmail: newEmail };
    }
    const link = pageLink(this.deps.config.publicUrl, u.locale, `/auth/confirm-email?token=${encodeURIComponent(token)}`);
    // The address is not proven yet (anyone's): the requester's nickname stays out, as in emailInUse.
    await this.deps.mailer.send(composeMail('emailChangeConfirm', u.locale, newEmail, { days: String(EMAIL_LINK_DAYS), link }));
    return { pendingEmail: newEmail };
  }

  /** Applies a confirmed e-mail change once; ends the sessions that carried the old address. */
  async confirmEmailChange(token: string): Promise<SessionUser> {
    const bad = () => new Invalid('token', 'profile.confirmation_link_invalid');
    const tokenHash = sha256(token);
    const now = this.deps.clock.now();
    const result = await this.deps.db.transaction().execute(async (trx) => {
      const change = await repo.findEmailChange(trx, tokenHash);
      if (!change || change.confirmed_at) throw bad();
      if (now.getTime() - Date.parse(change.created_at) > EMAIL_LINK_DAYS * DAY_MS) throw bad();
      const user = await repo.findLiveUser(trx, change.user_id);
      if (!user || user.status === 'suspended') throw bad(); // a suspended account keeps the address staff know it by
      if (await repo.emailTaken(trx, change.new_email, user.id)) throw new Conflict('auth.email_taken');
      await repo.updateUser(trx, user.id, { email: change.new_email, updated_at: now.toISOString() }, true);
      // Under a legal hold the address replaced stays on record: a preservation request names the account by it.
      await keepIdentityForHold(trx, user.id, { field: 'email', oldValue: user.email, newValue: change.new_email }, now.toISOString());
      await repo.confirmEmailChange(trx, tokenHash, now.toISOString(), user.email);
      // The other changes asked for die with this one, and a reset link mailed to the old address too.
      await endPendingLinks(trx, user.id);
      // The confirming browser's session is read here: read after the notice below, it would carry
      // the token version of a reset committed while the mail server answered, and outlive it.
      const session = (await loadSessionUser(trx, user.id))!;
      return { userId: user.id, oldEmail: user.email, newEmail: change.new_email, nickname: user.nickname, locale: user.locale, session };
    });
    this.deps.hub.disconnectUser(result.userId);
    // Tell the old address, so a hijacked session changing the e-mail does not go unnoticed.
    await this.deps.mailer
      .send(
        composeMail('emailChanged', result.locale, result.oldEmail, {
          nickname: result.nickname,
          email: result.newEmail,
          link: pageLink(this.deps.config.publicUrl, result.locale, '/contact-us'),
        }),
      )
      .catch((err) => this.deps.log.warn({ err }, 'could not notify the old e-mail address'));
    return result.session;
  }

  async updateAvatar(actor: SessionUser, upload: Buffer): Promise<ProfileView> {
    const u = await this.ownAccount(actor);
    const image = await toWebp(upload, { maxWidth: AVATAR_SIZE, maxHeight: AVATAR_SIZE, fit: 'cover', quality: 82, field: 'avatar' });
    const { dataDir } = this.deps.config;
    const rel = storeUpload(dataDir, 'avatars', image.buffer);
    let replaced: string | null;
    try {
      // Read again where it is written: an account deleted while the picture was encoded stays
      // without one, and of two uploads at once the first one's file is the one replaced.
      replaced = await this.deps.db.transaction().execute(async (trx) => {
        const now = await this.ownAccount(actor, trx);
        await repo.updateUser(trx, now.id, { avatar: rel, updated_at: this.now() });
        return now.avatar;
      });
    } catch (e) {
      removeUpload(dataDir, rel, this.deps.log);
      throw e;
    }
    // The replaced picture goes, unless a legal hold keeps the account's files.
    if (replaced && !(await keepForHold(this.deps.db, u.id, replaced, this.now()))) removeUpload(dataDir, replaced, this.deps.log);
    return this.profile(actor);
  }

  /**
   * Erases the account in one transaction: ads gone, personal data replaced, wallets and ledger
   * kept. Under a legal hold (moderation.holds.ts) the held ads are kept as copies with their
   * files, and a held account is closed with its personal data kept, until the hold is released.
   */
  async deleteAccount(actor: SessionUser, password: string): Promise<void> {
    const u = await this.ownAccount(actor);
    const userId = u.id;
    await this.verifyPassword(u, password, 'password');
    const placeholderHash = `!erased:${randomToken()}`; // not an argon2 hash: no password ever matches it
    const now = this.now();
    // As the actor is under the write lock (transactionAs): a suspension, sign-out or password
    // change committed while the password was checked refuses the erasure like any ended session
    // (401), so an account a master suspended meanwhile stays, with its ads, for staff to look into.
    const { files, held, outbox } = await transactionAs(this.deps.db, actor, async (trx, by) => {
      const account = { id: userId, roles: await repo.rolesOf(trx, userId), status: by.userStatus, activeMasters: await repo.countActiveMasters(trx) };
      if (!can(by, 'delete', account)) throw new Conflict('profile.last_master');
      const kept = await beforeAdsOfUserDeleted(trx, userId, 'profile_deletion', now);
      const adFiles = (await repo.deleteAdsOf(trx, userId)).filter((f) => !kept.has(f));
      const accountHeld = await isUserHeld(trx, userId);
      let named: string[] = [];
      if (accountHeld) {
        // Its picture stays on disk for the hold, for staff alone: the account is gone for everyone else.
        const avatar = await repo.closeAccount(trx, userId, placeholderHash, now);
        if (avatar) await withdraw(trx, [avatar], HOLD_REASON);
      } else named = await repo.eraseUser(trx, userId, placeholderHash, now);
      return { files: adFiles, held: accountHeld, outbox: named };
    });
    this.deps.hub.disconnectUser(userId);
    const { dataDir } = this.deps.config;
    // The erasure has committed: nothing below throws (a file that cannot be removed is logged, and
    // the hourly sweep-orphan-uploads removes it once it can), so the answer says it was done.
    // The texts and mail written to the outbox for it (no Textbelt key, no SMTP_URL) name its number and address.
    forgetInOutbox(dataDir, outbox, this.deps.log);
    if (!held) removeUpload(dataDir, u.avatar, this.deps.log);
    for (const f of files) removeUpload(dataDir, f, this.deps.log);
  }
}
