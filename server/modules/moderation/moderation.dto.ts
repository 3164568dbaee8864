import { photosOf } from '../ads/ads.dto.ts';
import type { LegalHold, ModAd } from '../../../contract/api/moderation.ts';
import type { ModAdRow } from './moderation.repository.ts';
import type { HoldRow } from './moderation.account.repository.ts';

// Moderation rows as the answers carry them: an ad (staff search, the user page, the reports
// screen) and a legal hold.

export function toModAd(r: ModAdRow): ModAd {
  const photos = photosOf(r.photos_json);
  return {
    id: r.id,
    title: r.title,
    status: r.status,
    listingType: r.listing_type as ModAd['listingType'],
    phone: r.phone,
    place: r.city_name && r.state_code ? `${r.city_name}, ${r.state_code}` : null,
    thumbUrl: photos[0]?.thumbUrl ?? null,
    photoCount: photos.length,
    createdAt: r.created_at,
    publishedAt: r.published_at,
    expiresAt: r.expires_at,
    rejectionReason: r.rejection_reason,
    rejectionCategory: r.rejection_category as ModAd['rejectionCategory'],
    deletedAt: r.deleted_at,
    owner: { id: r.owner_id, email: r.owner_email, nickname: r.owner_nickname, status: r.owner_status, deleted: r.owner_deleted_at !== null },
    held: r.held === 1,
  };
}

export function toHold(h: HoldRow): LegalHold {
  return {
    id: h.id,
    targetType: h.target_type,
    targetId: h.target_id,
    userId: h.user_id,
    reason: h.reason,
    placedBy: h.placed_by_email,
    placedAt: h.placed_at,
    releasedAt: h.released_at,
    releasedBy: h.released_by,
    releaseNote: h.release_note,
    active: h.released_at === null,
  };
}
