import { api } from './client';
import { IDEMPOTENCY_KEY_HEADER, type adsApi as adsContract, type PostAdFields } from '../../contract/api/ads.ts';
import type { listingsApi } from '../../contract/api/listings.ts';
import type { BodyOf, QueryOf, ResponseOf } from '../../contract/api/types.ts';

// Every shape here is the contract's (contract/api/ads.ts): the ad in its public, owner and staff views.
export type {
  AdActivity,
  AdContent,
  AdCounts,
  AdDetails,
  OwnAdsList,
  OwnerAd,
  Photo,
  PostAdFields,
  PublicAd,
  Revision,
  StaffAd,
} from '../../contract/api/ads.ts';
export type { ListingType } from '../../contract/api/pricing.ts';
/** An ad as anyone may see it; the owner's and staff's views (OwnerAd, StaffAd) add to it. */
export type { PublicAd as Ad } from '../../contract/api/ads.ts';

type Ads = typeof adsContract;
type ReportAd = (typeof listingsApi)['POST /api/report-ad/:id'];
export type CartQuery = QueryOf<Ads['GET /api/cart-ads-by-user']>;
export type MyAdsQuery = QueryOf<Ads['GET /api/all-ads-by-user']>;
/** A page of my ads: one list's (or both lists') ads, with the page's place and both lists' sizes. */
export type MyAdsPage = ResponseOf<Ads['GET /api/all-ads-by-user']>;

/** A query without its unset fields (URLSearchParams would send them as "undefined"). */
const defined = (q: Record<string, string | number | undefined>) =>
  Object.fromEntries(Object.entries(q).filter((e): e is [string, string | number] => e[1] !== undefined));

/** What a payment tells the server the payer was shown: the price, and for an ad the days it buys. */
export interface Quote {
  priceCents: number;
  durationDays?: number;
}

/** The multipart body of POST /api/post-ad: the text fields, then every photo under `photos`. */
export function buildPostAdBody(fields: PostAdFields, photos: File[]): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const f of photos) fd.append('photos', f, f.name);
  return fd;
}

/** The multipart body of PUT /api/ads/:id: post-ad's fields, the current photos to keep (a JSON array of their URLs), the new files. */
export function buildEditAdBody(fields: PostAdFields, keepPhotos: readonly string[], photos: File[]): FormData {
  const fd = buildPostAdBody(fields, photos);
  fd.append('keepPhotos', JSON.stringify(keepPhotos));
  return fd;
}

const at = (path: string, id: string) => `${path}/${encodeURIComponent(id)}`;

/**
 * The limit of a call that uploads photos (post-ad, edit): up to 60 MB sent as picked, then
 * re-encoded by the server. Five phone photos take ~20 s on a good cellular uplink and minutes on
 * a poor one; the 30 s of every other call cut such a post off while the server went on storing it.
 */
export const UPLOAD_TIMEOUT_MS = 10 * 60_000;

/** The request key of one user action (state/ads.ts actionKey): the same on its retries, so the server does it once. */
const keyed = (key: string | undefined) => (key ? { headers: { [IDEMPOTENCY_KEY_HEADER]: key } } : {});

export const adsApi = {
  post: (body: FormData, key?: string) => api.post<ResponseOf<Ads['POST /api/post-ad'], 201>>('post-ad', { body, timeout: UPLOAD_TIMEOUT_MS, ...keyed(key) }),
  /** A page of the cart (unpaid ads, newest first). */
  cart: (q: CartQuery = {}) => api.get<ResponseOf<Ads['GET /api/cart-ads-by-user']>>('cart-ads-by-user', { searchParams: defined(q) }),
  deleteCartAd: (id: string) => api.delete<ResponseOf<Ads['DELETE /api/delete-cart-ad/:id']>>(at('delete-cart-ad', id)),
  /** `quote`: the price (and days) the payer was shown; a price changed since is refused (409 pricing.price_changed). */
  payCartAd: (id: string, walletId: string, quote?: Quote) =>
    api.put<ResponseOf<Ads['PUT /api/ad-payment-in-cart/:id']>>(at('ad-payment-in-cart', id), {
      json: { walletId, ...quote } satisfies BodyOf<Ads['PUT /api/ad-payment-in-cart/:id']>,
    }),
  /** A page of my ads: of one list (`list`), or of both; `adId` asks for that one ad alone. */
  mine: (q: MyAdsQuery = {}) => api.get<MyAdsPage>('all-ads-by-user', { searchParams: defined(q) }),
  /** The dashboard's counts of my ads by status, those online now, and the latest decisions on them. */
  overview: () => api.get<ResponseOf<Ads['GET /api/my-ads-overview']>>('my-ads-overview'),
  setOnline: (id: string, online: boolean) =>
    api.put<ResponseOf<Ads['PUT /api/update-ad-online-status/:id']>>(at('update-ad-online-status', id), {
      json: { online } satisfies BodyOf<Ads['PUT /api/update-ad-online-status/:id']>,
    }),
  move: (id: string, stateId: string, cityId: string) =>
    api.put<ResponseOf<Ads['PUT /api/update-ad-location/:id']>>(at('update-ad-location', id), {
      json: { stateId, cityId } satisfies BodyOf<Ads['PUT /api/update-ad-location/:id']>,
    }),
  bump: (id: string, walletId: string, priceCents?: number, key?: string) =>
    api.put<ResponseOf<Ads['PUT /api/bump-ad/:id']>>(at('bump-ad', id), {
      json: { walletId, ...(priceCents === undefined ? {} : { priceCents }) } satisfies BodyOf<Ads['PUT /api/bump-ad/:id']>,
      ...keyed(key),
    }),
  /** Edits an own ad (multipart, buildEditAdBody): in place, back to the cart when rejected, or as a revision of a live ad. */
  edit: (id: string, body: FormData) => api.put<ResponseOf<Ads['PUT /api/ads/:id']>>(at('ads', id), { body, timeout: UPLOAD_TIMEOUT_MS }),
  renew: (id: string, walletId: string, quote?: Quote, key?: string) =>
    api.put<ResponseOf<Ads['PUT /api/renew-ad/:id']>>(at('renew-ad', id), {
      json: { walletId, ...quote } satisfies BodyOf<Ads['PUT /api/renew-ad/:id']>,
      ...keyed(key),
    }),
  /** Deletes an own ad in any status; one in review is refunded (refundedCents). */
  remove: (id: string) => api.delete<ResponseOf<Ads['DELETE /api/ads/:id']>>(at('ads', id)),
  /** Anyone may report an ad (a guest too: a 401/403 must not send them to sign in). */
  report: (id: string, body: BodyOf<ReportAd>) => api.post<ResponseOf<ReportAd, 201>>(at('report-ad', id), { json: body, redirectOnAuth: false }),
};
