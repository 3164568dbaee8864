import { createResource } from './resource';
import { adsApi, buildPostAdBody, type Ad, type PostAdFields } from '../api/ads';
import { upsertWallet, loadWallets } from './wallets';
import { cartStore } from './cart';

/** The "my ads" data area: the owner's approved and pending (in review, rejected…) ads. */
export const myAdsStore = createResource(async () => {
  const { approvedAds, pendingAds } = await adsApi.mine();
  return { approvedAds, pendingAds };
});

export const loadMyAds = () => myAdsStore.load();

function replace(ad: Ad | undefined) {
  const d = myAdsStore.state.data;
  if (!ad || !d) return;
  for (const list of [d.approvedAds, d.pendingAds]) {
    const i = list.findIndex((a) => a.id === ad.id);
    if (i >= 0) list[i] = ad;
  }
}

function patch(id: string, change: Partial<Ad>) {
  const d = myAdsStore.state.data;
  if (!d) return;
  for (const list of [d.approvedAds, d.pendingAds]) {
    const a = list.find((x) => x.id === id);
    if (a) Object.assign(a, change);
  }
}

/** Posts a new ad (multipart); it lands in the cart, unpaid. */
export async function postAd(fields: PostAdFields, photos: File[]): Promise<Ad> {
  const { ad } = await adsApi.post(buildPostAdBody(fields, photos));
  cartStore.state.data = cartStore.state.data ? [ad, ...cartStore.state.data] : null;
  return ad;
}

export async function setAdOnline(id: string, online: boolean): Promise<void> {
  const out = await adsApi.setOnline(id, online);
  if (out?.ad) replace(out.ad);
  else patch(id, { online });
}

export async function moveAd(id: string, stateId: string, cityId: string): Promise<void> {
  const out = await adsApi.move(id, stateId, cityId);
  if (out?.ad) replace(out.ad);
  else await loadMyAds();
}

export async function bumpAd(id: string, walletId: string): Promise<void> {
  const out = await adsApi.bump(id, walletId);
  if (out?.ad) replace(out.ad);
  if (out?.wallet) upsertWallet(out.wallet);
  else await loadWallets();
}
