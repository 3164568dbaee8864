-- An owner's move of an ad to another city (PUT /api/update-ad-location) is kept as a version too,
-- source 'moved': an ad moved from one city to another and on kept no trace of where it was in
-- between, though every version is kept (the evidence export reads them). SQLite cannot change a
-- CHECK constraint: the table is rebuilt, its rows and their ids kept, its indexes made again.

CREATE TABLE ad_versions_new (
  id INTEGER PRIMARY KEY,
  ad_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('posted', 'edited', 'revision_approved', 'moved')),
  fields_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);
INSERT INTO ad_versions_new (id, ad_id, owner_id, source, fields_json, created_at)
  SELECT id, ad_id, owner_id, source, fields_json, created_at FROM ad_versions;
DROP TABLE ad_versions;
ALTER TABLE ad_versions_new RENAME TO ad_versions;
CREATE INDEX ad_versions_ad ON ad_versions (ad_id, id);
-- The legal-hold sweep reads a held account's versions by owner (0018).
CREATE INDEX ad_versions_owner ON ad_versions (owner_id);
