-- Upload files the public may no longer fetch (staff still do: review, search, evidence). Their
-- names cannot be guessed, but once published they are known (pages, link previews, image search):
-- a taken-down ad's photos must stop answering too. A file is withdrawn while any row names it, one
-- row per reason: 'ad:<id>' while staff keep that ad disabled, 'user:<id>' while its owner is
-- suspended, 'hold' for a file only a legal hold keeps on disk (a deleted held ad's photos, an
-- edit's dropped photo, a held account's replaced avatar).
CREATE TABLE withdrawn_uploads (
  path TEXT NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (path, reason)
) WITHOUT ROWID;
CREATE INDEX withdrawn_uploads_reason ON withdrawn_uploads (reason);

-- What is taken down or held when this runs.
WITH photo_sets(photos, reason) AS (
  SELECT photos_json, 'ad:' || id FROM ads WHERE status = 'disabled'
  UNION ALL
  SELECT r.photos_json, 'ad:' || a.id FROM ad_revisions r JOIN ads a ON a.id = r.ad_id WHERE a.status = 'disabled' AND r.status = 'pending'
  UNION ALL
  SELECT a.photos_json, 'user:' || u.id FROM ads a JOIN users u ON u.id = a.owner_id WHERE u.status = 'suspended'
  UNION ALL
  SELECT r.photos_json, 'user:' || u.id FROM ad_revisions r JOIN users u ON u.id = r.owner_id WHERE u.status = 'suspended' AND r.status = 'pending'
  UNION ALL
  SELECT photos_json, 'hold' FROM held_ads
)
INSERT OR IGNORE INTO withdrawn_uploads (path, reason)
SELECT f.value, s.reason
FROM photo_sets s, json_each(s.photos) p, json_each(json_array(json_extract(p.value, '$.path'), json_extract(p.value, '$.thumbPath'))) f
WHERE f.value IS NOT NULL;

INSERT OR IGNORE INTO withdrawn_uploads (path, reason) SELECT path, 'hold' FROM held_files;
