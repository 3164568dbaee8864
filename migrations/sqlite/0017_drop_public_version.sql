-- The single global version number of the first public caches (0003: every change of a public ad
-- bumped it, and every cached answer was keyed by it) has been read by nothing since the change log
-- (0011) drops only what a change touches (issue #15). Its triggers still wrote it: one more row,
-- one more page in every flip's, bump's and publication's transaction, and one in every change of
-- an owner's phone. The three search-index triggers of 0014 are made again without it, the phone
-- trigger of 0007 and the table go; what else the triggers do is unchanged.
DROP TRIGGER ads_public_owner_phone;
DROP TRIGGER ads_fts_insert;
DROP TRIGGER ads_fts_update;
DROP TRIGGER ads_fts_delete;

CREATE TRIGGER ads_fts_insert AFTER INSERT ON ads WHEN NEW.visible = 1
BEGIN
  INSERT INTO ads_fts (rowid, title, description, place, tags)
  SELECT -NEW.bump_seq, NEW.title, NEW.description, c.name || ' ' || s.name || ' ' || s.code,
         'ty' || replace(NEW.listing_type, '_', '') || ' st' || NEW.state_id
  FROM cities c JOIN states s ON s.id = NEW.state_id WHERE c.id = NEW.city_id;
  INSERT INTO ads_public_counts (city_id, listing_type, state_id, n) SELECT NEW.city_id, NEW.listing_type, NEW.state_id, 1 WHERE true
    ON CONFLICT (city_id, listing_type) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER ads_fts_update AFTER UPDATE OF visible, bump_seq, title, description, city_id, state_id, listing_type ON ads
WHEN OLD.visible = 1 OR NEW.visible = 1
BEGIN
  DELETE FROM ads_fts WHERE OLD.visible = 1 AND rowid = -OLD.bump_seq;
  INSERT INTO ads_fts (rowid, title, description, place, tags)
  SELECT -NEW.bump_seq, NEW.title, NEW.description, c.name || ' ' || s.name || ' ' || s.code,
         'ty' || replace(NEW.listing_type, '_', '') || ' st' || NEW.state_id
  FROM cities c JOIN states s ON s.id = NEW.state_id WHERE NEW.visible = 1 AND c.id = NEW.city_id;
  UPDATE ads_public_counts SET n = n - 1 WHERE OLD.visible = 1 AND city_id = OLD.city_id AND listing_type = OLD.listing_type;
  INSERT INTO ads_public_counts (city_id, listing_type, state_id, n) SELECT NEW.city_id, NEW.listing_type, NEW.state_id, 1 WHERE NEW.visible = 1
    ON CONFLICT (city_id, listing_type) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER ads_fts_delete AFTER DELETE ON ads WHEN OLD.visible = 1
BEGIN
  DELETE FROM ads_fts WHERE rowid = -OLD.bump_seq;
  UPDATE ads_public_counts SET n = n - 1 WHERE city_id = OLD.city_id AND listing_type = OLD.listing_type;
END;

DROP TABLE ads_public_version;
