import { Type } from 'typebox';
import { uploadUrl } from '../uploads/uploads.storage.ts';
import type { AdRow, StaffAdRow } from './ads.repository.ts';
import type { AdStatus, ListingType } from './ads.tables.ts';

/** How photos are stored in ads.photos_json: paths relative to the uploads root. */
export interface StoredPhoto {
  path: string;
  width: number;
  height: number;
  thumbPath: string;
  thumbWidth: number;
  thumbHeight: number;
}

export interface PhotoDto {
  url: string;
  width: number;
  height: number;
  thumbUrl: string;
}

export interface AdDto {
  id: string;
  listingType: ListingType;
  title: string;
  description: string;
  age: string;
  state: { id: string; name: string; slug: string };
  city: { id: string; name: string; slug: string };
  phone: string;
  photos: PhotoDto[];
  status: AdStatus;
  online: boolean;
  bumpedAt: string | null;
  publishedAt: string | null;
  expiresAt: string | null;
}

export interface OwnerAdDto extends AdDto {
  ownerId: string;
  rejectionReason: string | null;
  priceCents: number | null;
  paidWalletId: string | null;
  createdAt: string;
}

export interface StaffAdDto extends OwnerAdDto {
  owner: { id: string; email: string; nickname: string; status: string };
}

export function photosOf(json: string): PhotoDto[] {
  return (JSON.parse(json) as StoredPhoto[]).map((p) => ({ url: uploadUrl(p.path), width: p.width, height: p.height, thumbUrl: uploadUrl(p.thumbPath) }));
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
  photos_json: string;
  status: AdStatus;
  online: number;
  bumped_at: string | null;
  published_at: string | null;
  expires_at: string | null;
  /** Already parsed photos_json (the public read path caches them); parsed here when absent. */
  photos?: PhotoDto[];
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
    photos: r.photos ?? photosOf(r.photos_json),
    status: r.status,
    online: r.online === 1,
    bumpedAt: r.bumped_at,
    publishedAt: r.published_at,
    expiresAt: r.expires_at,
  };
}

export function toOwnerAd(r: AdRow): OwnerAdDto {
  return {
    ...toPublicAd(r),
    ownerId: r.owner_id,
    rejectionReason: r.rejection_reason,
    priceCents: r.price_cents,
    paidWalletId: r.paid_wallet_id,
    createdAt: r.created_at,
  };
}

export function toStaffAd(r: StaffAdRow): StaffAdDto {
  return { ...toOwnerAd(r), owner: { id: r.owner_id, email: r.owner_email, nickname: r.owner_nickname, status: r.owner_status } };
}

// Response schemas: the field whitelist. Public routes use PublicAdSchema, so an owner field can
// never reach a guest even if a service returned it by mistake.
const Place = Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String() });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const publicFields = {
  id: Type.String(),
  listingType: Type.String(),
  title: Type.String(),
  description: Type.String(),
  age: Type.String(),
  state: Place,
  city: Place,
  phone: Type.String(),
  photos: Type.Array(Type.Object({ url: Type.String(), width: Type.Integer(), height: Type.Integer(), thumbUrl: Type.String() })),
  status: Type.String(),
  online: Type.Boolean(),
  bumpedAt: Nullable(Type.String()),
  publishedAt: Nullable(Type.String()),
  expiresAt: Nullable(Type.String()),
};
const ownerFields = {
  ...publicFields,
  ownerId: Type.String(),
  rejectionReason: Nullable(Type.String()),
  priceCents: Type.Union([Type.Integer(), Type.Null()]),
  paidWalletId: Nullable(Type.String()),
  createdAt: Type.String(),
};
export const PublicAdSchema = Type.Object(publicFields);
export const OwnerAdSchema = Type.Object(ownerFields);
export const StaffAdSchema = Type.Object({
  ...ownerFields,
  owner: Type.Object({ id: Type.String(), email: Type.String(), nickname: Type.String(), status: Type.String() }),
});
