-- The same advert text posted from several accounts is one operator's (a usual spam and
-- trafficking sign): the duplicate check compares ads' text as it compares phones and photos
-- (moderation.duplicates.ts). Ads posted before this have no text hash until they are edited: no
-- pass over the ads here.

-- A hash of an ad's title and description as the check normalises them (normaliseAdText), written
-- when the ad is posted or edited: its text and, while an edit of a live ad waits for review, the
-- live ad's too. Texts too short to tell an operator by have none. No foreign key: kept with held
-- ads, as photo_hashes.
CREATE TABLE text_hashes (
  ad_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (ad_id, hash)
) WITHOUT ROWID;
CREATE INDEX text_hashes_hash ON text_hashes (hash, owner_id);

-- Flags of the new kind 'text'. SQLite cannot change a CHECK constraint: the table (a few rows per
-- flagged ad, nothing refers to it) is rebuilt, its rows kept, its index made again.
CREATE TABLE duplicate_flags_new (
  ad_id TEXT NOT NULL,
  other_ad_id TEXT NOT NULL,
  other_owner_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('phone', 'photo', 'text')),
  -- Photo flags: the smallest Hamming distance between the two ads' photo hashes.
  distance INTEGER,
  created_at TEXT NOT NULL,
  PRIMARY KEY (ad_id, other_ad_id, kind)
) WITHOUT ROWID;
INSERT INTO duplicate_flags_new (ad_id, other_ad_id, other_owner_id, kind, distance, created_at)
  SELECT ad_id, other_ad_id, other_owner_id, kind, distance, created_at FROM duplicate_flags;
DROP TABLE duplicate_flags;
ALTER TABLE duplicate_flags_new RENAME TO duplicate_flags;
CREATE INDEX duplicate_flags_other ON duplicate_flags (other_ad_id);
