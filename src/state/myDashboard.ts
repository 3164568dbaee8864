import { createResource } from './resource';
import { adsApi, type AdStatus } from '../api/ads';
import { adStateOf } from '../components/market/adState';
import { walletsStore } from './wallets';

/** The "my dashboard" data area: how many of the user's ads are in each status. */
export const myDashboardStore = createResource(async () => {
  const [{ approvedAds, pendingAds }, cart] = await Promise.all([adsApi.mine(), adsApi.cart(), walletsStore.load()]);
  const counts: Record<AdStatus, number> = { unpaid: 0, in_review: 0, approved: 0, rejected: 0, disabled: 0, expired: 0 };
  let online = 0;
  const seen = new Set<string>();
  const now = Date.now();
  for (const ad of [...approvedAds, ...pendingAds, ...cart.pendingAds]) {
    if (seen.has(ad.id)) continue; // the cart's ads may also be listed as pending
    seen.add(ad.id);
    // Counted as my ads shows them (adStateOf): an approved ad past its expiry is expired already
    // (the hourly expiry job may not have run yet), neither approved nor online. The account's
    // approval is left out here: the dashboard says so above the counts.
    const state = adStateOf(ad, true, now);
    const status = state === 'expired' ? 'expired' : ad.status;
    counts[status] = (counts[status] ?? 0) + 1;
    if (state === 'live') online++;
  }
  return { counts, online };
});
