import { createResource } from './resource';
import { adsApi, type AdStatus } from '../api/ads';
import { walletsStore } from './wallets';

/** The "my dashboard" data area: how many of the user's ads are in each status. */
export const myDashboardStore = createResource(async () => {
  const [{ approvedAds, pendingAds }, cart] = await Promise.all([adsApi.mine(), adsApi.cart(), walletsStore.load()]);
  const counts: Record<AdStatus, number> = { unpaid: 0, in_review: 0, approved: 0, rejected: 0, disabled: 0, expired: 0 };
  const seen = new Set<string>();
  for (const ad of [...approvedAds, ...pendingAds, ...cart.pendingAds]) {
    if (seen.has(ad.id)) continue; // the cart's ads may also be listed as pending
    seen.add(ad.id);
    counts[ad.status] = (counts[ad.status] ?? 0) + 1;
  }
  const online = approvedAds.filter((a) => a.status === 'approved' && a.online).length;
  return { counts, online };
});
