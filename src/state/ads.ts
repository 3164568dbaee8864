import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { adsApi, buildEditAdBody, buildPostAdBody, type MyAdsPage, type OwnAdsList, type OwnerAd, type PostAdFields, type Quote } from '../api/ads';
import { atShownPrice } from './pricing';
import { upsertWallet, walletsStore } from './wallets';
import { addToCart, dropFromCart, payCartAd } from './cart';
import { pageNeedsReading, readWithinPages } from './paging';

export const MY_ADS_PAGE_SIZE = 20;

/**
 * What my ads shows: one of its two lists (its tabs), a page of it, and the ad an e-mail links to
 * (?renew=, ?edit=), read on its own and listed first of its list: it may be on any page.
 */
export const myAdsQuery = proxy<{ list: OwnAdsList; page: number; linked: string | null }>({ list: 'approved', page: 1, linked: null });

const listKey = (list: OwnAdsList) => (list === 'approved' ? 'approvedAds' : 'pendingAds');
const wasApproved = (s: OwnerAd['status']) => s === 'approved' || s === 'disabled' || s === 'expired';

/** The "my ads" data area: a page of the owner's approved or pending (in review, rejected…) ads, and which list it is. */
export const myAdsStore = createResource(async (): Promise<MyAdsPage & { list: OwnAdsList }> => {
  const { list, linked } = myAdsQuery;
  const [out, one] = await Promise.all([
    readWithinPages(myAdsQuery, MY_ADS_PAGE_SIZE, (page) => adsApi.mine({ list, page, pageSize: MY_ADS_PAGE_SIZE })),
    linked ? adsApi.mine({ adId: linked }) : null,
  ]);
  const listed = new Set([...out.approvedAds, ...out.pendingAds].map((a) => a.id));
  for (const ad of one ? [...one.approvedAds, ...one.pendingAds] : []) {
    if (!listed.has(ad.id)) out[wasApproved(ad.status) ? 'approvedAds' : 'pendingAds'].unshift(ad);
  }
  return { ...out, list };
});

/** Reads my ads again, after changing what is shown (another list, page, or linked ad) when asked. */
export function loadMyAds(change: Partial<typeof myAdsQuery> = {}) {
  Object.assign(myAdsQuery, change);
  return myAdsStore.load();
}

/**
 * A message for the my-ads screen from the screen that sent the user there (the edit screen's
 * "saved"): its 'market' key and the ad's title, worded by my ads at each render (a language
 * switch re-words it).
 */
export const myAdsFlash = proxy<{ note: { key: string; title: string } | null }>({ note: null });
onReset(() => {
  myAdsFlash.note = null;
  Object.assign(myAdsQuery, { list: 'approved', page: 1, linked: null });
});

/**
 * Puts the ad the server just returned in place of the listed one. Answers other than the list's
 * carry no page views and (but for an edit) no revision: the listed ones stay. An ad whose status
 * moved it to the other list leaves this one (the other is read when its tab is opened).
 */
function replace(ad: OwnerAd) {
  const d = myAdsStore.state.data;
  if (!d) return;
  for (const key of ['approvedAds', 'pendingAds'] as const) {
    const list = d[key];
    const i = list.findIndex((a) => a.id === ad.id);
    if (i < 0) continue;
    const target = wasApproved(ad.status) ? 'approvedAds' : 'pendingAds';
    if (target === key) list[i] = { ...list[i], ...ad };
    else {
      list.splice(i, 1);
      d.totals[key]--;
      d.totals[target]++;
      d.total--;
    }
    return;
  }
}

/**
 * A deleted ad leaves my ads and the cart at once; the page is read again when ads follow it on
 * later pages (the next one moves up) or it is now empty (the page before).
 */
function drop(id: string) {
  dropFromCart(id);
  const d = myAdsStore.state.data;
  if (!d) return;
  for (const key of ['approvedAds', 'pendingAds'] as const) {
    if (!d[key].some((a) => a.id === id)) continue;
    d[key] = d[key].filter((a) => a.id !== id);
    d.totals[key] = Math.max(0, d.totals[key] - 1);
    d.total = Math.max(0, d.total - 1);
  }
  const shown = d[listKey(d.list)].length;
  if (pageNeedsReading(d.total, myAdsQuery.page, MY_ADS_PAGE_SIZE, shown)) void myAdsStore.load();
}

// Each action below shows its answer only to the user who sent it: one who signed out meanwhile
// (and whoever signed in after) sees nothing of it (sessionCheck).

/** Posts a new ad (multipart); it lands in the cart, unpaid. */
export async function postAd(fields: PostAdFields, photos: File[]): Promise<OwnerAd> {
  const unchanged = sessionCheck();
  const { ad } = await adsApi.post(buildPostAdBody(fields, photos));
  if (unchanged()) addToCart(ad);
  return ad;
}

/**
 * Edits an own ad: the fields, the current photos to keep (URLs) and new files. A rejected ad
 * comes back unpaid (into the cart); a live one keeps its content and carries the edit as its revision.
 */
export async function editAd(id: string, fields: PostAdFields, keepPhotos: readonly string[], photos: File[]): Promise<OwnerAd> {
  const unchanged = sessionCheck();
  const { ad } = await adsApi.edit(id, buildEditAdBody(fields, keepPhotos, photos));
  if (!unchanged()) return ad;
  replace(ad);
  if (ad.status === 'unpaid') addToCart(ad);
  else dropFromCart(id);
  return ad;
}

export async function setAdOnline(id: string, online: boolean): Promise<void> {
  const unchanged = sessionCheck();
  const { ad } = await adsApi.setOnline(id, online);
  if (unchanged()) replace(ad);
}

export async function moveAd(id: string, stateId: string, cityId: string): Promise<void> {
  const unchanged = sessionCheck();
  const { ad } = await adsApi.move(id, stateId, cityId);
  if (unchanged()) replace(ad);
}

/** Bumps an ad: the ad (new bump time) and the wallet that paid (new balance) come back together. */
export async function bumpAd(id: string, walletId: string, priceCents?: number): Promise<void> {
  const unchanged = sessionCheck();
  const { ad, wallet } = await atShownPrice(() => adsApi.bump(id, walletId, priceCents));
  if (!unchanged()) return;
  replace(ad);
  upsertWallet(wallet);
}

/** Renews an approved or expired ad for the ad price: the ad (new expiry) and the wallet that paid. */
export async function renewAd(id: string, walletId: string, quote?: Quote): Promise<OwnerAd> {
  const unchanged = sessionCheck();
  const { ad, wallet } = await atShownPrice(() => adsApi.renew(id, walletId, quote));
  if (!unchanged()) return ad;
  replace(ad);
  upsertWallet(wallet);
  return ad;
}

/** Pays an unpaid ad from a wallet (the cart's payment): it goes to review. */
export async function payAd(id: string, walletId: string, quote?: Quote): Promise<OwnerAd> {
  const unchanged = sessionCheck();
  const ad = await payCartAd(id, walletId, quote);
  if (unchanged()) replace(ad);
  return ad;
}

/** Deletes an own ad; answers what was refunded (an ad in review), and the wallets show it. */
export async function deleteAd(id: string): Promise<number> {
  const unchanged = sessionCheck();
  const { refundedCents } = await adsApi.remove(id);
  if (!unchanged()) return refundedCents;
  drop(id);
  if (refundedCents > 0 && walletsStore.state.data) void walletsStore.load();
  return refundedCents;
}
