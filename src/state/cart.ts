import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { pageNeedsReading, readWithinPages } from './paging';
import { adsApi, type OwnerAd, type Quote } from '../api/ads';
import { ApiError } from '../api/client';
import { atShownPrice } from './pricing';
import { movingMoney, upsertWallet } from './wallets';

export const CART_PAGE_SIZE = 20;

/** The cart's page, and how many unpaid ads the last answer counted in all. */
export const cartQuery = proxy({ page: 1, total: 0 });
onReset(() => Object.assign(cartQuery, { page: 1, total: 0 }));

/** The seed's `myCartListings` data area: a page of the unpaid ads waiting for payment. */
export const cartStore = createResource(async () => {
  const unchanged = sessionCheck();
  const out = await readWithinPages(cartQuery, CART_PAGE_SIZE, (page) => adsApi.cart({ page, pageSize: CART_PAGE_SIZE }));
  if (unchanged()) cartQuery.total = out.total;
  return out.pendingAds;
});

/** Another page of the cart. */
export function loadCartPage(page: number) {
  cartQuery.page = page;
  return cartStore.load();
}

/**
 * An ad left the cart (paid, deleted): it leaves the page at once; the page is read again when
 * ads follow it on later pages (the next one moves up) or it is now empty (the page before).
 */
export function dropFromCart(id: string): void {
  const list = cartStore.state.data;
  if (!list?.some((a) => a.id === id)) return;
  const rest = list.filter((a) => a.id !== id);
  cartStore.state.data = rest;
  cartQuery.total = Math.max(0, cartQuery.total - 1);
  if (pageNeedsReading(cartQuery.total, cartQuery.page, CART_PAGE_SIZE, rest.length)) void cartStore.load();
}

/** An ad came into the cart (posted, or rejected and edited): it heads the first page. */
export function addToCart(ad: OwnerAd): void {
  const list = cartStore.state.data;
  if (!list) return; // read when the cart is opened
  const i = list.findIndex((a) => a.id === ad.id);
  if (i >= 0) {
    list[i] = ad;
    return;
  }
  cartQuery.total++;
  if (cartQuery.page === 1) cartStore.state.data = [ad, ...list].slice(0, CART_PAGE_SIZE);
}

/** A payment's refusal saying the ad is paid already: by another tab, or by an earlier try whose answer was lost. */
export const AD_ALREADY_PAID = 'ad.already_paid';

/**
 * Pays one ad from a wallet at the price the page showed (`quote`); the ad leaves the cart (now in
 * review) and the wallet shows its new balance. A lost answer or "already paid" reads the wallets
 * again: that payment, or an earlier one, may have taken the money, and the balances show it.
 */
export async function payCartAd(id: string, walletId: string, quote?: Quote) {
  const unchanged = sessionCheck();
  const out = await movingMoney(AD_ALREADY_PAID, unchanged, () => atShownPrice(() => adsApi.payCartAd(id, walletId, quote)));
  if (!unchanged()) return out.ad;
  dropFromCart(id);
  upsertWallet(out.wallet);
  return out.ad;
}

/** A delete refused as "not found" for an ad the page lists: it is gone already (a lost answer's delete, another tab's). */
export const adGone = (e: unknown): boolean => e instanceof ApiError && e.status === 404 && e.code === 'ad.not_found';

/**
 * Deletes an unpaid ad from the cart. "Not found" for an ad the cart lists means it is gone
 * already (a delete whose answer was lost, or another tab's): that is done, and it leaves the cart.
 */
export async function deleteCartAd(id: string): Promise<void> {
  const unchanged = sessionCheck();
  try {
    await adsApi.deleteCartAd(id);
  } catch (e) {
    if (!adGone(e)) throw e;
  }
  if (unchanged()) dropFromCart(id);
}
