import { proxy } from 'valtio';
import { createResource, onReset } from './resource';
import { adsApi, buildEditAdBody, buildPostAdBody, type OwnerAd, type PostAdFields, type Quote } from '../api/ads';
import { atShownPrice } from './pricing';
import { upsertWallet, walletsStore } from './wallets';
import { cartStore, payCartAd } from './cart';

/** The "my ads" data area: the owner's approved and pending (in review, rejected…) ads. */
export const myAdsStore = createResource(() => adsApi.mine());

export const loadMyAds = () => myAdsStore.load();

/** A message for the my-ads screen from the screen that sent the user there (the edit screen's "saved"). */
export const myAdsFlash = proxy<{ note: string | null }>({ note: null });
onReset(() => {
  myAdsFlash.note = null;
});

const wasApproved = (s: OwnerAd['status']) => s === 'approved' || s === 'disabled' || s === 'expired';

/**
 * Puts the ad the server just returned in place of the listed one. Answers other than the list's
 * carry no page views and (but for an edit) no revision: the listed ones stay. An ad whose status
 * moved it to the other list (renewed, back to the cart) moves there.
 */
function replace(ad: OwnerAd) {
  const d = myAdsStore.state.data;
  if (!d) return;
  for (const list of [d.approvedAds, d.pendingAds]) {
    const i = list.findIndex((a) => a.id === ad.id);
    if (i < 0) continue;
    const merged = { ...list[i], ...ad };
    const target = wasApproved(ad.status) ? d.approvedAds : d.pendingAds;
    if (target === list) list[i] = merged;
    else {
      list.splice(i, 1);
      target.unshift(merged);
    }
    return;
  }
}

function drop(id: string) {
  const d = myAdsStore.state.data;
  if (d) {
    d.approvedAds = d.approvedAds.filter((a) => a.id !== id);
    d.pendingAds = d.pendingAds.filter((a) => a.id !== id);
  }
  const cart = cartStore.state.data;
  if (cart) cartStore.state.data = cart.filter((a) => a.id !== id);
}

/** Posts a new ad (multipart); it lands in the cart, unpaid. */
export async function postAd(fields: PostAdFields, photos: File[]): Promise<OwnerAd> {
  const { ad } = await adsApi.post(buildPostAdBody(fields, photos));
  cartStore.state.data = cartStore.state.data ? [ad, ...cartStore.state.data] : null;
  return ad;
}

/**
 * Edits an own ad: the fields, the current photos to keep (URLs) and new files. A rejected ad
 * comes back unpaid (into the cart); a live one keeps its content and carries the edit as its revision.
 */
export async function editAd(id: string, fields: PostAdFields, keepPhotos: readonly string[], photos: File[]): Promise<OwnerAd> {
  const { ad } = await adsApi.edit(id, buildEditAdBody(fields, keepPhotos, photos));
  replace(ad);
  const cart = cartStore.state.data;
  if (cart) {
    const rest = cart.filter((a) => a.id !== id);
    cartStore.state.data = ad.status === 'unpaid' ? [ad, ...rest] : rest;
  }
  return ad;
}

export async function setAdOnline(id: string, online: boolean): Promise<void> {
  replace((await adsApi.setOnline(id, online)).ad);
}

export async function moveAd(id: string, stateId: string, cityId: string): Promise<void> {
  replace((await adsApi.move(id, stateId, cityId)).ad);
}

/** Bumps an ad: the ad (new bump time) and the wallet that paid (new balance) come back together. */
export async function bumpAd(id: string, walletId: string, priceCents?: number): Promise<void> {
  const { ad, wallet } = await atShownPrice(() => adsApi.bump(id, walletId, priceCents));
  replace(ad);
  upsertWallet(wallet);
}

/** Renews an approved or expired ad for the ad price: the ad (new expiry) and the wallet that paid. */
export async function renewAd(id: string, walletId: string, quote?: Quote): Promise<OwnerAd> {
  const { ad, wallet } = await atShownPrice(() => adsApi.renew(id, walletId, quote));
  replace(ad);
  upsertWallet(wallet);
  return ad;
}

/** Pays an unpaid ad from a wallet (the cart's payment): it goes to review. */
export async function payAd(id: string, walletId: string, quote?: Quote): Promise<OwnerAd> {
  const ad = await payCartAd(id, walletId, quote);
  replace(ad);
  return ad;
}

/** Deletes an own ad; answers what was refunded (an ad in review), and the wallets show it. */
export async function deleteAd(id: string): Promise<number> {
  const { refundedCents } = await adsApi.remove(id);
  drop(id);
  if (refundedCents > 0 && walletsStore.state.data) void walletsStore.load();
  return refundedCents;
}
