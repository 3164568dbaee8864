import type { AppDeps } from '../../core/deps.ts';
import { currentActor, transactionAs, type SessionUser } from '../../core/auth.ts';
import { Conflict, Invalid, NotFound, TooManyRequests } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { DAY_MS } from '../../core/clock.ts';
import type { Executor } from '../../core/db.ts';
import { paging } from '../../core/http.ts';
import { postToLedger } from '../wallets/ledger.service.ts';
import { usableWallet, toWalletDto, type WalletDto } from '../wallets/wallets.service.ts';
import { quotedPrice, type Quote } from '../pricing/pricing.service.ts';
import { checkAdDetails, checkAdFields, MAX_PHOTOS, type AdDetailsStored, type AdFields, type AdFieldsInput } from './ads.rules.ts';
import { paymentKey, recordVersion } from './ads.versions.ts';
import { screenAd } from './ads.screening.ts';
import { encodeAdPhotos, removeAdPhotos } from './ads.images.ts';
import { toOwnerAd, type OwnerAdDto, type StoredPhoto } from './ads.dto.ts';
import type { AdStatus } from './ads.tables.ts';
import { adObject, can, type AdsAction } from './ads.policy.ts';
import * as repo from './ads.repository.ts';
import { deleteFromCart } from './ads.cart-purge.ts';
import { moveRevision } from './ads.revisions.ts';
import { fingerprintAd, recordFingerprint } from '../moderation/moderation.duplicates.ts';
import { photoFiles } from '../moderation/moderation.holds.ts';
import { closedPlaceReason, restore, unreviewedReason, withdraw } from '../uploads/uploads.withdrawn.ts';
import { answered, once, remember, requestTarget, type RequestKey } from '../../core/idempotency.ts';

/** A bump within this time of the last one is refused: a double click must not pay twice. */
export const BUMP_COOLDOWN_MS = 60_000;

/** The city must be in the state, and both enabled (a disabled place takes no new ads). */
export async function assertPlace(db: Executor, stateId: string, cityId: string): Promise<void> {
  const place = await repo.findPlace(db, stateId, cityId);
  if (!place) throw new Invalid('cityId', 'ad.city_not_in_state');
  if (!place.state_enabled) throw new Invalid('stateId', 'ad.state_disabled');
  if (!place.city_enabled) throw new Invalid('cityId', 'ad.city_disabled');
}

/** Whether the city is in the state and both are enabled: an ad there can show (what assertPlace requires, as a yes or no). */
export async function placeOpen(db: Executor, stateId: string, cityId: string): Promise<boolean> {
  const place = await repo.findPlace(db, stateId, cityId);
  return !!place && !!place.state_enabled && !!place.city_enabled;
}

/** The ad, when the policy lets the actor do this to it; else 404: another user's ad id is never confirmed. */
export async function adFor(db: Executor, actor: SessionUser, action: AdsAction, id: string) {
  const ad = await repo.findAd(db, id);
  if (!ad || !can(actor, action, adObject(ad))) throw new NotFound('ad.not_found');
  return ad;
}

/** Screening (PRODUCT §10): a refused text is logged for staff and answered 400 naming the field; never rewritten. */
export async function screenOrRefuse(
  deps: AppDeps,
  a: { userId: string; adId: string | null; title: string; description: string; ip: string | null },
): Promise<void> {
  const hit = screenAd(a.title, a.description);
  if (!hit) return;
  await repo.logScreening(deps.db, {
    userId: a.userId,
    adId: a.adId,
    field: hit.field,
    term: hit.term,
    title: a.title,
    description: a.description,
    ip: a.ip,
    at: deps.clock.now().toISOString(),
  });
  deps.log.warn({ userId: a.userId, adId: a.adId, field: hit.field, term: hit.term }, 'ad refused by screening');
  throw new Invalid(hit.field, 'ad.screened_wording', { term: hit.term });
}

