import type { Generated } from 'kysely';

export type ListingType = 'female_esc' | 'female_rub' | 'shemale_esc';
export type AdStatus = 'unpaid' | 'in_review' | 'approved' | 'rejected' | 'disabled' | 'expired';
export type PricingKind = 'ad' | 'bump';

/** Marketplace tables (migration 0003): pricing, promo codes, ads and their screening log; the post log (0005). */
export interface MarketTables {
  pricing: {
    id: string;
    kind: PricingKind;
    listing_type: ListingType;
    price_cents: number;
    duration_days: number | null;
    updated_at: string;
  };
  promo_codes: {
    id: string;
    code: string;
    amount_cents: number;
    max_uses: number;
    uses: Generated<number>;
    expires_at: string | null;
    active: Generated<number>;
    owner_user_id: string | null;
    created_at: string;
    updated_at: string;
  };
  promo_redemptions: {
    code_id: string;
    user_id: string;
    wallet_id: string;
    amount_cents: number;
    created_at: string;
  };
  ads: {
    id: string;
    owner_id: string;
    listing_type: ListingType;
    title: string;
    description: string;
    age: string;
    state_id: string;
    city_id: string;
    phone: string;
    photos_json: string;
    status: Generated<AdStatus>;
    online: Generated<number>;
    rejection_reason: string | null;
    price_cents: number | null;
    duration_days: number | null;
    paid_wallet_id: string | null;
    paid_at: string | null;
    bump_seq: number | null;
    bumped_at: string | null;
    published_at: string | null;
    expires_at: string | null;
    created_at: string;
    updated_at: string;
    visible: Generated<number>;
  };
  screening_log: {
    id: Generated<number>;
    user_id: string | null;
    ad_id: string | null;
    /** Which field held the screened term (only the service writes this table). */
    field: 'title' | 'description';
    term: string;
    title: string;
    description: string;
    ip: string | null;
    created_at: string;
  };
  ads_public_version: { id: number; v: number };
  /** One row per ad posted, kept when the ad is deleted: the daily limit counts these. */
  ad_post_log: {
    id: Generated<number>;
    user_id: string;
    ad_id: string;
    posted_at: string;
  };
  ads_public_counts: { city_id: string; listing_type: ListingType; state_id: string; n: number };
}
