import type { AppDeps } from '../../core/deps.ts';
import { transactionAs, type SessionUser } from '../../core/auth.ts';
import { writeAudit } from '../../core/audit.ts';
import { Conflict, Forbidden, NotFound } from '../../core/errors.ts';
import { isMaster, isOwner } from '../../core/policy.ts';
import { paging } from '../../core/http.ts';
import type { Executor } from '../../core/db.ts';
import type { StaffRole, UserStatus } from '../../core/schema.ts';
import type { ManagedUser } from '../../../contract/api/master.ts';
import { countActiveMasters } from '../profile/profile.repository.ts';
import { approvesLinkedAccount, can, type AccountChange, type MasterAction } from './master.policy.ts';
import { accountsLinkedTo } from '../moderation/moderation.linked.repository.ts';
import * as repo from './master.repository.ts';
import { photosOfAds, restore, unapprovedOwnerReason, userReason, withdraw } from '../uploads/uploads.withdrawn.ts';
import { startHeldTerms } from '../ads/ads.lifecycle.repository.ts';
import { endPendingLinks } from '../auth/auth.repository.ts';
import { composeMail, pageLink } from '../../core/mail-templates.ts';

/** A user as the master's lists and changes answer it (contract/api/master.ts). */
export type UserView = ManagedUser;

export interface ListQuery {
  page?: number;
  pageSize?: number;
  query?: string;
  status?: 'approved' | 'suspended';
}

const ROLE_ORDER: StaffRole[] = ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'];

