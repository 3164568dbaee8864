-- Public reads that stay fast while ads change (issue #15):
--
-- ads_cards       one row per publicly visible ad, clustered by (city, listing type, bump order), holding
--                 the card the listings and search answers send, already as JSON: a listing page is a
--                 range of contiguous rows, with no per-row work outside SQLite.
-- ads_public_changes
--                 a log of every change of the public set (an ad entering, leaving or changing in it;
--                 a place enabled or disabled), read by the server's caches to drop only the answers a
--                 change can touch, instead of a global version number that dropped them all.
-- ads_gone        ads that were published and have since been deleted: their page answers 410.
--
-- All three are kept by triggers, whoever writes (services, triggers on users and places, scripts).

-- The card of an ad (src/components/market/AdCard.tsx shows it): what the public list answers carry.
-- Keys and shapes are contract/api/ads.ts AdCardSchema; photo URLs are uploads.storage.ts uploadUrl().
CREATE VIEW ads_card_source AS
SELECT
  a.id AS id,
  a.visible AS visible,
  a.city_id AS city_id,
  a.listing_type AS listing_type,
  a.bump_seq AS bump_seq,
  a.state_id AS state_id,
  a.expires_at AS expires_at,
  json_object(
    'id', a.id,
    'listingType', a.listing_type,
    'title', a.title,
    'age', a.age,
    'state', json_object('name', s.name, 'slug', s.slug),
    'city', json_object('name', c.name, 'slug', c.slug),
    'phoneVerified', json(CASE WHEN EXISTS (
      SELECT 1 FROM users u WHERE u.id = a.owner_id AND u.phone = a.phone AND u.phone_verified_at IS NOT NULL
    ) THEN 'true' ELSE 'false' END),
    'photo', json((
      SELECT json_object(
        'url', '/uploads/' || (p.value ->> 'path'),
        'width', p.value ->> 'width',
        'height', p.value ->> 'height',
        'thumbUrl', '/uploads/' || (p.value ->> 'thumbPath'),
        'thumbWidth', p.value ->> 'thumbWidth',
        'thumbHeight', p.value ->> 'thumbHeight'
      ) FROM json_each(a.photos_json) p WHERE p.key = 0
    )),
    'bumpedAt', a.bumped_at
  ) AS card
FROM ads a JOIN cities c ON c.id = a.city_id JOIN states s ON s.id = a.state_id;

CREATE TABLE ads_cards (
  city_id TEXT NOT NULL,
  listing_type TEXT NOT NULL,
  bump_seq INTEGER NOT NULL,
  state_id TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  card TEXT NOT NULL,
  PRIMARY KEY (city_id, listing_type, bump_seq)
) WITHOUT ROWID;
-- The other list scopes and search (by bump_seq) find a card's key here, then read it by key.
CREATE UNIQUE INDEX ads_cards_seq ON ads_cards (bump_seq);
CREATE INDEX ads_cards_city ON ads_cards (city_id, bump_seq);
CREATE INDEX ads_cards_state_type ON ads_cards (state_id, listing_type, bump_seq);
CREATE INDEX ads_cards_state ON ads_cards (state_id, bump_seq);
CREATE INDEX ads_cards_type ON ads_cards (listing_type, bump_seq);

INSERT INTO ads_cards (city_id, listing_type, bump_seq, state_id, expires_at, card)
SELECT city_id, listing_type, bump_seq, state_id, expires_at, card FROM ads_card_source WHERE visible = 1;

-- The lists read ads_cards now; these partial indexes of 0003 served only them.
DROP INDEX ads_pub_city_type;
DROP INDEX ads_pub_city;
DROP INDEX ads_pub_state_type;
DROP INDEX ads_pub_state;
DROP INDEX ads_pub_type;
DROP INDEX ads_pub_all;
-- Upcoming and overdue expiries of public ads (the lists' exact totals and cache lifetimes).
CREATE INDEX ads_public_expiry ON ads (expires_at) WHERE visible = 1;

-- kind 'ad': an ad left (old_*) and/or entered (new_*) the public set, or changed in it (both, same
-- or different place); kind 'place': a city or state was enabled or disabled. Pruned to the last
-- 100,000 rows; a reader that fell further behind drops everything it cached.
CREATE TABLE ads_public_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL DEFAULT 'ad' CHECK (kind IN ('ad', 'place')),
  ad_id TEXT,
  old_seq INTEGER,
  old_city TEXT,
  old_state TEXT,
  old_type TEXT,
  new_seq INTEGER,
  new_city TEXT,
  new_state TEXT,
  new_type TEXT,
  new_expires TEXT
);

CREATE TABLE ads_gone (
  id TEXT PRIMARY KEY,
  gone_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER ads_public_changes_prune AFTER INSERT ON ads_public_changes WHEN NEW.seq % 1000 = 0
BEGIN
  DELETE FROM ads_public_changes WHERE seq <= NEW.seq - 100000;
END;

CREATE TRIGGER ads_cards_insert AFTER INSERT ON ads WHEN NEW.visible = 1
BEGIN
  INSERT INTO ads_cards (city_id, listing_type, bump_seq, state_id, expires_at, card)
  SELECT city_id, listing_type, bump_seq, state_id, expires_at, card FROM ads_card_source WHERE id = NEW.id;
  INSERT INTO ads_public_changes (ad_id, new_seq, new_city, new_state, new_type, new_expires)
  VALUES (NEW.id, NEW.bump_seq, NEW.city_id, NEW.state_id, NEW.listing_type, NEW.expires_at);
END;

-- Any change of what the public sees of an ad that is (or was) public.
CREATE TRIGGER ads_cards_update AFTER UPDATE ON ads
WHEN (OLD.visible = 1 OR NEW.visible = 1) AND (
  OLD.visible IS NOT NEW.visible OR OLD.bump_seq IS NOT NEW.bump_seq OR OLD.bumped_at IS NOT NEW.bumped_at
  OR OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description OR OLD.age IS NOT NEW.age
  OR OLD.city_id IS NOT NEW.city_id OR OLD.state_id IS NOT NEW.state_id OR OLD.listing_type IS NOT NEW.listing_type
  OR OLD.phone IS NOT NEW.phone OR OLD.photos_json IS NOT NEW.photos_json OR OLD.status IS NOT NEW.status
  OR OLD.online IS NOT NEW.online OR OLD.published_at IS NOT NEW.published_at OR OLD.expires_at IS NOT NEW.expires_at
  OR OLD.owner_id IS NOT NEW.owner_id
)
BEGIN
  DELETE FROM ads_cards WHERE OLD.visible = 1 AND city_id = OLD.city_id AND listing_type = OLD.listing_type AND bump_seq = OLD.bump_seq;
  INSERT INTO ads_cards (city_id, listing_type, bump_seq, state_id, expires_at, card)
  SELECT city_id, listing_type, bump_seq, state_id, expires_at, card FROM ads_card_source WHERE NEW.visible = 1 AND id = NEW.id;
  INSERT INTO ads_public_changes (ad_id, old_seq, old_city, old_state, old_type, new_seq, new_city, new_state, new_type, new_expires)
  VALUES (
    NEW.id,
    CASE WHEN OLD.visible = 1 THEN OLD.bump_seq END, CASE WHEN OLD.visible = 1 THEN OLD.city_id END,
    CASE WHEN OLD.visible = 1 THEN OLD.state_id END, CASE WHEN OLD.visible = 1 THEN OLD.listing_type END,
    CASE WHEN NEW.visible = 1 THEN NEW.bump_seq END, CASE WHEN NEW.visible = 1 THEN NEW.city_id END,
    CASE WHEN NEW.visible = 1 THEN NEW.state_id END, CASE WHEN NEW.visible = 1 THEN NEW.listing_type END,
    CASE WHEN NEW.visible = 1 THEN NEW.expires_at END
  );
END;

CREATE TRIGGER ads_cards_delete AFTER DELETE ON ads
BEGIN
  DELETE FROM ads_cards WHERE OLD.visible = 1 AND city_id = OLD.city_id AND listing_type = OLD.listing_type AND bump_seq = OLD.bump_seq;
  INSERT INTO ads_public_changes (ad_id, old_seq, old_city, old_state, old_type)
  SELECT OLD.id, OLD.bump_seq, OLD.city_id, OLD.state_id, OLD.listing_type WHERE OLD.visible = 1;
  INSERT OR REPLACE INTO ads_gone (id, gone_at) SELECT OLD.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE OLD.published_at IS NOT NULL;
END;

-- A card says whether the ad's phone is its owner's verified phone.
CREATE TRIGGER ads_cards_owner_phone AFTER UPDATE OF phone, phone_verified_at ON users
WHEN OLD.phone IS NOT NEW.phone OR OLD.phone_verified_at IS NOT NEW.phone_verified_at
BEGIN
  UPDATE ads_cards SET card = json_set(card, '$.phoneVerified', json(CASE WHEN NEW.phone_verified_at IS NOT NULL AND NEW.phone = (
    SELECT a.phone FROM ads a WHERE a.city_id = ads_cards.city_id AND a.listing_type = ads_cards.listing_type AND a.bump_seq = ads_cards.bump_seq
  ) THEN 'true' ELSE 'false' END))
  WHERE (city_id, listing_type, bump_seq) IN (SELECT city_id, listing_type, bump_seq FROM ads WHERE owner_id = NEW.id AND visible = 1);
  INSERT INTO ads_public_changes (ad_id, old_seq, old_city, old_state, old_type, new_seq, new_city, new_state, new_type, new_expires)
  SELECT id, bump_seq, city_id, state_id, listing_type, bump_seq, city_id, state_id, listing_type, expires_at FROM ads WHERE owner_id = NEW.id AND visible = 1;
END;

CREATE TRIGGER ads_public_city AFTER UPDATE OF enabled ON cities WHEN OLD.enabled IS NOT NEW.enabled
BEGIN
  INSERT INTO ads_public_changes (kind) VALUES ('place');
END;

CREATE TRIGGER ads_public_state AFTER UPDATE OF enabled ON states WHEN OLD.enabled IS NOT NEW.enabled
BEGIN
  INSERT INTO ads_public_changes (kind) VALUES ('place');
END;
