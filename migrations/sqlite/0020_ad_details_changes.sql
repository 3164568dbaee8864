-- The details an ad's public answer shows since 0012 (rates, incall, outcall, hours) were missing
-- from the change trigger 0016 wrote: an approved edit of those alone dropped no cached answer, so
-- the ad's JSON kept the old rates for up to a minute and its page for up to an hour. Same trigger,
-- with those columns.
DROP TRIGGER ads_cards_update;

CREATE TRIGGER ads_cards_update AFTER UPDATE ON ads
WHEN ((OLD.visible = 1 OR NEW.visible = 1) AND (
  OLD.visible IS NOT NEW.visible OR OLD.bump_seq IS NOT NEW.bump_seq OR OLD.bumped_at IS NOT NEW.bumped_at
  OR OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description OR OLD.age IS NOT NEW.age
  OR OLD.city_id IS NOT NEW.city_id OR OLD.state_id IS NOT NEW.state_id OR OLD.listing_type IS NOT NEW.listing_type
  OR OLD.phone IS NOT NEW.phone OR OLD.photos_json IS NOT NEW.photos_json OR OLD.status IS NOT NEW.status
  OR OLD.online IS NOT NEW.online OR OLD.published_at IS NOT NEW.published_at OR OLD.expires_at IS NOT NEW.expires_at
  OR OLD.owner_id IS NOT NEW.owner_id
  OR OLD.rates_json IS NOT NEW.rates_json OR OLD.incall IS NOT NEW.incall OR OLD.outcall IS NOT NEW.outcall
  OR OLD.availability_json IS NOT NEW.availability_json
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