export class AdsService {
  private readonly deps: AppDeps;
  constructor(deps: AppDeps) {
    this.deps = deps;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  private notify(userId: string, adId: string, status: AdStatus): void {
    this.deps.hub.sendToUser(userId, 'adStatusUpdate', { adId, status });
  }

  /**
   * Posts an ad into the cart (status unpaid). Screening refusals are logged for staff, never rewritten.
   * With a request key (core/idempotency.ts), the same form sent again after its answer was lost
   * gives back the ad it made: no second copy in the cart, no second place in the daily limit.
   */
  async post(user: SessionUser, input: AdFieldsInput, photos: Buffer[], ip: string | null, key?: string): Promise<OwnerAdDto> {
    const f = checkAdFields(input);
    const details = checkAdDetails(input);
    if (photos.length < 1 || photos.length > MAX_PHOTOS) throw new Invalid('photos', 'ad.photos_count', { min: 1, max: MAX_PHOTOS });
    const rk: RequestKey | null = key ? { userId: user.id, key, action: 'post-ad', target: requestTarget(input, photos) } : null;
    // Done already (the common retry, one after the other): answered before the limit and the photo work.
    const done = rk && (await answered<OwnerAdDto>(this.deps.db, rk, this.deps.clock.now()));
    if (done) return done.body;
    // The limit counts posts in the post log, not ads that still exist: deleting an ad from the
    // cart gives no post back. The post takes its row before the costly photo work, in one
    // statement that counts and inserts (posts sent at once cannot all pass a count made while
    // the others' photos are encoded), and gives it back when it fails, except when the screening
    // refuses it (PRODUCT §11: posts counted, whatever became of them): each refusal keeps its
    // whole text in screening_log, so refusals must not be free.
    const max = this.deps.limits.adsPerDay;
    const id = newId();
    const since = new Date(this.deps.clock.now().getTime() - DAY_MS).toISOString();
    if (!(await repo.logPostWithinLimit(this.deps.db, { userId: user.id, adId: id, at: this.now(), since, max, requestKey: key ?? null }))) {
      throw new TooManyRequests('ad.daily_post_limit', { max });
    }
    try {
      await screenOrRefuse(this.deps, { userId: user.id, adId: null, title: f.title, description: f.description, ip });
    } catch (e) {
      await repo.unsharePost(this.deps.db, user.id, id);
      throw e;
    }
    try {
      await assertPlace(this.deps.db, f.stateId, f.cityId); // early, for a quick answer; again in the transaction
      const replayed = await this.store(user, id, f, details, photos, rk);
      if (replayed) {
        // The same key was done by another request while this one encoded its photos.
        await repo.unlogPost(this.deps.db, user.id, id);
        return replayed;
      }
    } catch (e) {
      await repo.unlogPost(this.deps.db, user.id, id);
      throw e;
    }
    const posted = await repo.findAd(this.deps.db, id);
    if (!posted) throw new NotFound('ad.not_found'); // its account was deleted since the commit
    return toOwnerAd(posted, this.now());
  }

  /**
   * The costly part of a post, its place in the daily limit taken: its photos encoded, the ad stored
   * in the cart. When its request key was done meanwhile, nothing is stored and the key's answer is returned.
   */
  private async store(
    user: SessionUser,
    id: string,
    f: AdFields,
    details: AdDetailsStored,
    photos: Buffer[],
    rk: RequestKey | null,
  ): Promise<OwnerAdDto | null> {
    const { photos: stored, hashes } = await encodeAdPhotos(this.deps, photos, user.id);
    let replayed = null as OwnerAdDto | null;
    try {
      // Photo and text hashes, and other accounts' ads with the same phone, a near-identical photo or
      // the same text, for the reviewer (moderation.duplicates.ts): worked out before the transaction, stored in it.
      const fingerprint = await fingerprintAd(this.deps.db, {
        adId: id,
        ownerId: user.id,
        phone: f.phone,
        title: f.title,
        description: f.description,
        hashes: stored.map((p, i) => ({ path: p.path, hash: hashes[i] })),
      });
      await this.deps.db.transaction().execute(async (trx) => {
        const at = this.now();
        await currentActor(trx, user); // deleted, suspended or signed out while the photos were encoded: no ad
        replayed = rk && ((await answered<OwnerAdDto>(trx, rk, this.deps.clock.now()))?.body ?? null);
        if (replayed) return;
        await assertPlace(trx, f.stateId, f.cityId); // and its place disabled meanwhile: none either
        await repo.insertAd(trx, { id, ownerId: user.id, ...f, photosJson: JSON.stringify(stored), details, at });
        // Not public until staff approve the ad (uploads.withdrawn.ts): its owner and staff see them meanwhile.
        await withdraw(trx, photoFiles(stored), unreviewedReason(id));
        await recordVersion(trx, id, 'posted', at);
        await recordFingerprint(trx, fingerprint, at);
        if (rk) await remember(trx, rk, 201, toOwnerAd((await repo.findAd(trx, id))!, this.now()), this.deps.clock.now());
      });
    } catch (e) {
      removeAdPhotos(this.deps.config.dataDir, stored);
      throw e;
    }
    if (replayed) removeAdPhotos(this.deps.config.dataDir, stored);
    return replayed;
  }

  /** A page of the cart: the user's unpaid ads, newest first. (My ads' lists: AdManageService.mine.) */
  async cart(userId: string, q: { page?: number; pageSize?: number }): Promise<{ pendingAds: OwnerAdDto[]; total: number; page: number; pageSize: number }> {
    const { page, pageSize, offset } = paging(q);
    const { rows, total } = await repo.pageOwnAds(this.deps.db, userId, { statuses: ['unpaid'], offset, limit: pageSize });
    return { pendingAds: rows.map((r) => toOwnerAd(r, this.now())), total, page, pageSize };
  }

  /**
   * Removes an unpaid ad from the cart (paid ads are kept: they carry a payment and a review).
   * Under a legal hold the ad leaves the cart but a copy and its photo files are kept (moderation.holds.ts).
   */
  async deleteCartAd(actor: SessionUser, id: string): Promise<void> {
    const ad = await adFor(this.deps.db, actor, 'deleteFromCart', id);
    if (ad.status !== 'unpaid') throw new Conflict('ad.delete_only_unpaid');
    const kept = await transactionAs(this.deps.db, actor, (trx) => deleteFromCart(trx, ad, this.now()));
    if (!kept) removeAdPhotos(this.deps.config.dataDir, JSON.parse(ad.photos_json) as StoredPhoto[]);
  }

  /**
   * Pays an ad in the cart from one of the user's wallets: the debit (idempotency key
   * ad-payment:<id>, then ad-payment:<id>:<n> for the n-th payment after rejections) and
   * unpaid → in_review commit together or not at all. 409 when already paid,
   * 402 when the wallet is short; nothing is charged in either case.
   */
  async pay(actor: SessionUser, id: string, walletId: string, quote?: Quote): Promise<{ ad: OwnerAdDto; wallet: WalletDto }> {
    const at = this.now();
    const result = await this.deps.db.transaction().execute(async (trx) => {
      // The account as it is under the lock: suspended, deleted or signed out while this waited, nothing is charged.
      const by = await currentActor(trx, actor);
      const ad = await adFor(trx, by, 'pay', id);
      if (ad.status !== 'unpaid') throw new Conflict('ad.already_paid');
      await assertPlace(trx, ad.state_id, ad.city_id); // its city or state disabled since it was posted: move it first
      await usableWallet(trx, by, walletId);
      const price = await quotedPrice(trx, 'ad', ad.listing_type, quote);
      if (!(await repo.markPaid(trx, id, { priceCents: price.priceCents, durationDays: price.durationDays, walletId, at }))) {
        throw new Conflict('ad.already_paid');
      }
      if (price.priceCents > 0) {
        await postToLedger(trx, {
          walletId,
          amountCents: -price.priceCents,
          kind: 'ad_payment',
          reference: id,
          idempotencyKey: paymentKey('ad-payment', id, ad.pay_attempt),
          at,
        });
      }
      return { ad: toOwnerAd((await repo.findAd(trx, id))!, this.now()), wallet: toWalletDto(await usableWallet(trx, by, walletId)) };
    });
    this.notify(actor.id, id, result.ad.status);
    return result;
  }

  /**
   * Moves an approved ad to the top of its listings, for the bump price. With a request key, a bump
   * sent again after its answer was lost gets that answer back and is not charged again (the
   * cooldown alone lets a retry past its minute pay twice).
   */
  async bump(actor: SessionUser, id: string, walletId: string, quote?: Quote, key?: string): Promise<{ ad: OwnerAdDto; wallet: WalletDto }> {
    const now = this.deps.clock.now();
    const at = now.toISOString();
    const rk = key ? { userId: actor.id, key, action: 'bump', target: id } : null;
    return transactionAs(this.deps.db, actor, async (trx, by) =>
      once(trx, rk, 200, now, async () => {
        // suspended or signed out meanwhile: nothing charged
        const ad = await adFor(trx, by, 'bump', id);
        // On a list: approved, running, and shown (online, its owner and place not suspended).
        if (ad.status !== 'approved' || (ad.expires_at !== null && ad.expires_at <= at) || !ad.visible) throw new Conflict('ad.bump_not_running');
        // A bump dated after now (the wall clock stepped back since) is not "too soon", as a renewal's is
        // not (AdManageService.renew); the ledger key (the bump it replaces) still charges a bump once.
        const sinceBump = ad.bumped_at ? now.getTime() - Date.parse(ad.bumped_at) : Infinity;
        if (sinceBump >= 0 && sinceBump < BUMP_COOLDOWN_MS) throw new Conflict('ad.bump_too_soon');
        await usableWallet(trx, by, walletId);
        const price = await quotedPrice(trx, 'bump', ad.listing_type, quote);
        if (price.priceCents > 0) {
          // Keyed by the bump it replaces: two requests racing for one bump pay once, a later bump has a new
          // key. A retry after this one committed has a new key too: only its request key tells it (above).
          await postToLedger(trx, {
            walletId,
            amountCents: -price.priceCents,
            kind: 'bump_payment',
            reference: id,
            idempotencyKey: `bump:${id}:${ad.bump_seq}`,
            at,
          });
        }
        await repo.bump(trx, id, at);
        return { ad: toOwnerAd((await repo.findAd(trx, id))!, this.now()), wallet: toWalletDto(await usableWallet(trx, by, walletId)) };
      }),
    );
  }

  async setOnline(actor: SessionUser, id: string, online: boolean): Promise<OwnerAdDto> {
    return transactionAs(this.deps.db, actor, async (trx, by) => {
      await adFor(trx, by, 'setOnline', id);
      await repo.setOnline(trx, id, online);
      await repo.refreshVisibility(trx, [id]);
      return toOwnerAd((await repo.findAd(trx, id))!, this.now());
    });
  }

  /**
   * Moves an ad to another city (not a rejected or disabled one; an expired one too, to be renewed
   * there); it keeps its status and time left (a term held starts there: startHeldTermsOf), and its
   * pending edit follows it. The move is kept as a version (ad_versions), as every change of the ad is.
   */
  async move(actor: SessionUser, id: string, stateId: string, cityId: string): Promise<OwnerAdDto> {
    return transactionAs(this.deps.db, actor, async (trx, by) => {
      const ad = await adFor(trx, by, 'move', id);
      // An expired one may move: renewing it where its place was disabled is refused ("move it first").
      if (ad.status === 'rejected' || ad.status === 'disabled') throw new Conflict('ad.move_not_allowed');
      // One whose term ran out is stored as expired first (the expire-ads job may not have run): it
      // still counts where it was until then, and would carry that count along.
      await repo.expireRanOut(trx, id, this.now());
      await assertPlace(trx, stateId, cityId);
      const at = this.now();
      await repo.setLocation(trx, id, stateId, cityId, at);
      await restore(trx, closedPlaceReason(id)); // out of a closed place (assertPlace: into an open one), its photos answer again
      await recordVersion(trx, id, 'moved', at); // where it was in between is evidence too
      await moveRevision(trx, id, stateId, cityId);
      await repo.refreshVisibility(trx, [id]);
      // Held where its place was closed, its paid term starts here, the account approved (else at its approval).
      if (ad.term_held) await repo.startHeldTermsOf(trx, [id], at);
      return toOwnerAd((await repo.findAd(trx, id))!, this.now());
    });
  }
}
