import { uploadUrl } from '../uploads/uploads.storage.ts';
import type { AdRow, StaffAdRow } from './ads.repository.ts';
import type { AdStatus, ListingType } from './ads.tables.ts';
import type { AdDetails, OwnerAd, Photo, PublicAd, StaffAd } from '../../../contract/api/ads.ts';

/** How photos are stored in ads.photos_json: paths relative to the uploads root. */
export interface StoredPhoto {
  path: string;
  width: number;
  height: number;
  thumbPath: string;
  thumbWidth: number;
  thumbHeight: number;
}

// The ad JSON in its three views: the contract's types (its schemas are the answers' whitelist).
export type PhotoDto = Photo;
export type AdDto = PublicAd;
export type OwnerAdDto = OwnerAd;
export type StaffAdDto = StaffAd;

export function photosOf(json: string): PhotoDto[] {
  return (JSON.parse(json) as StoredPhoto[]).map((p) => ({
    url: uploadUrl(p.path),
    width: p.width,
    height: p.height,
    thumbUrl: uploadUrl(p.thumbPath),
    thumbWidth: p.thumbWidth,
    thumbHeight: p.thumbHeight,
  }));
}

/** The minimal row any ad JSON is built from (the public read path selects just these). */
export interface AdCoreRow {
  id: string;
  listing_type: ListingType;
  title: string;
  description: string;
  age: string;
  state_id: string;
  state_name: string;
  state_slug: string;
  city_id: string;
  city_name: string;
  city_slug: string;
  phone: string;
  /** 1 when the phone is the owner's verified phone (worked out by the query, from users). */
  phone_verified: number;
  photos_json: string;
  status: AdStatus;
  online: number;
  bumped_at: string | null;
  published_at: string | null;
  expires_at: string | null;
  /** Already parsed photos_json (the public read path caches them); parsed here when absent. */
  photos?: PhotoDto[];
  /** The richer parts (migration 0012); the answer has `details` when the row has them. */
  rates_json?: string;
  incall?: number;
  outcall?: number;
  availability_json?: string;
}

export function detailsOf(r: { rates_json: string; incall: number; outcall: number; availability_json: string }): AdDetails {
  return { rates: JSON.parse(r.rates_json), incall: r.incall === 1, outcall: r.outcall === 1, availability: JSON.parse(r.availability_json) };
}

export function toPublicAd(r: AdCoreRow): AdDto {
  return {
    id: r.id,
    listingType: r.listing_type,
    title: r.title,
    description: r.description,
    age: r.age,
    state: { id: r.state_id, name: r.state_name, slug: r.state_slug },
    city: { id: r.city_id, name: r.city_name, slug: r.city_slug },
    phone: r.phone,
    phoneVerified: r.phone_verified === 1,
    photos: r.photos ?? photosOf(r.photos_json),
    status: r.status,
    online: r.online === 1,
    bumpedAt: r.bumped_at,
    publishedAt: r.published_at,
    expiresAt: r.expires_at,
    ...(r.rates_json !== undefined ? { details: detailsOf(r as Required<Pick<AdCoreRow, 'rates_json' | 'incall' | 'outcall' | 'availability_json'>>) } : {}),
  };
}

/**
 * An ad as its owner sees it. With `now`, as of then: one whose term ran out is expired and not
 * shown, as the public and the dashboard's counts have it, before the expire-ads job stores it so
 * (a held term has not run: it stays approved).
 */
export function toOwnerAd(r: AdRow, now?: string): OwnerAdDto {
  const ranOut = now !== undefined && r.expires_at !== null && r.expires_at <= now && !r.term_held;
  const row = ranOut && r.status === 'approved' ? { ...r, status: 'expired' as const } : r;
  return {
    ...toPublicAd(row),
    ownerId: r.owner_id,
    rejectionReason: r.rejection_reason,
    priceCents: r.price_cents,
    paidWalletId: r.paid_wallet_id,
    createdAt: r.created_at,
    shown: r.visible === 1 && !ranOut,
    placeClosed: r.place_open !== 1,
    termHeld: r.term_held === 1,
  };
}

/** An ad as staff see it; with `now`, as of then (toOwnerAd). */
export function toStaffAd(r: StaffAdRow, now?: string): StaffAdDto {
  return {
    ...toOwnerAd(r, now),
    owner: { id: r.owner_id, email: r.owner_email, nickname: r.owner_nickname, status: r.owner_status },
    updatedAt: r.updated_at,
  };
}
