import type { Generated } from 'kysely';

export type ListingType = 'female_esc' | 'female_rub' | 'shemale_esc';
export type AdStatus = 'unpaid' | 'in_review' | 'approved' | 'rejected' | 'disabled' | 'expired';
export type PricingKind = 'ad' | 'bump';
export type RejectionCategory = 'underage_suspected' | 'trafficking_suspected' | 'prohibited_content' | 'spam' | 'misleading' | 'other';
/** What made a stored version of an ad: posted, edited in place, an edit approved, moved to another city by its owner. */
export type AdVersionSource = 'posted' | 'edited' | 'revision_approved' | 'moved';

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
    /** The staff member who created it and who last edited it (migration 0038); null: the system (a welcome code), or never edited. */
    created_by: string | null;
    updated_by: string | null;
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
    /** The category of the rejection (migration 0010), counted by the transparency report. */
    rejection_category: RejectionCategory | null;
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
    /** Issue 13 (migration 0012): richer ads, payment attempts, renewals and reminders. */
    rates_json: Generated<string>;
    incall: Generated<number>;
    outcall: Generated<number>;
    availability_json: Generated<string>;
    pay_attempt: Generated<number>;
    renewed_at: string | null;
    reminded_for: string | null;
    expired_notice_for: string | null;
    /** When the reminder or notice was taken, until its e-mail has left (ads.reminders.ts, migration 0043). */
    reminder_claimed_at: string | null;
    expired_notice_claimed_at: string | null;
    /** 1 while its paid term waits for its owner's approval (migration 0029). */
    term_held: Generated<number>;
  };
  /** Edits of approved ads waiting for review, and their outcome (migration 0012). */
  ad_revisions: {
    id: string;
    ad_id: string;
    owner_id: string;
    status: 'pending' | 'approved' | 'rejected' | 'superseded';
    listing_type: ListingType;
    title: string;
    description: string;
    age: string;
    state_id: string;
    city_id: string;
    phone: string;
    photos_json: string;
    rates_json: string;
    incall: number;
    outcall: number;
    availability_json: string;
    rejection_reason: string | null;
    created_at: string;
    decided_at: string | null;
    decided_by: string | null;
  };
  /** Every version of every ad as stored (migration 0012; moves since 0024). */
  ad_versions: {
    id: Generated<number>;
    ad_id: string;
    owner_id: string;
    source: AdVersionSource;
    fields_json: string;
    created_at: string;
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
  /** One row per ad posted, kept when the ad is deleted: the daily limit counts these. */
  ad_post_log: {
    id: Generated<number>;
    user_id: string;
    ad_id: string;
    posted_at: string;
    /** The request key it was sent with (migration 0040): tries of one request count once. */
    request_key: string | null;
  };
  ads_public_counts: { city_id: string; listing_type: ListingType; state_id: string; n: number };
}
