import type { AppDeps } from '../../core/deps.ts';
import type { SessionUser } from '../../core/auth.ts';
import { NotFound } from '../../core/errors.ts';
import { isOwner } from '../../core/policy.ts';
import { uploadUrl } from '../uploads/uploads.storage.ts';
import type { UserDetail } from '../../../contract/api/moderation.ts';
import { isHoldAction, toAuditEntry } from '../audit/audit.service.ts';
import { may } from './moderation.access.ts';
import { toHold, toModAd } from './moderation.dto.ts';
import * as repo from './moderation.account.repository.ts';
import { adsOfUser } from './moderation.repository.ts';
import { relatedAccounts } from './moderation.linked.repository.ts';
import { userListTotals } from './moderation.counts.ts';

// The staff user page (GET /api/admin/get-user/:id): one account and everything about it.

/** The user page's lists stop here, each with its total (the evidence export has everything). */
const LIST_LIMIT = 200;

/** One user, whole: in one read transaction, so every part describes the same moment. */
export async function userDetail(deps: Pick<AppDeps, 'db'>, actor: SessionUser, id: string): Promise<UserDetail> {
  return deps.db.transaction().execute(async (trx) => {
    const u = await repo.findUser(trx, id);
    if (!u) throw new NotFound('moderation.user_not_found');
    may(actor, 'viewUser', u.id);
    const adIds = await repo.adIdsOfUser(trx, id);
    // Reports about an ad its owner deleted stay part of the account's history, as its takedowns do.
    const everAdIds = await repo.everAdIdsOfUser(trx, id);
    const [roles, ads, reports, wallets, ledger, invoices, signIns, holds, related, screening, audit] = [
      await repo.rolesOf(trx, id),
      await adsOfUser(trx, id, LIST_LIMIT),
      await repo.reportsAbout(trx, everAdIds, LIST_LIMIT),
      await repo.walletsOf(trx, id),
      await repo.ledgerOf(trx, id, LIST_LIMIT),
      await repo.invoicesOf(trx, id, LIST_LIMIT),
      await repo.signInsOf(trx, id, LIST_LIMIT),
      await repo.holdsOfUser(trx, id),
      await relatedAccounts(trx, id, 50),
      await repo.screeningOf(trx, id, 50),
      await repo.auditAbout(trx, id, 100),
    ];
    const totals = await userListTotals(trx, id, everAdIds);
    const order = ['PROVIDER_USER', 'ADMIN_USER', 'MASTER_USER'] as const;
    // Staff reading their own account read no report about their ads, nor how another admin
    // closed one (its note), as the reports list hides them (reports.policy.ts); nor the legal
    // holds on it, nor their log rows (the reason, the release note), as the holds list hides them.
    const own = isOwner(actor, u.id);
    return {
      user: {
        id: u.id,
        email: u.email,
        nickname: u.nickname,
        status: u.status,
        deleted: u.deleted_at !== null,
        roles: order.filter((r) => roles.includes(r)),
        phone: u.phone,
        phoneVerified: u.phone !== null && u.phone_verified_at !== null,
        avatarUrl: uploadUrl(u.avatar),
        createdAt: u.created_at,
        deletedAt: u.deleted_at,
        held: holds.some((h) => h.released_at === null),
      },
      ads: ads.map(toModAd),
      adsTotal: adIds.length,
      reports: reports.map((r) => ({ id: r.id, kind: r.kind, adId: r.ad_id, message: own ? '' : r.message, status: r.status, createdAt: r.created_at })),
      reportsTotal: totals.reportsTotal,
      wallets: wallets.map((w) => ({ id: w.id, walletType: w.wallet_type, balanceCents: w.balance_cents })),
      ledger: ledger.map((l) => ({
        id: l.id,
        walletId: l.wallet_id,
        walletType: l.wallet_type,
        amountCents: l.amount_cents,
        kind: l.kind,
        reference: l.reference,
        createdAt: l.created_at,
      })),
      ledgerTotal: totals.ledgerTotal,
      invoices: invoices.map((i) => ({
        id: i.id,
        invoiceId: i.btcpay_id,
        amountCents: i.amount_cents,
        status: i.status,
        createdAt: i.created_at,
        creditedAt: i.credited_at,
      })),
      invoicesTotal: totals.invoicesTotal,
      signIns: signIns.map((s) => ({ at: s.at, ip: s.ip, userAgent: s.user_agent, success: s.success === 1, failure: s.failure })),
      signInsTotal: totals.signInsTotal,
      holds: own ? [] : holds.map(toHold),
      related,
      screening: screening.map((r) => ({
        id: r.id,
        userId: r.user_id,
        userEmail: r.user_email,
        field: r.field,
        term: r.term,
        title: r.title,
        description: r.description,
        createdAt: r.created_at,
      })),
      audit: audit.filter((r) => !own || (r.target_type !== 'report' && !isHoldAction(r.action))).map((r) => toAuditEntry(r)),
    };
  });
}
