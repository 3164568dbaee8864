import type { Generated } from 'kysely';

export type HoldTarget = 'user' | 'ad';
export type DuplicateKind = 'phone' | 'photo' | 'text';
export type HeldIdentityField = 'email' | 'nickname';
export type HeldAdDeletion = 'cart_deletion' | 'profile_deletion' | 'ad_deletion';

/** The moderation module's tables (migrations 0010, 0018, 0033 and 0046), as Kysely sees them. */
export interface ModerationTables {
  legal_holds: {
    id: string;
    target_type: HoldTarget;
    target_id: string;
    /** The account concerned: the user held, or the held ad's owner. */
    user_id: string;
    reason: string;
    placed_by: string | null;
    placed_by_email: string | null;
    placed_at: string;
    released_at: string | null;
    /** The releasing staff member's e-mail (the erased placeholder once they are erased) and id (migration 0033). */
    released_by: string | null;
    released_by_id: string | null;
    release_note: string | null;
  };
  /** Ads deleted while held: the row as it was (row_json), its files kept. */
  held_ads: {
    id: string;
    owner_id: string;
    listing_type: string;
    title: string;
    description: string;
    phone: string;
    state_id: string;
    city_id: string;
    photos_json: string;
    status_before: string;
    row_json: string;
    created_at: string;
    deleted_at: string;
    deleted_by: HeldAdDeletion;
  };
  /** Files kept for a hold that no row names any more: a held account's replaced avatar (migration 0018). */
  held_files: { path: string; user_id: string; created_at: string };
  /** A held account's changes of e-mail or nickname, with the value replaced (migration 0033). */
  held_identity: {
    id: Generated<number>;
    user_id: string;
    field: HeldIdentityField;
    old_value: string;
    new_value: string;
    changed_at: string;
  };
  photo_hashes: { ad_id: string; owner_id: string; path: string; hash: string; created_at: string };
  /** An ad's normalised title and description, hashed (moderation.duplicates.ts, migration 0046). */
  text_hashes: { ad_id: string; owner_id: string; hash: string; created_at: string };
  duplicate_flags: {
    ad_id: string;
    other_ad_id: string;
    other_owner_id: string;
    kind: DuplicateKind;
    distance: number | null;
    created_at: string;
  };
}
