import type { AppDeps } from '../../core/deps.ts';
import { currentActor, transactionAs, type SessionUser } from '../../core/auth.ts';
import { Conflict, Invalid, NotFound } from '../../core/errors.ts';
import { WindowLimiter } from '../../core/ratelimit.ts';
import { newId } from '../../core/ids.ts';
import { DAY_MS, HOUR_MS } from '../../core/clock.ts';
import { paging } from '../../core/http.ts';
import { postToLedger } from '../wallets/ledger.service.ts';
import { usableWallet, toWalletDto, type WalletDto } from '../wallets/wallets.service.ts';
import { quotedPrice, type Quote } from '../pricing/pricing.service.ts';
import { uploadUrl } from '../uploads/uploads.storage.ts';
import { beforeAdDeleted, photoFiles } from '../moderation/moderation.holds.ts';
import { unreviewedReason, withdraw } from '../uploads/uploads.withdrawn.ts';
import { fingerprintAd, recordFingerprint } from '../moderation/moderation.duplicates.ts';
import { sinceUtcDays } from '../analytics/analytics.service.ts';
import type { AdActivity, AdCounts, OwnAdsList, Revision } from '../../../contract/api/ads.ts';
import { checkAdDetails, checkAdFields, MAX_PHOTOS, type AdFieldsInput } from './ads.rules.ts';
import { encodeAdPhotos, removeAdPhotos } from './ads.images.ts';
import { toOwnerAd, type OwnerAdDto, type StoredPhoto } from './ads.dto.ts';
import { adFor, assertPlace, screenOrRefuse } from './ads.service.ts';
import { dropPhotos } from './ads.photos.ts';
import { contentOf, paymentKey, recordVersion } from './ads.versions.ts';
import * as repo from './ads.repository.ts';
import * as revisionsRepo from './ads.revisions.ts';
import { once } from '../../core/idempotency.ts';
import type { AdStatus } from './ads.tables.ts';

/** My ads' two lists by status: ever approved, and the others (contract/api/ads.ts OwnAdsListSchema). */
const OWN_LISTS: Record<OwnAdsList, readonly AdStatus[]> = {
  approved: ['approved', 'disabled', 'expired'],
  pending: ['unpaid', 'in_review', 'rejected'],
};
/** How many of the latest decisions on the user's ads the dashboard shows. */
const RECENT_DECISIONS = 5;

/** A renewal within this time of the last one is refused: a double click must not pay twice. */
export const RENEW_COOLDOWN_MS = 60_000;

/**
 * Edits per user an hour (any of their ads). Every edit keeps a whole version (or a revision) for
 * the life of the ad, and a refused one its text in screening_log: without a limit one account could
 * store thousands of copies a minute. Kept in memory, as the avatar's limit: it bounds how fast
 * the database can grow, and a restart giving an account a fresh hour changes nothing to that.
 */
export const EDITS_PER_HOUR = 60;

/** The edit form: post-ad's fields plus the photos to keep (a JSON array of current photo URLs). */
export type EditAdInput = AdFieldsInput & { keepPhotos?: string };

/**
 * What providers do with their own ads after posting them (issue 13): edit (in place while unpaid
 * or in review; back to the cart when rejected; as a revision reviewed before it shows when the ad
 * is live), renew, delete, and the truthful list of "my ads" (the open revision, page views).
 */
