import { createResource } from './resource';
import { adsApi, type Quote } from '../api/ads';
import { atShownPrice } from './pricing';
import { upsertWallet } from './wallets';

/** The seed's `myCartListings` data area: unpaid ads waiting for payment. */
export const cartStore = createResource(async () => (await adsApi.cart()).pendingAds);

function drop(id: string) {
  const list = cartStore.state.data;
  if (list) cartStore.state.data = list.filter((a) => a.id !== id);
}

/**
 * Pays one ad from a wallet at the price the page showed (`quote`); the ad leaves the cart (now in
 * review) and the wallet shows its new balance.
 */
export async function payCartAd(id: string, walletId: string, quote?: Quote) {
  const out = await atShownPrice(() => adsApi.payCartAd(id, walletId, quote));
  drop(id);
  upsertWallet(out.wallet);
  return out.ad;
}

export async function deleteCartAd(id: string): Promise<void> {
  await adsApi.deleteCartAd(id);
  drop(id);
}