export class MasterService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  private async list(statuses: UserStatus[], q: ListQuery): Promise<{ users: UserView[]; total: number }> {
    const { pageSize, offset } = paging(q);
    const query = q.query?.trim() || undefined;
    const { rows, total } = await repo.listUsers(this.deps.db, { statuses, query, limit: pageSize, offset });
    const roles = await repo.rolesByUser(
      this.deps.db,
      rows.map((r) => r.id),
    );
    return {
      users: rows.map((r) => ({ id: r.id, email: r.email, nickname: r.nickname, status: r.status, roles: roles.get(r.id) ?? [], createdAt: r.created_at })),
      total,
    };
  }

  async pendingUsers(q: ListQuery) {
    const { users, total } = await this.list(['pending'], q);
    return { pendingUsers: users, total };
  }

  /** Approved and suspended users (everyone past review); `status` narrows to one of them. */
  async approvedUsers(q: ListQuery) {
    const { users, total } = await this.list(q.status ? [q.status] : ['approved', 'suspended'], q);
    return { approvedUsers: users, total };
  }

  private async load(db: Executor, userId: string): Promise<UserView> {
    const u = await repo.findUser(db, userId);
    if (!u) throw new NotFound('master.user_not_found');
    const roles = (await repo.rolesByUser(db, [u.id])).get(u.id) ?? [];
    return { id: u.id, email: u.email, nickname: u.nickname, status: u.status, roles, createdAt: u.created_at };
  }

  /**
   * `from`: the roles the master's screen showed. The set sent is built from that row, so when
   * another master changed the roles meanwhile, writing it would undo their change: refused.
   */
  async updateRoles(actor: SessionUser, userId: string, requested: StaffRole[], from?: StaffRole[]): Promise<UserView> {
    // PROVIDER_USER is every account's base role: always kept, whatever was sent.
    const roles = ROLE_ORDER.filter((r) => r === 'PROVIDER_USER' || requested.includes(r));
    const now = this.deps.clock.now().toISOString();
    return transactionAs(this.deps.db, actor, async (trx, by) => {
      // demoted or suspended meanwhile: their old powers are gone
      const before = await this.load(trx, userId);
      const change: AccountChange = { user: before, roles, activeMasters: await countActiveMasters(trx) };
      if (!can(by, 'setRoles', change)) throw refusal(by, 'setRoles', change);
      if (from && !sameRoles(before.roles, from)) throw new Conflict('master.user_changed');
      if (sameRoles(before.roles, roles)) return before; // nothing changes: nothing to audit
      // A staff role given to a suspended account waits armed for whoever lifts the suspension (a
      // master acting on a row that still showed it approved, say): refused. Taking roles away is fine.
      if (before.status === 'suspended' && roles.some((r) => !before.roles.includes(r))) throw new Conflict('master.user_suspended');
      await repo.setRoles(trx, userId, roles);
      const after = { ...before, roles };
      await writeAudit(trx, { actor, action: 'user.roles', targetType: 'user', targetId: userId, before: { roles: before.roles }, after: { roles }, at: now });
      return after;
    });
  }

  /**
   * `from`: the status the master's screen showed. An approval clicked on a pending row must not
   * lift a suspension another master made meanwhile: when the status is no longer `from`, refused.
   */
  async updateStatus(actor: SessionUser, userId: string, status: UserStatus, from?: UserStatus): Promise<UserView> {
    const now = this.deps.clock.now().toISOString();
    let changed = false;
    let welcome: { titles: string; offlineTitles: string } | null = null; // approved at last: the e-mail that says so, with the ads that start
    const after = await transactionAs(this.deps.db, actor, async (trx, by) => {
      const before = await this.load(trx, userId);
      // The links are read for an approval only (the conflict-of-interest rule, master.policy.ts): a suspension is never refused for one.
      const approves = status === 'approved' && before.status !== 'approved';
      const linkedToActor = approves && isMaster(by) && (await accountsLinkedTo(trx, by.id)).has(userId);
      const change: AccountChange = { user: before, status, activeMasters: await countActiveMasters(trx), linkedToActor };
      if (!can(by, 'setStatus', change)) throw refusal(by, 'setStatus', change);
      if (from && before.status !== from) throw new Conflict('master.user_changed');
      if (before.status === status) return before; // nothing changes: nothing to audit
      changed = true;
      // Read before the change: whether staff ever approved the account (the welcome goes once).
      const everApproved = status === 'approved' && (await repo.approvedAt(trx, userId)) !== null;
      await repo.setStatus(trx, userId, status, now);
      // A suspended account's photos stop answering the public (its ads are hidden); lifted, they answer again.
      if (status === 'suspended') {
        await withdraw(trx, await photosOfAds(trx, { ownerId: userId }), userReason(userId));
        // Links mailed before end too: a confirmed e-mail change would move the suspended account
        // away from the address staff know it by, and free that address for a new sign-up.
        await endPendingLinks(trx, userId);
      } else if (before.status === 'suspended') await restore(trx, userReason(userId));
      // Not approved (pending again): its ads show nowhere, nor their photos but to it and staff; approved, they show.
      if (status === 'pending') await withdraw(trx, await photosOfAds(trx, { ownerId: userId }), unapprovedOwnerReason(userId));
      else if (status === 'approved') await restore(trx, unapprovedOwnerReason(userId));
      // Approved (at last, or again): the ads staff approved while it was not start their paid term now.
      // Not where its city or state is closed: that one starts when staff open it, or the owner moves it.
      const terms = status === 'approved' ? await startHeldTerms(trx, userId, now) : { showing: [], offline: [] };
      const started = [...terms.showing, ...terms.offline];
      // Approved for the first time (also after a suspension while pending), or held paid terms start.
      if (status === 'approved' && (!everApproved || started.length > 0)) {
        // Those that show, and those whose term starts but that the owner set offline: the e-mail tells them apart.
        const titlesOf = async (ids: string[]) =>
          ids.length ? (await trx.selectFrom('ads').select('title').where('id', 'in', ids).execute()).map((t) => `“${t.title}”`).join(', ') : '';
        welcome = { titles: await titlesOf(terms.showing), offlineTitles: await titlesOf(terms.offline) };
      }
      await writeAudit(trx, {
        actor,
        action: 'user.status',
        targetType: 'user',
        targetId: userId,
        before: { status: before.status },
        after: started.length ? { status, adTermsStarted: started } : { status },
        at: now,
      });
      return { ...before, status };
    });
    // After commit: the auth hook already refuses their cookie; this also ends their open sockets.
    if (status === 'suspended') this.deps.hub.disconnectUser(userId, 4003, 'account suspended');
    else if (changed) this.deps.hub.sendToUser(userId, 'accountStatusUpdate', { status }); // their open pages follow
    if (welcome !== null) await this.mailApproved(userId, welcome);
    return after;
  }

  /** Tells a user their account is approved, in the language they last used, with the ads that start showing (and those offline). Best effort. */
  private async mailApproved(userId: string, titles: { titles: string; offlineTitles: string }): Promise<void> {
    const u = await this.deps.db.selectFrom('users').select(['email', 'nickname', 'locale']).where('id', '=', userId).executeTakeFirst();
    if (!u) return;
    try {
      const link = pageLink(this.deps.config.publicUrl, u.locale, '/admin/dashboard/my-ads');
      await this.deps.mailer.send(composeMail('accountApproved', u.locale, u.email, { nickname: u.nickname, ...titles, link }));
    } catch (err) {
      this.deps.log.error({ err, userId }, 'could not e-mail a user that their account is approved');
    }
  }
}

const sameRoles = (a: readonly StaffRole[], b: readonly StaffRole[]) => a.length === b.length && a.every((r) => b.includes(r));

/** Why the policy said no, as the routes have always answered it (a master gets 409s: 403 would send them to sign-in). */
function refusal(actor: SessionUser, action: MasterAction, change: AccountChange) {
  if (!isMaster(actor)) return new Forbidden();
  if (action === 'setStatus' && approvesLinkedAccount(change)) return new Conflict('master.user_linked');
  if (isOwner(actor, change.user.id)) return new Conflict(action === 'setRoles' ? 'master.cannot_remove_own_master' : 'master.cannot_suspend_self');
  return new Conflict('master.last_master');
}
