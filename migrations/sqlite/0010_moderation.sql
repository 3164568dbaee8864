-- Moderators' tools and trust and safety (issue #14): sign-in failures, legal holds, ads kept
-- while held, perceptual hashes of photos and duplicate flags, the rejection reason's category.

-- Sign-ins record failures too (a wrong password for an existing account, a suspended account).
-- Rows older than 180 days are purged, except those of held accounts (purgeOldSignIns).
ALTER TABLE sign_ins ADD COLUMN success INTEGER NOT NULL DEFAULT 1 CHECK (success IN (0, 1));
ALTER TABLE sign_ins ADD COLUMN failure TEXT CHECK (failure IS NULL OR failure IN ('wrong_password', 'suspended'));
CREATE INDEX sign_ins_at ON sign_ins (at);
-- Accounts that signed in from the same address (the user page's related accounts).
CREATE INDEX sign_ins_ip ON sign_ins (ip, user_id);

-- A legal hold on an account or an ad, placed by staff with a reason (audited). While a hold is
-- active nothing of its subject is deleted or purged. user_id is the account concerned (the ad's
-- owner for a hold on an ad), so "is anything of this user held" is one indexed lookup.
CREATE TABLE legal_holds (
  id TEXT PRIMARY KEY,
  target_type TEXT NOT NULL CHECK (target_type IN ('user', 'ad')),
  target_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  placed_by TEXT,
  placed_by_email TEXT,
  placed_at TEXT NOT NULL,
  released_at TEXT,
  released_by TEXT,
  release_note TEXT
);
CREATE INDEX legal_holds_target ON legal_holds (target_type, target_id) WHERE released_at IS NULL;
CREATE INDEX legal_holds_user ON legal_holds (user_id) WHERE released_at IS NULL;
CREATE INDEX legal_holds_placed ON legal_holds (placed_at);

-- Ads deleted (from the cart, or with their owner's profile) while held: the row as it was, its
-- photo files kept on disk. Invisible to the public (not in ads); staff search shows them as
-- 'deleted'. Removed, with the files, when the last hold on them is released.
CREATE TABLE held_ads (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  listing_type TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  phone TEXT NOT NULL,
  state_id TEXT NOT NULL,
  city_id TEXT NOT NULL,
  photos_json TEXT NOT NULL,
  status_before TEXT NOT NULL,
  -- Every column of the ads row when it was deleted, as JSON.
  row_json TEXT NOT NULL,
  created_at TEXT NOT NULL,
  deleted_at TEXT NOT NULL,
  deleted_by TEXT NOT NULL CHECK (deleted_by IN ('cart_deletion', 'profile_deletion', 'ad_deletion'))
);
CREATE INDEX held_ads_owner ON held_ads (owner_id, created_at);
CREATE INDEX held_ads_phone ON held_ads (phone);

-- A 64-bit difference hash (dHash) of every ad photo, written when the ad is posted: near-identical
-- photos (re-encoded, resized) have hashes a few bits apart. No foreign key: kept with held ads.
CREATE TABLE photo_hashes (
  ad_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  path TEXT NOT NULL,
  hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (ad_id, path)
) WITHOUT ROWID;
CREATE INDEX photo_hashes_owner ON photo_hashes (owner_id);

-- Another account's ad with the same phone or a near-identical photo, found when an ad is posted
-- (both ads get a row); shown to the reviewer.
CREATE TABLE duplicate_flags (
  ad_id TEXT NOT NULL,
  other_ad_id TEXT NOT NULL,
  other_owner_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('phone', 'photo')),
  -- Photo flags: the smallest Hamming distance between the two ads' photo hashes.
  distance INTEGER,
  created_at TEXT NOT NULL,
  PRIMARY KEY (ad_id, other_ad_id, kind)
) WITHOUT ROWID;
CREATE INDEX duplicate_flags_other ON duplicate_flags (other_ad_id);

-- Same-phone lookups (duplicates, staff search by phone) without a scan of every ad.
CREATE INDEX ads_phone ON ads (phone);

-- Why an ad was rejected, as a category the transparency report counts (the reason stays free text).
ALTER TABLE ads ADD COLUMN rejection_category TEXT CHECK (
  rejection_category IS NULL
  OR rejection_category IN ('underage_suspected', 'trafficking_suspected', 'prohibited_content', 'spam', 'misleading', 'other')
);
