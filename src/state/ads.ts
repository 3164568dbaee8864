import { createResource } from './resource';
import { adsApi, buildPostAdBody, type OwnerAd, type PostAdFields } from '../api/ads';
import { upsertWallet } from './wallets';
import { cartStore } from './cart';

/** The "my ads" data area: the owner's approved and pending (in review, rejected…) ads. */
export const myAdsStore = createResource(() => adsApi.mine());

export const loadMyAds = () => myAdsStore.load();

/** Puts the ad the server just returned in place of the listed one. */
function replace(ad: OwnerAd) {
  const d = myAdsStore.state.data;
  if (!d) return;
  for (const list of [d.approvedAds, d.pendingAds]) {
    const i = list.findIndex((a) => a.id === ad.id);
    if (i >= 0) list[i] = ad;
  }
}

/** Posts a new ad (multipart); it lands in the cart, unpaid. */
export async function postAd(fields: PostAdFields, photos: File[]): Promise<OwnerAd> {
  const { ad } = await adsApi.post(buildPostAdBody(fields, photos));
  cartStore.state.data = cartStore.state.data ? [ad, ...cartStore.state.data] : null;
  return ad;
}

export async function setAdOnline(id: string, online: boolean): Promise<void> {
  replace((await adsApi.setOnline(id, online)).ad);
}

export async function moveAd(id: string, stateId: string, cityId: string): Promise<void> {
  replace((await adsApi.move(id, stateId, cityId)).ad);
}

/** Bumps an ad: the ad (new bump time) and the wallet that paid (new balance) come back together. */
export async function bumpAd(id: string, walletId: string): Promise<void> {
  const { ad, wallet } = await adsApi.bump(id, walletId);
  replace(ad);
  upsertWallet(wallet);
}