export class AdManageService {
  private readonly deps: AppDeps;
  private readonly editLimiter: WindowLimiter;
  constructor(deps: AppDeps) {
    this.deps = deps;
    this.editLimiter = new WindowLimiter(deps.clock, EDITS_PER_HOUR, HOUR_MS);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  async edit(actor: SessionUser, id: string, input: EditAdInput, newPhotos: Buffer[], ip: string | null): Promise<OwnerAdDto> {
    const ad = await adFor(this.deps.db, actor, 'edit', id);
    if (ad.status === 'disabled') throw new Conflict('ad.edit_not_allowed');
    const f = checkAdFields(input);
    const details = checkAdDetails(input);
    // The price paid (or the term bought) was the listing type's: another type is another ad. An
    // unpaid ad (a rejected one goes back to the cart) is paid at its type's price when paid.
    if (f.listingType !== ad.listing_type && ad.status !== 'unpaid' && ad.status !== 'rejected') throw new Invalid('listingType', 'ad.listing_type_locked');
    const live = ad.status === 'approved' || ad.status === 'expired';
    // The photos the owner sees in the form: the pending edit's, when there is one, else the ad's.
    const pending = live ? await revisionsRepo.pendingRevisionOf(this.deps.db, id) : undefined;
    const base = JSON.parse(pending?.photos_json ?? ad.photos_json) as StoredPhoto[];
    let keepUrls: unknown;
    try {
      keepUrls = input.keepPhotos === undefined || input.keepPhotos === '' ? [] : JSON.parse(input.keepPhotos);
    } catch {
      throw new Invalid('keepPhotos', 'ad.keep_photo_unknown');
    }
    if (!Array.isArray(keepUrls) || keepUrls.length > MAX_PHOTOS) throw new Invalid('keepPhotos', 'ad.keep_photo_unknown');
    const kept: StoredPhoto[] = [];
    for (const url of keepUrls) {
      const p = base.find((b) => uploadUrl(b.path) === url);
      if (!p) throw new Invalid('keepPhotos', 'ad.keep_photo_unknown');
      if (!kept.includes(p)) kept.push(p);
    }
    const count = kept.length + newPhotos.length;
    if (count < 1 || count > MAX_PHOTOS) throw new Invalid('photos', 'ad.photos_count', { min: 1, max: MAX_PHOTOS });
    // Counted before the screening, as posts are: a refused edit uses up its place too.
    this.editLimiter.hit([actor.id], 'ad.edit_limit', { max: EDITS_PER_HOUR });
    await screenOrRefuse(this.deps, { userId: actor.id, adId: id, title: f.title, description: f.description, ip });
    await assertPlace(this.deps.db, f.stateId, f.cityId); // early, for a quick answer; again in the transaction

    const { photos: added, hashes } = newPhotos.length ? await encodeAdPhotos(this.deps, newPhotos, actor.id) : { photos: [], hashes: [] };
    const photos = [...kept, ...added];
    const content = { ...f, photosJson: JSON.stringify(photos), details };
    let dropped: StoredPhoto[] = [];
    try {
      // Other accounts' ads with the same phone, near-identical new photos or the same text, for the reviewer.
      const fingerprint = await fingerprintAd(this.deps.db, {
        adId: id,
        ownerId: ad.owner_id,
        phone: f.phone,
        title: f.title,
        description: f.description,
        hashes: added.map((p, i) => ({ path: p.path, hash: hashes[i] })),
      });
      await this.deps.db.transaction().execute(async (trx) => {
        const at = this.now();
        // The ad as the form was checked against: deleted, disabled or edited meanwhile (another
        // tab, staff), this edit would write over what it never saw and drop photos still in use.
        // And the account and the place as they are under the lock: suspended or signed out, or the
        // place disabled while the photos were encoded, nothing is written.
        const current = await adFor(trx, await currentActor(trx, actor), 'edit', id);
        if (current.status === 'disabled') throw new Conflict('ad.edit_not_allowed');
        await assertPlace(trx, f.stateId, f.cityId);
        const currentPending = live ? await revisionsRepo.pendingRevisionOf(trx, id) : undefined;
        if (current.status !== ad.status || current.photos_json !== ad.photos_json || currentPending?.id !== pending?.id) {
          throw new Conflict('ad.changed_meanwhile');
        }
        if (live) {
          const superseded = await repo.insertRevision(trx, { id: newId(), adId: id, ownerId: ad.owner_id, content, at });
          // The replaced edit's own photos (in neither the live ad nor this edit) go.
          if (superseded)
            dropped = revisionsRepo.photosNotIn(superseded.photos_json, JSON.stringify([...photos, ...(JSON.parse(ad.photos_json) as StoredPhoto[])]));
        } else {
          if (!(await repo.updateContent(trx, id, ad.status, content, at))) throw new Conflict('ad.edit_not_allowed');
          await repo.refreshVisibility(trx, [id]);
          await recordVersion(trx, id, 'edited', at);
          dropped = base.filter((b) => !kept.includes(b));
        }
        // New photos are not public until staff approve the ad or this edit (uploads.withdrawn.ts);
        // the kept ones stay as they are (public when an approved version showed them).
        await withdraw(trx, photoFiles(added), unreviewedReason(id));
        await recordFingerprint(trx, fingerprint, at);
      });
    } catch (e) {
      removeAdPhotos(this.deps.config.dataDir, added);
      throw e;
    }
    await dropPhotos(this.deps, id, ad.owner_id, dropped);
    const after = await repo.findAd(this.deps.db, id);
    if (!after) throw new NotFound('ad.not_found'); // deleted since the commit
    if (after.status !== ad.status) this.deps.hub.sendToUser(ad.owner_id, 'adStatusUpdate', { adId: id, status: after.status });
    return { ...toOwnerAd(after, this.now()), revision: (await this.revisions([id])).get(id) ?? null };
  }

  /**
   * Renews an approved or expired ad for the ad price: expiresAt = max(now, expiresAt) + the
   * duration (a held term's: expiresAt + the duration). The debit (key ad-renew:<id>:<old expiresAt>, once per term) and the new term commit
   * together; 402 when the wallet is short, nothing charged. An expired ad shows again at once.
   * The first renewal moves expiresAt, so a retry after its answer was lost has a new ledger key:
   * with a request key (core/idempotency.ts) it gets that answer back, nothing charged again.
   */
  async renew(actor: SessionUser, id: string, walletId: string, quote?: Quote, key?: string): Promise<{ ad: OwnerAdDto; wallet: WalletDto }> {
    const now = this.deps.clock.now();
    const at = now.toISOString();
    const rk = key ? { userId: actor.id, key, action: 'renew', target: id } : null;
    const result = await transactionAs(this.deps.db, actor, async (trx, by) =>
      once(trx, rk, 200, now, async () => {
        // suspended or signed out while this waited for the lock: nothing charged
        const ad = await adFor(trx, by, 'renew', id);
        if (ad.status !== 'approved' && ad.status !== 'expired') throw new Conflict('ad.renew_not_allowed');
        // A renewal dated after now (the wall clock stepped back since) is not "too soon": the guard
        // against a double click would hold for the whole step; the ledger key still charges a term once.
        const sinceRenewal = ad.renewed_at ? now.getTime() - Date.parse(ad.renewed_at) : Infinity;
        if (sinceRenewal >= 0 && sinceRenewal < RENEW_COOLDOWN_MS) throw new Conflict('ad.renew_too_soon');
        await assertPlace(trx, ad.state_id, ad.city_id); // a term bought in a place disabled since would show nowhere
        await usableWallet(trx, by, walletId);
        const price = await quotedPrice(trx, 'ad', ad.listing_type, quote);
        // A held term (its owner not approved yet) shows nowhere: renewals are laid end to end and start
        // when the owner is approved (startHeldTerms), so the days between an expiry and a renewal are not given away.
        const end = ad.expires_at ? Date.parse(ad.expires_at) : 0;
        const from = ad.term_held && end ? end : Math.max(now.getTime(), end);
        const expiresAt = new Date(from + price.durationDays * DAY_MS).toISOString();
        if (price.priceCents > 0) {
          await postToLedger(trx, {
            walletId,
            amountCents: -price.priceCents,
            kind: 'ad_payment',
            reference: id,
            idempotencyKey: `ad-renew:${id}:${ad.expires_at ?? 'none'}`,
            at,
          });
        }
        if (!(await repo.renew(trx, id, expiresAt, at))) throw new Conflict('ad.renew_not_allowed');
        await repo.refreshVisibility(trx, [id]);
        return { ad: toOwnerAd((await repo.findAd(trx, id))!, at), wallet: toWalletDto(await usableWallet(trx, by, walletId)) };
      }),
    );
    this.deps.hub.sendToUser(actor.id, 'adStatusUpdate', { adId: id, status: result.ad.status });
    return result;
  }

  /**
   * Deletes an own ad in any status. One in review (paid, not yet decided) is refunded in full to
   * the wallet that paid it; a live one is removed without refund; a rejected one was refunded at
   * rejection. Under a legal hold a copy and the photos are kept, invisibly (moderation.holds.ts).
   */
  async remove(actor: SessionUser, id: string): Promise<{ deleted: true; refundedCents: number }> {
    const at = this.now();
    const out = await transactionAs(this.deps.db, actor, async (trx, by) => {
      const ad = await adFor(trx, by, 'delete', id);
      let refundedCents = 0;
      if (ad.status === 'in_review' && ad.paid_wallet_id && ad.price_cents && ad.price_cents > 0) {
        await postToLedger(trx, {
          walletId: ad.paid_wallet_id,
          amountCents: ad.price_cents,
          kind: 'ad_refund',
          reference: id,
          idempotencyKey: paymentKey('ad-refund', id, ad.pay_attempt),
          at,
        });
        refundedCents = ad.price_cents;
      }
      const revisionPhotos = await trx.selectFrom('ad_revisions').select('photos_json').where('ad_id', '=', id).where('status', '=', 'pending').execute();
      const held = await beforeAdDeleted(trx, { id, ownerId: ad.owner_id }, 'ad_deletion', at);
      if (!(await repo.deleteAd(trx, ad.owner_id, id, at))) throw new Conflict('ad.delete_not_allowed');
      const photos = [...(JSON.parse(ad.photos_json) as StoredPhoto[]), ...revisionPhotos.flatMap((r) => JSON.parse(r.photos_json) as StoredPhoto[])];
      return { refundedCents, held, photos };
    });
    if (!out.held) removeAdPhotos(this.deps.config.dataDir, out.photos);
    return { deleted: true, refundedCents: out.refundedCents };
  }

  /**
   * A page of the user's ads (of one list, or of both), each with its open revision and its page
   * views of the last 7 and 30 days; `totals` are the two lists' whole sizes (my ads' tabs).
   */
  async mine(userId: string, q: { page?: number; pageSize?: number; list?: OwnAdsList; adId?: string }) {
    const { page, pageSize, offset } = paging(q);
    const statuses = q.list ? OWN_LISTS[q.list] : [...OWN_LISTS.approved, ...OWN_LISTS.pending];
    const [{ rows, total }, counts] = await Promise.all([
      repo.pageOwnAds(this.deps.db, userId, { statuses, offset, limit: pageSize, adId: q.adId }),
      repo.countOwnAds(this.deps.db, userId, this.now()),
    ]);
    const ids = rows.map((r) => r.id);
    // The last 7 and 30 whole UTC days, today the last, as the staff's page-view screen counts them:
    // a rolling 168 hours showed an ad's owner another "last 7 days" than staff saw for the same ad.
    const now = this.deps.clock.now();
    const [revisions, views] = await Promise.all([this.revisions(ids), repo.viewsOf(this.deps.db, ids, sinceUtcDays(now, 7), sinceUtcDays(now, 30))]);
    const ads: OwnerAdDto[] = rows.map((r) => ({
      ...toOwnerAd(r, now.toISOString()),
      revision: revisions.get(r.id) ?? null,
      ...(views.get(r.id) ?? { views7: 0, views30: 0 }),
    }));
    const inList = (list: OwnAdsList) => (a: { status: AdStatus }) => OWN_LISTS[list].includes(a.status);
    const sizeOf = (list: OwnAdsList) => counts.filter(inList(list)).reduce((n, c) => n + c.n, 0);
    return {
      approvedAds: ads.filter(inList('approved')),
      pendingAds: ads.filter(inList('pending')),
      total,
      page,
      pageSize,
      totals: { approvedAds: sizeOf('approved'), pendingAds: sizeOf('pending') },
    };
  }

  /**
   * The dashboard's view of the user's ads, counted here whatever their number: by status as my
   * ads shows them (an approved ad past its expiry is expired, unless its term is held), those the public sees now, and the latest
   * decisions on them and on their edits.
   */
  async overview(userId: string): Promise<{ counts: AdCounts; online: number; recent: AdActivity[] }> {
    const now = this.now();
    const [byStatus, latest] = await Promise.all([
      repo.countOwnAds(this.deps.db, userId, now),
      repo.latestOwnDecisions(this.deps.db, userId, now, RECENT_DECISIONS),
    ]);
    const counts: AdCounts = { unpaid: 0, in_review: 0, approved: 0, rejected: 0, disabled: 0, expired: 0 };
    for (const c of byStatus) counts[c.status] = c.n;
    return {
      counts,
      // Those the public sees now (ads.visible): an ad online in a closed place, or of an account not approved yet, is not.
      online: byStatus.find((c) => c.status === 'approved')?.online ?? 0,
      recent: latest.map((r) => ({
        adId: r.id,
        title: r.title,
        event: r.event as AdActivity['event'],
        at: r.at,
        reason: r.event === 'rejected' || r.event === 'edit_rejected' ? r.rejection_reason : null,
      })),
    };
  }

  private async revisions(adIds: string[]): Promise<Map<string, Revision>> {
    const open = await revisionsRepo.openRevisionsOf(this.deps.db, adIds);
    const out = new Map<string, Revision>();
    for (const [adId, r] of open) {
      out.set(adId, {
        id: r.id,
        status: r.status === 'pending' ? 'pending' : 'rejected',
        rejectionReason: r.rejection_reason,
        createdAt: r.created_at,
        content: await contentOf(this.deps.db, r),
      });
    }
    return out;
  }
}
