-- Files a legal hold keeps that no row names any more: an avatar its held owner replaced. (An ad's
-- photos are named by its rows, which a hold keeps: its copy in held_ads, its revisions in
-- ad_revisions, its versions in ad_versions.) The orphan-upload sweep leaves these files alone;
-- when the last hold on the account is released they are removed (completeDeferredDeletions).
CREATE TABLE held_files (
  path TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX held_files_user ON held_files (user_id);

-- The sweep reads every revision and version of a held ad or of a held account's ads: by ad
-- (ad_versions already has its index by ad) and by owner.
CREATE INDEX ad_revisions_ad ON ad_revisions (ad_id);
CREATE INDEX ad_revisions_owner ON ad_revisions (owner_id);
CREATE INDEX ad_versions_owner ON ad_versions (owner_id);
