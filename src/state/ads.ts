import { proxy } from 'valtio';
import { createResource, onReset, sessionCheck } from './resource';
import { adsApi, buildEditAdBody, buildPostAdBody, type MyAdsPage, type OwnAdsList, type OwnerAd, type PostAdFields, type Quote } from '../api/ads';
import { atShownPrice } from './pricing';
import { movingMoney, upsertWallet, walletsStore } from './wallets';
import { addToCart, adGone, dropFromCart, payCartAd } from './cart';
import { pageNeedsReading, readWithinPages } from './paging';
import { dropPostKey, keepPostKey, readPostKey } from './adDraft';
import { sessionStore } from './session';

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

/**
 * Request keys (Idempotency-Key, contract/api/ads.ts): an action that charges a wallet or fills the
 * cart is sent with a random key, kept while the same action is tried again (the same ad; for a
 * post, the same form) and dropped once it succeeds. An answer lost on a flaky network ("Something
 * went wrong.") and the user pressing again then sends the same key, and the server answers what it
 * did instead of doing it twice. One key per slot (a post, a bump or a renewal of one ad): another
 * content in the slot (the form changed) gets a new key. A post's key is also kept with the form's
 * draft in the tab (state/adDraft): a provider who reloads after the error gets the form back, and
 * its post is still the same post. The others are kept in memory: a reload starts afresh.
 */
const actionKeys = new Map<string, Kept>();
onReset(() => actionKeys.clear());

interface Kept {
  content: string;
  key: string;
}

/** Where a slot's key is kept between tries. */
interface KeyShelf {
  get(): Kept | undefined;
  set(kept: Kept): void;
  /** Drops `kept` (it succeeded), unless another key took its place meanwhile. */
  drop(kept: Kept): void;
}

const inMemory = (slot: string): KeyShelf => ({
  get: () => actionKeys.get(slot),
  set: (kept) => void actionKeys.set(slot, kept),
  drop: (kept) => {
    if (actionKeys.get(slot)?.key === kept.key) actionKeys.delete(slot);
  },
});

/** The post's key: with the draft in the tab (for `userId`), and in memory where the tab keeps nothing. */
const withDraft = (userId: string): KeyShelf => {
  const memory = inMemory('post');
  return {
    get: () => readPostKey(userId) ?? memory.get(),
    set: (kept) => {
      keepPostKey(userId, kept);
      memory.set(kept);
    },
    drop: (kept) => {
      dropPostKey(kept.key);
      memory.drop(kept);
    },
  };
};

/** 128 random bits, URL-safe (crypto.randomUUID needs a secure context: a plain-HTTP install has none). */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Sends the slot's action with its key (a new one unless the same content is being retried); drops the key when it succeeded. */
async function keyed<T>(shelf: KeyShelf, content: string, send: (key: string) => Promise<T>): Promise<T> {
  let kept = shelf.get();
  if (!kept || kept.content !== content) {
    kept = { content, key: newKey() };
    shelf.set(kept);
  }
  const out = await send(kept.key);
  shelf.drop(kept);
  return out;
}

/** What makes two posts the same post: the fields and the files picked (not their bytes, which are not read here). */
function formContent(fields: PostAdFields, photos: readonly File[]): string {
  return JSON.stringify([fields, photos.map((f) => [f.name, f.size, f.type, f.lastModified])]);
}

// Each action below shows its answer only to the user who sent it: one who signed out meanwhile
// (and whoever signed in after) sees nothing of it (sessionCheck).

/** Posts a new ad (multipart); it lands in the cart, unpaid. Sent again after a lost answer, the server gives back the same ad. */
export async function postAd(fields: PostAdFields, photos: File[]): Promise<OwnerAd> {
  const unchanged = sessionCheck();
  const shelf = withDraft(sessionStore.session.id ?? '');
  const { ad } = await keyed(shelf, formContent(fields, photos), (key) => adsApi.post(buildPostAdBody(fields, photos), key));
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
  // A lost answer, or "bumped a minute ago" (maybe by the lost one): the balance on screen may be stale.
  const { ad, wallet } = await movingMoney('ad.bump_too_soon', unchanged, () =>
    keyed(inMemory(`bump:${id}`), '', (key) => atShownPrice(() => adsApi.bump(id, walletId, priceCents, key))),
  );
  if (!unchanged()) return;
  replace(ad);
  upsertWallet(wallet);
}

/** Renews an approved or expired ad for the ad price: the ad (new expiry) and the wallet that paid. */
export async function renewAd(id: string, walletId: string, quote?: Quote): Promise<OwnerAd> {
  const unchanged = sessionCheck();
  const { ad, wallet } = await movingMoney('ad.renew_too_soon', unchanged, () =>
    keyed(inMemory(`renew:${id}`), '', (key) => atShownPrice(() => adsApi.renew(id, walletId, quote, key))),
  );
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

/**
 * Deletes an own ad; answers what was refunded (an ad in review), and the wallets show it. "Not
 * found" for one's own listed ad means it is gone already: a delete whose answer was lost (or
 * another tab's). It is done: the ad leaves the lists and the wallets are read again, since what
 * the lost answer refunded is not known here (0 is answered).
 */
export async function deleteAd(id: string): Promise<number> {
  const unchanged = sessionCheck();
  let refundedCents: number;
  try {
    ({ refundedCents } = await adsApi.remove(id));
  } catch (e) {
    if (!adGone(e)) throw e;
    if (!unchanged()) throw e;
    drop(id);
    if (walletsStore.state.data) void walletsStore.load();
    return 0;
  }
  if (!unchanged()) return refundedCents;
  drop(id);
  if (refundedCents > 0 && walletsStore.state.data) void walletsStore.load();
  return refundedCents;
}
