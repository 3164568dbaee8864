-- A published ad's own answer (its JSON and its page) changes even while it is hidden: an offline,
-- disabled or suspended owner's ad answers 404, and 410 once it ran out or was deleted (issue #15).
-- The change log (0011) recorded only changes of the public set, so a kept 404 of a hidden ad stayed
-- when the ad was deleted (now 410), renewed or re-enabled. Such changes are now logged too, with
-- the ad's id alone (no list, count or search holds a hidden ad): the caches drop that ad's
-- answers and nothing else.
DROP TRIGGER ads_cards_update;
DROP TRIGGER ads_cards_delete;

-- Any change of what the public sees of an ad that is (or was) public; and of a hidden published
-- ad, a change of status or term (which decide between 404 and 410).
CREATE TRIGGER ads_cards_update AFTER UPDATE ON ads
WHEN ((OLD.visible = 1 OR NEW.visible = 1) AND (
  OLD.visible IS NOT NEW.visible OR OLD.bump_seq IS NOT NEW.bump_seq OR OLD.bumped_at IS NOT NEW.bumped_at
  OR OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description OR OLD.age IS NOT NEW.age
  OR OLD.city_id IS NOT NEW.city_id OR OLD.state_id IS NOT NEW.state_id OR OLD.listing_type IS NOT NEW.listing_type
  OR OLD.phone IS NOT NEW.phone OR OLD.photos_json IS NOT NEW.photos_json OR OLD.status IS NOT NEW.status
  OR OLD.online IS NOT NEW.online OR OLD.published_at IS NOT NEW.published_at OR OLD.expires_at IS NOT NEW.expires_at
  OR OLD.owner_id IS NOT NEW.owner_id
)) OR (OLD.visible = 0 AND NEW.visible = 0 AND NEW.published_at IS NOT NULL AND (
  OLD.status IS NOT NEW.status OR OLD.expires_at IS NOT NEW.expires_at
))
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

-- A deleted ad leaves the public set (when it was in it); a published one's answer becomes 410 either way.
CREATE TRIGGER ads_cards_delete AFTER DELETE ON ads
BEGIN
  DELETE FROM ads_cards WHERE OLD.visible = 1 AND city_id = OLD.city_id AND listing_type = OLD.listing_type AND bump_seq = OLD.bump_seq;
  INSERT INTO ads_public_changes (ad_id, old_seq, old_city, old_state, old_type)
  SELECT OLD.id, CASE WHEN OLD.visible = 1 THEN OLD.bump_seq END, CASE WHEN OLD.visible = 1 THEN OLD.city_id END,
    CASE WHEN OLD.visible = 1 THEN OLD.state_id END, CASE WHEN OLD.visible = 1 THEN OLD.listing_type END
  WHERE OLD.visible = 1 OR OLD.published_at IS NOT NULL;
  INSERT OR REPLACE INTO ads_gone (id, gone_at) SELECT OLD.id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE OLD.published_at IS NOT NULL;
END;
