import { api } from './client';
import type { Wallet } from './wallets';

export type ListingType = 'female_esc' | 'female_rub' | 'shemale_esc';
export type AdStatus = 'unpaid' | 'in_review' | 'approved' | 'rejected' | 'disabled' | 'expired';
export type AdAge = string; // '21'…'45' or 'over45'

export interface Photo {
  url: string;
  width: number;
  height: number;
  thumbUrl?: string;
}
export interface Place {
  id: string;
  name: string;
  slug: string;
}
export interface Ad {
  id: string;
  listingType: ListingType;
  title: string;
  description: string;
  age: AdAge;
  state: Place;
  city: Place;
  phone: string;
  photos: Photo[];
  status: AdStatus;
  online: boolean;
  bumpedAt: string | null;
  publishedAt: string | null;
  expiresAt: string | null;
  createdAt?: string;
  // owner and staff views
  ownerId?: string;
  rejectionReason?: string | null;
  priceCents?: number | null;
  paidWalletId?: string | null;
  // staff views
  owner?: { id: string; email: string; nickname: string; status: string };
}

export interface PostAdFields {
  listingType: ListingType;
  title: string;
  description: string;
  age: string;
  stateId: string;
  cityId: string;
  phone: string;
}

/** The multipart body of POST /api/post-ad: the text fields, then every photo under `photos`. */
export function buildPostAdBody(fields: PostAdFields, photos: File[]): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const f of photos) fd.append('photos', f, f.name);
  return fd;
}

export const adsApi = {
  post: (body: FormData) => api.post<{ ad: Ad }>('post-ad', { body }),
  cart: () => api.get<{ pendingAds: Ad[] }>('cart-ads-by-user'),
  deleteCartAd: (id: string) => api.delete<unknown>(`delete-cart-ad/${encodeURIComponent(id)}`),
  payCartAd: (id: string, walletId: string) =>
    api.put<{ ad: Ad; wallet: Wallet }>(`ad-payment-in-cart/${encodeURIComponent(id)}`, { json: { walletId } }),
  mine: () => api.get<{ approvedAds: Ad[]; pendingAds: Ad[] }>('all-ads-by-user'),
  setOnline: (id: string, online: boolean) => api.put<{ ad?: Ad }>(`update-ad-online-status/${encodeURIComponent(id)}`, { json: { online } }),
  move: (id: string, stateId: string, cityId: string) =>
    api.put<{ ad?: Ad }>(`update-ad-location/${encodeURIComponent(id)}`, { json: { stateId, cityId } }),
  bump: (id: string, walletId: string) => api.put<{ ad?: Ad; wallet?: Wallet }>(`bump-ad/${encodeURIComponent(id)}`, { json: { walletId } }),
  report: (id: string, body: { message: string; contact?: string }) =>
    api.post<unknown>(`report-ad/${encodeURIComponent(id)}`, { json: body, redirectOnAuth: false }),
};
