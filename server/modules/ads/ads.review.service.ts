import type { AppDeps } from '../../core/deps.ts';
import type { SessionUser } from '../../core/auth.ts';
import { Conflict, Forbidden, Invalid } from '../../core/errors.ts';
import { isOwner } from '../../core/policy.ts';
import { DAY_MS } from '../../core/clock.ts';
import { writeAudit } from '../../core/audit.ts';
import { paging } from '../../core/http.ts';
import { postToLedger } from '../wallets/ledger.service.ts';
import { toStaffAd } from './ads.dto.ts';
import type { AdStatus } from './ads.tables.ts';
import { adObject, can } from './ads.policy.ts';
import * as repo from './ads.repository.ts';

export const REASON_MIN = 3;
export const REASON_MAX = 500;

const actorOf = (u: SessionUser) => ({ id: u.id, email: u.email });
const unique = (ids: string[]) => [...new Set(ids)];

/**
 * Staff review of ads. Nobody reviews, disables or re-enables their own ad (another admin or a
 * master must): a batch holding one is refused whole, with 409 (a 403 would send the browser to
 * sign-in). Approving an ad of a pending (not yet approved) owner is allowed: the ad
 * becomes approved and its time starts, but it stays hidden until a master approves the owner
 * (PRODUCT §2); the owner's approval makes it public at once (trigger ads_visible_owner).
 */
export class ReviewService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  async pending(q: { page?: number; pageSize?: number; includeUnpaid?: boolean }) {
    const { page, pageSize, offset } = paging(q);
    const statuses: AdStatus[] = q.includeUnpaid ? ['in_review', 'unpaid'] : ['in_review'];
    const { rows, total } = await repo.listForStaff(this.deps.db, { statuses, order: 'queue', offset, limit: pageSize });
    return { pendingAds: rows.map(toStaffAd), total, page, pageSize };
  }

  async approved(q: { page?: number; pageSize?: number; status?: 'approved' | 'disabled' | 'expired' }) {
    const { page, pageSize, offset } = paging(q);
    const statuses: AdStatus[] = q.status ? [q.status] : ['approved', 'disabled', 'expired'];
    const { rows, total } = await repo.listForStaff(this.deps.db, { statuses, order: 'published', offset, limit: pageSize });
    return { approvedAds: rows.map(toStaffAd), total, page, pageSize };
  }

  /**
   * Approves in_review ads, or rejects them with a reason and a full refund to the wallet that paid
   * (idempotency key ad-refund:<id>). Ads not in review are skipped; returns how many changed.
   */
  async decide(actor: SessionUser, input: { adIds: string[]; decision: 'approve' | 'reject'; reason?: string }): Promise<{ updated: number }> {
    const reason = input.reason?.replace(/\s+/g, ' ').trim() ?? '';
    if (input.decision === 'reject' && (reason.length < REASON_MIN || reason.length > REASON_MAX)) {
      throw new Invalid('reason', 'ad.rejection_reason_length', { min: REASON_MIN, max: REASON_MAX });
    }
    const now = this.deps.clock.now();
    const at = now.toISOString();
    const changed: { id: string; ownerId: string; status: AdStatus }[] = [];
    await this.deps.db.transaction().execute(async (trx) => {
      for (const id of unique(input.adIds)) {
        const ad = await repo.findAd(trx, id);
        if (ad) mayReview(actor, 'review', ad);
        if (!ad || ad.status !== 'in_review') continue;
        if (input.decision === 'approve') {
          const expiresAt = new Date(now.getTime() + (ad.duration_days ?? 30) * DAY_MS).toISOString();
          if (!(await repo.approve(trx, id, at, expiresAt))) continue;
          await repo.refreshVisibility(trx, [id]);
          await writeAudit(trx, {
            actor: actorOf(actor),
            action: 'ad.approve',
            targetType: 'ad',
            targetId: id,
            before: { status: ad.status },
            after: { status: 'approved', expiresAt },
            at,
          });
          changed.push({ id, ownerId: ad.owner_id, status: 'approved' });
        } else {
          if (!(await repo.reject(trx, id, reason, at))) continue;
          let refundedCents = 0;
          if (ad.paid_wallet_id && ad.price_cents && ad.price_cents > 0) {
            await postToLedger(trx, {
              walletId: ad.paid_wallet_id,
              amountCents: ad.price_cents,
              kind: 'ad_refund',
              reference: id,
              idempotencyKey: `ad-refund:${id}`,
              at,
            });
            refundedCents = ad.price_cents;
          }
          await writeAudit(trx, {
            actor: actorOf(actor),
            action: 'ad.reject',
            targetType: 'ad',
            targetId: id,
            before: { status: ad.status },
            after: { status: 'rejected', reason, refundedCents, walletId: ad.paid_wallet_id },
            at,
          });
          changed.push({ id, ownerId: ad.owner_id, status: 'rejected' });
        }
      }
    });
    for (const c of changed) this.deps.hub.sendToUser(c.ownerId, 'adStatusUpdate', { adId: c.id, status: c.status });
    return { updated: changed.length };
  }

  /** Disables approved ads or enables disabled ones (an enabled ad whose time ran out becomes expired). */
  async setStatus(actor: SessionUser, input: { adIds: string[]; status: 'approved' | 'disabled' }): Promise<{ updated: number }> {
    const at = this.deps.clock.now().toISOString();
    let updated = 0;
    await this.deps.db.transaction().execute(async (trx) => {
      for (const id of unique(input.adIds)) {
        const before = await repo.findAd(trx, id);
        if (before) mayReview(actor, 'moderate', before);
        if (!before || !(await repo.setStaffStatus(trx, id, input.status, at))) continue;
        await repo.refreshVisibility(trx, [id]);
        const after = (await repo.findAd(trx, id))!;
        await writeAudit(trx, {
          actor: actorOf(actor),
          action: input.status === 'disabled' ? 'ad.disable' : 'ad.enable',
          targetType: 'ad',
          targetId: id,
          before: { status: before.status },
          after: { status: after.status },
          at,
        });
        updated++;
      }
    });
    return { updated };
  }

  async screeningLog(q: { page?: number; pageSize?: number }) {
    const { page, pageSize, offset } = paging(q);
    const { rows, total } = await repo.listScreening(this.deps.db, { offset, limit: pageSize });
    return {
      entries: rows.map((r) => ({
        id: r.id,
        userId: r.user_id,
        userEmail: r.user_email,
        field: r.field,
        term: r.term,
        title: r.title,
        description: r.description,
        createdAt: r.created_at,
      })),
      total,
      page,
      pageSize,
    };
  }
}

/**
 * Asks the policy; throwing inside the transaction rolls back whatever the batch already changed.
 * Staff get here (the /api/admin gate): a refusal is their own ad, 409.
 */
function mayReview(actor: SessionUser, action: 'review' | 'moderate', ad: { owner_id: string }): void {
  if (can(actor, action, adObject(ad))) return;
  throw isOwner(actor, ad.owner_id) ? new Conflict('ad.review_own_ad') : new Forbidden();
}
