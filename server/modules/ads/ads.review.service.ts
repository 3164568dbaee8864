import type { AppDeps } from '../../core/deps.ts';
import { transactionAs, type SessionUser } from '../../core/auth.ts';
import { Conflict, Forbidden, Invalid } from '../../core/errors.ts';
import { isOwner } from '../../core/policy.ts';
import { DAY_MS } from '../../core/clock.ts';
import { writeAudit } from '../../core/audit.ts';
import { paging } from '../../core/http.ts';
import { cleanLine } from '../../../contract/rules.ts';
import { postToLedger } from '../wallets/ledger.service.ts';
import { findWallet } from '../wallets/wallets.repository.ts';
import { toStaffAd } from './ads.dto.ts';
import type { AdStatus, RejectionCategory } from './ads.tables.ts';
import { parseStaffQuery, staffReads } from '../moderation/moderation.match.ts';
import { accountsLinkedTo } from '../moderation/moderation.linked.repository.ts';
import { keepShownText } from '../moderation/moderation.duplicates.ts';
import type { Executor } from '../../core/db.ts';
import { adObject, can } from './ads.policy.ts';
import * as repo from './ads.repository.ts';
import * as revisionsRepo from './ads.revisions.ts';
import { mailOwners, type AdMail } from './ads.mail.ts';
import { paymentKey } from './ads.versions.ts';
import { dropPhotos } from './ads.photos.ts';
import { placeOpen } from './ads.service.ts';
import { adReason, approveUploads, photosOfAds, restore, withdraw } from '../uploads/uploads.withdrawn.ts';
import { DEFAULT_AD_DAYS } from '../pricing/pricing.service.ts';
import type { StoredPhoto } from './ads.dto.ts';

export const REASON_MIN = 3;
export const REASON_MAX = 500;

const actorOf = (u: SessionUser) => ({ id: u.id, email: u.email });
const unique = (ids: string[]) => [...new Set(ids)];

/**
 * Staff review of ads. Nobody reviews, disables or re-enables their own ad, nor one of an account
 * the product links to them by a phone or a photo (another admin or a master must): a batch holding
 * one is refused whole, with 409 naming them (a 403 would send the browser to sign-in). Approving an ad of a pending (not yet approved) owner is allowed: the ad
 * becomes approved and its time starts, but it stays hidden until a master approves the owner
 * (PRODUCT §2); the owner's approval makes it public at once (trigger ads_visible_owner).
 */
export class ReviewService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  /**
   * The review queue; `query` searches it as staff search does (staffMatchAd: an ad id, words,
   * phone digits, the owner's e-mail or nickname, the text of an edit, an IP its owner signed in from).
   */
  async pending(q: { page?: number; pageSize?: number; includeUnpaid?: boolean; query?: string }) {
    const { page, pageSize, offset } = paging(q);
    const statuses: AdStatus[] = q.includeUnpaid ? ['in_review', 'unpaid'] : ['in_review'];
    const query = parseStaffQuery(q.query);
    const reads = staffReads(this.deps, query);
    // Edits of live ads (revisions) come first, oldest first, then ads in review; a search finds either.
    const revisions = await revisionsRepo.countPending(reads, query);
    const revs = await revisionsRepo.pendingForStaff(reads, { offset, limit: Math.min(pageSize, Math.max(0, revisions - offset)), query });
    const { rows, total } = await repo.listForStaff(reads, {
      statuses,
      order: 'queue',
      offset: Math.max(0, offset - revisions),
      limit: pageSize - revs.length,
      query,
    });
    return { pendingAds: [...revs, ...(revs.length < pageSize ? rows.map((r) => toStaffAd(r)) : [])], total: total + revisions, page, pageSize };
  }

  /** The approved list (approved, disabled, expired ads); `query` searches it as the review queue's does. */
  async approved(q: { page?: number; pageSize?: number; status?: 'approved' | 'disabled' | 'expired'; query?: string }) {
    const { page, pageSize, offset } = paging(q);
    const statuses: AdStatus[] = q.status ? [q.status] : ['approved', 'disabled', 'expired'];
    const query = parseStaffQuery(q.query);
    const { rows, total } = await repo.listForStaff(staffReads(this.deps, query), { statuses, order: 'published', offset, limit: pageSize, query });
    // An ad whose term ran out is expired already, as its owner and the public see it, though the
    // expire-ads job (every 5 minutes) has not stored it yet (a held term has not run: approved);
    // the status filter reads the stored one.
    const now = this.deps.clock.now().toISOString();
    return { approvedAds: rows.map((r) => toStaffAd(r, now)), total, page, pageSize };
  }

  /**
   * Approves in_review ads, or rejects them with a reason and a full refund to the wallet that paid
   * (idempotency key ad-refund:<id>[:<attempt>]). Ids of pending revisions approve or reject the
   * edit. Anything else (an ad no longer in review, an edit no longer pending or whose ad is gone,
   * an ad edited since the version `seen` names, approved or rejected alike) is skipped; returns how
   * many changed. Owners are told by e-mail.
   */
  async decide(
    actor: SessionUser,
    input: { adIds: string[]; decision: 'approve' | 'reject'; reason?: string; category?: RejectionCategory; seen?: { id: string; updatedAt: string }[] },
  ): Promise<{ updated: number }> {
    // What the reviewer saw of each ad (its updatedAt in the queue): an owner may edit an ad in
    // review, and an approval must not publish text nobody reviewed, nor a rejection send back (with
    // a reason that may no longer apply) text nobody read.
    const seen = seenVersions(input.seen);
    const category: RejectionCategory = input.category ?? 'other';
    // One line without control, format and bidi characters, as ad text is: it is audited and mailed to the owner.
    const reason = cleanLine(input.reason ?? '');
    if (input.decision === 'reject' && (reason.length < REASON_MIN || reason.length > REASON_MAX)) {
      throw new Invalid('reason', 'ad.rejection_reason_length', { min: REASON_MIN, max: REASON_MAX });
    }
    const now = this.deps.clock.now();
    const at = now.toISOString();
    const changed: { id: string; ownerId: string; status: AdStatus }[] = [];
    const mails: AdMail[] = [];
    const unusedPhotos: { adId: string; ownerId: string; photos: StoredPhoto[] }[] = [];
    await transactionAs(this.deps.db, actor, async (trx, by) => {
      // demoted or suspended since the request came in: refused
      const linked = await linksThatCount(trx, by.id, input.decision === 'approve');
      /** The batch's ads the reviewer may not decide (refusedFor): once there is one, the rest is only checked. */
      const refused: string[] = [];
      for (const id of unique(input.adIds)) {
        const ad = await repo.findAd(trx, id);
        if (!ad) {
          // An edit of a live ad, by the revision's id (the queue lists it with revisionOf).
          const rev = await revisionsRepo.findPendingRevision(trx, id);
          if (!rev) continue;
          if (refusedFor(by, 'review', { owner_id: rev.owner_id }, linked)) refused.push(id);
          if (refused.length) continue;
          // An edit whose ad is gone (deleted meanwhile) has nothing left to change: skipped like an ad no longer in review.
          const live = await repo.findAd(trx, rev.ad_id);
          if (!live) continue;
          /** A held term this approval started (the audit row says so, with its new end). */
          let termStarted: { termStarted?: true; expiresAt?: string | null } = {};
          // An edit into a place disabled since it was made would take the live ad off the site: left
          // pending (the owner can move the ad, and the edit with it).
          if (input.decision === 'approve' && !(await placeOpen(trx, rev.state_id, rev.city_id))) continue;
          if (input.decision === 'approve') {
            unusedPhotos.push({ adId: rev.ad_id, ownerId: rev.owner_id, photos: await revisionsRepo.applyRevision(trx, rev, actor.id, at) });
            await approveUploads(trx, rev.ad_id, rev.photos_json); // the edit's new photos are public from now
            // An edit that takes a held ad out of a closed place starts its paid term there, as a move
            // does: it never shows with its term still held (which a later move would start again, unpaid).
            if (live.term_held) await repo.startHeldTermsOf(trx, [rev.ad_id], at);
            const after = await trx.selectFrom('ads').select(['visible', 'term_held', 'expires_at']).where('id', '=', rev.ad_id).executeTakeFirst();
            if (live.term_held && after?.term_held === 0) termStarted = { termStarted: true, expiresAt: after.expires_at };
            // "Your changes are live" only of an ad that shows (not one offline, taken down, of a pending
            // owner, past its term or in a disabled place): the others are told it is their version now.
            const shown = after?.visible === 1;
            mails.push({ ownerId: rev.owner_id, adId: rev.ad_id, template: shown ? 'revisionApproved' : 'revisionApprovedHidden', title: rev.title });
          } else {
            unusedPhotos.push({ adId: rev.ad_id, ownerId: rev.owner_id, photos: await revisionsRepo.rejectRevision(trx, rev, reason, actor.id, at) });
            mails.push({ ownerId: rev.owner_id, adId: rev.ad_id, template: 'revisionRejected', title: rev.title, reason });
          }
          // The text it no longer shows (the old one, or the refused edit's) flags nobody from now, as its photos do not (dropPhotos).
          await keepShownText(trx, rev.ad_id);
          await writeAudit(trx, {
            actor: actorOf(actor),
            action: input.decision === 'approve' ? 'ad.revision_approve' : 'ad.revision_reject',
            targetType: 'ad',
            targetId: rev.ad_id,
            before: { title: live.title, revision: rev.id },
            after: input.decision === 'approve' ? { title: rev.title, revision: rev.id, ...termStarted } : { revision: rev.id, reason, category },
            at,
          });
          changed.push({ id: rev.ad_id, ownerId: rev.owner_id, status: live.status });
          continue;
        }
        if (refusedFor(by, 'review', ad, linked)) refused.push(id);
        if (refused.length) continue;
        if (ad.status !== 'in_review') continue;
        if (changedSince(seen, ad)) continue;
        if (input.decision === 'approve') {
          // Its city or state disabled since it was posted: its paid term would run where it shows nowhere
          // (pay and renew refuse such a place too). Left in review; the owner can move it.
          if (!(await placeOpen(trx, ad.state_id, ad.city_id))) continue;
          const expiresAt = new Date(now.getTime() + (ad.duration_days ?? DEFAULT_AD_DAYS) * DAY_MS).toISOString();
          if (!(await repo.approve(trx, id, at, expiresAt))) continue;
          await approveUploads(trx, id, ad.photos_json); // its photos are public from now (while it is)
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
          // "It is now on XG Marketplace" only of an ad that shows: one its owner set offline while it
          // waited is told so (a pending owner's, by mailOwners).
          mails.push({ ownerId: ad.owner_id, adId: id, template: ad.online === 1 ? 'adApproved' : 'adApprovedOffline', title: ad.title, expiresAt });
        } else {
          if (!(await repo.reject(trx, id, reason, category, at))) continue;
          let refundedCents = 0;
          let refund: AdMail['refund'];
          if (ad.paid_wallet_id && ad.price_cents && ad.price_cents > 0) {
            await postToLedger(trx, {
              walletId: ad.paid_wallet_id,
              amountCents: ad.price_cents,
              kind: 'ad_refund',
              reference: id,
              idempotencyKey: paymentKey('ad-refund', id, ad.pay_attempt),
              at,
            });
            refundedCents = ad.price_cents;
            const wallet = await findWallet(trx, ad.paid_wallet_id);
            refund = { cents: refundedCents, wallet: wallet?.wallet_type === 'USD' ? 'USD' : 'promo' };
          }
          await writeAudit(trx, {
            actor: actorOf(actor),
            action: 'ad.reject',
            targetType: 'ad',
            targetId: id,
            before: { status: ad.status },
            after: { status: 'rejected', reason, category, refundedCents, walletId: ad.paid_wallet_id },
            at,
          });
          changed.push({ id, ownerId: ad.owner_id, status: 'rejected' });
          mails.push({ ownerId: ad.owner_id, adId: id, template: 'adRejected', title: ad.title, reason, refund });
        }
      }
      if (refused.length) throw conflictOver(refused);
    });
    for (const c of changed) this.deps.hub.sendToUser(c.ownerId, 'adStatusUpdate', { adId: c.id, status: c.status });
    for (const u of unusedPhotos) await dropPhotos(this.deps, u.adId, u.ownerId, u.photos);
    await mailOwners(this.deps, mails);
    return { updated: changed.length };
  }

  /**
   * Disables approved or expired ads (an expired one too: its owner must not renew a taken-down ad
   * back into view), or enables disabled ones (an enabled ad whose time ran out becomes expired).
   * Owners are told by e-mail, once per ad that changed. An ad to enable that changed since the
   * version `seen` names (another staff member's newer takedown, its owner's edit) is skipped: a
   * stale list must not put back in view what a newer decision took down. A takedown, the cautious
   * direction, applies whatever the list showed (an owner's bump must not make staff press again).
   */
  async setStatus(
    actor: SessionUser,
    input: { adIds: string[]; status: 'approved' | 'disabled'; seen?: { id: string; updatedAt: string }[] },
  ): Promise<{ updated: number }> {
    const seen = seenVersions(input.seen);
    const at = this.deps.clock.now().toISOString();
    const changed: { ownerId: string; adId: string; status: AdStatus }[] = [];
    const mails: AdMail[] = [];
    await transactionAs(this.deps.db, actor, async (trx, by) => {
      const linked = await linksThatCount(trx, by.id, input.status === 'approved');
      const refused: string[] = [];
      for (const id of unique(input.adIds)) {
        const before = await repo.findAd(trx, id);
        if (before && refusedFor(by, 'moderate', before, linked)) refused.push(id);
        // A staff status change stores updated_at too (setStaffStatus): another's newer one shows here.
        if (refused.length || !before || (input.status === 'approved' && changedSince(seen, before))) continue;
        if (!(await repo.setStaffStatus(trx, id, input.status, at))) continue;
        await repo.refreshVisibility(trx, [id]);
        // A taken-down ad's photos stop answering the public too (their URLs are known); enabled, they answer again.
        if (input.status === 'disabled') await withdraw(trx, await photosOfAds(trx, { adId: id }), adReason(id));
        else await restore(trx, adReason(id)); // in a closed place, its closed-place rows stay (withdrawClosedPlace)
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
        changed.push({ ownerId: after.owner_id, adId: id, status: after.status });
        mails.push({ ownerId: after.owner_id, adId: id, template: input.status === 'disabled' ? 'adDisabled' : 'adEnabled', title: after.title });
      }
      if (refused.length) throw conflictOver(refused);
    });
    // After commit: an owner's open "my ads" shows the ad taken down (or back) at once.
    for (const c of changed) this.deps.hub.sendToUser(c.ownerId, 'adStatusUpdate', { adId: c.adId, status: c.status });
    await mailOwners(this.deps, mails);
    return { updated: changed.length };
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

/** What a staff member saw of each ad: its id → its updatedAt in their list. */
function seenVersions(seen: readonly { id: string; updatedAt: string }[] | undefined): ReadonlyMap<string, string> {
  return new Map((seen ?? []).map((s) => [s.id, s.updatedAt]));
}

/** An ad the staff member named in `seen` that changed since (an ad not named is not checked). */
function changedSince(seen: ReadonlyMap<string, string>, ad: { id: string; updated_at: string }): boolean {
  return seen.has(ad.id) && seen.get(ad.id) !== ad.updated_at;
}

/**
 * The accounts linked to a reviewer (accountsLinkedTo), read once per batch, when the decision
 * helps the ads' owners (approving, enabling): its owner can make a link alone (a cart ad with a
 * staff member's public phone or photo), and must not thereby keep that staff member from
 * rejecting or taking down their ads. Otherwise none.
 */
async function linksThatCount(trx: Executor, reviewerId: string, helpsOwner: boolean): Promise<ReadonlySet<string>> {
  return helpsOwner ? accountsLinkedTo(trx, reviewerId) : new Set();
}

/**
 * Asks the policy. Staff get here (the /api/admin gate): a refusal is their own ad, or one of an
 * account linked to them (`linked`: linksThatCount), and answers true; the caller refuses the whole
 * batch (conflictOver) once it has checked the rest. Anything else is thrown at once (403); throwing
 * inside the transaction rolls back whatever the batch already changed.
 */
function refusedFor(actor: SessionUser, action: 'review' | 'moderate', ad: { owner_id: string }, linked: ReadonlySet<string>): boolean {
  const ownerLinkedToActor = linked.has(ad.owner_id);
  if (can(actor, action, { ...adObject(ad), ownerLinkedToActor })) return false;
  if (isOwner(actor, ad.owner_id) || ownerLinkedToActor) return true;
  throw new Forbidden();
}

/**
 * The 409 of a batch holding ads the reviewer may not decide: `adIds` names them (the ids sent, a
 * pending edit's own), comma-separated, so that the screen can say which to leave out.
 */
const conflictOver = (adIds: readonly string[]) => new Conflict('ad.review_own_ad', { adIds: adIds.join(',') });
